// Python's syntax and operators on nunjucks' lexer, parser and compiler, as TEA's Jinja2 reads a template:
// + - * / // ** % ~ and unary minus by Python's rules, Python's truth in if/not/and/or, == by value, float
// and exponent literals, tuples, a test's one argument without parentheses, {% set ns.x = ... %}.
import nunjucks from 'nunjucks';
import { pyMod } from './py-format.js';
import { pyFloat, pyNeg, pyPos } from './py-float.js';
import { pyAdd, pyBinary, pyConcat, pyEq, pyMul } from './py-methods.js';
import { pyTuple, pyTruthy } from './py-values.js';

export interface PyRuntime {
  pyAdd: typeof pyAdd;
  pyConcat: typeof pyConcat;
  pyEq: typeof pyEq;
  pyTruthy: typeof pyTruthy;
  pyMod: typeof pyMod;
  pyMul: typeof pyMul;
  pyBinary: typeof pyBinary;
  pyNeg: typeof pyNeg;
  pyPos: typeof pyPos;
  pyFloat: typeof pyFloat;
  pyTuple: typeof pyTuple;
  nsSet: (obj: unknown, key: unknown, value: unknown) => void;
  dotLookup: (obj: unknown, key: unknown) => unknown;
  pyChain: typeof pyChain;
}
interface BinOp { left: unknown; right: unknown }
interface CompareNode { expr: unknown; ops: { type: string; expr: unknown }[] }
interface CompilerLike { _emit(code: string): void; compile(node: unknown, frame: unknown): void }
interface Token { type: string; value: string; lineno: number; colno: number }
interface TokenizerLike { str: string; index: number; forward(): void }
interface ParserLike {
  peekToken(): Token | null;
  nextToken(): Token | null;
  pushToken(t: Token): void;
  skip(type: string): boolean;
  fail(message: string, lineno?: number, colno?: number): never;
  parsePrimary(noPostfix?: boolean): unknown;
  parseExpression(): unknown;
  parseCompare(): unknown;
}
type NodeClass = new (lineno: number, colno: number, ...rest: unknown[]) => { children: unknown[]; addChild(c: unknown): void } & Record<string, unknown>;
interface Nodes { Group: NodeClass & { extend(name: string): NodeClass }; Array: NodeClass; Dict: NodeClass; Pair: NodeClass; FunCall: NodeClass; NodeList: NodeClass; Is: NodeClass; Not: NodeClass; Symbol: NodeClass; LookupVal: NodeClass; Literal: NodeClass }

/** a op1 b op2 c ... as Python's chain: each link holds, the next side read only while they do. */
function pyChain(first: unknown, ...links: unknown[]): boolean {
  let left = first;
  for (let i = 0; i < links.length; i += 2) {
    const op = links[i] as string;
    const right = (links[i + 1] as () => unknown)();
    const holds = op === '==' || op === '===' ? pyEq(left, right) : op === '!=' || op === '!==' ? !pyEq(left, right)
      : op === '<' ? (left as number) < (right as number) : op === '>' ? (left as number) > (right as number)
        : op === '<=' ? (left as number) <= (right as number) : (left as number) >= (right as number);
    if (!holds) return false;
    left = right;
  }
  return true;
}

export function installPythonSyntax(runtime: PyRuntime, nsSet: PyRuntime['nsSet']): void {
  // `+`, `*`, `~` and `%` as Python's: lists concatenate (JavaScript joined them into one string), `~` prints
  // each side with str(). The compiled template calls these through the runtime it is handed.
  runtime.pyAdd = pyAdd;
  runtime.pyConcat = pyConcat;
  runtime.pyMod = pyMod;
  runtime.pyMul = pyMul;
  runtime.pyEq = pyEq;
  const compiler = (nunjucks as unknown as { compiler: { Compiler: { prototype: Record<string, unknown> } } }).compiler.Compiler.prototype;
  const emitCall = (fn: string) => function (this: CompilerLike, node: BinOp, frame: unknown) {
    this._emit(`runtime.${fn}(`);
    this.compile(node.left, frame);
    this._emit(', ');
    this.compile(node.right, frame);
    this._emit(')');
  };
  compiler.compileAdd = emitCall('pyAdd');
  runtime.nsSet = nsSet;
  type SetNode = { targets: { target?: unknown; val?: unknown }[]; value: unknown };
  const compileSet = compiler.compileSet as (this: CompilerLike, node: SetNode, frame: unknown) => void;
  compiler.compileSet = function (this: CompilerLike, node: SetNode, frame: unknown) {
    const [t] = node.targets;
    if (node.targets.length !== 1 || t.target === undefined || t.val === undefined) return compileSet.call(this, node, frame);
    if (!node.value) throw new Error('{% set ns.name %}...{% endset %} is not supported; write {% set ns.name = value %}');
    this._emit('runtime.nsSet(');
    this.compile(t.target, frame);
    this._emit(', ');
    this.compile(t.val, frame);
    this._emit(', ');
    this.compile(node.value, frame);
    this._emit(');\n');
  };
  // -, /, //, ** and unary minus as Python's: 4 / 2 is the float 2.0, 7 // 2 the int 3, 1 / 0 an error.
  runtime.pyBinary = pyBinary;
  runtime.pyNeg = pyNeg;
  runtime.pyPos = pyPos;
  runtime.pyFloat = pyFloat;
  const emitBinary = (op: string) => function (this: CompilerLike, node: BinOp, frame: unknown) {
    this._emit(`runtime.pyBinary(${JSON.stringify(op)}, `);
    this.compile(node.left, frame);
    this._emit(', ');
    this.compile(node.right, frame);
    this._emit(')');
  };
  compiler.compileSub = emitBinary('-');
  compiler.compileDiv = emitBinary('/');
  compiler.compileFloorDiv = emitBinary('//');
  compiler.compilePow = emitBinary('**');
  const emitUnary = (fn: string) => function (this: CompilerLike, node: { target: unknown }, frame: unknown) {
    this._emit(`runtime.${fn}(`);
    this.compile(node.target, frame);
    this._emit(')');
  };
  compiler.compileNeg = emitUnary('pyNeg');
  compiler.compilePos = emitUnary('pyPos');
  // A float literal (2.0) stays a float: the parser marks the literal a float token made.
  const parser = (nunjucks as unknown as { parser: { Parser: { prototype: Record<string, unknown> } } }).parser.Parser.prototype;
  const parsePrimary = parser.parsePrimary as (this: { peekToken(): { type: string } | null }, noPostfix?: boolean) => { value?: unknown; target?: { value?: unknown } };
  parser.parsePrimary = function (this: { peekToken(): { type: string } | null }, noPostfix?: boolean) {
    const float = this.peekToken()?.type === 'float';
    const node = parsePrimary.call(this, noPostfix);
    if (float) {
      const literal = typeof node.value === 'number' ? node : node.target;
      if (literal && typeof literal.value === 'number') (literal as { pyFloat?: boolean }).pyFloat = true;
    }
    return node;
  };
  const compileLiteral = compiler.compileLiteral as (this: CompilerLike, node: { value: unknown; pyFloat?: boolean }, frame: unknown) => void;
  compiler.compileLiteral = function (this: CompilerLike, node: { value: unknown; pyFloat?: boolean }, frame: unknown) {
    if (node.pyFloat === true && typeof node.value === 'number') return this._emit(`runtime.pyFloat(${node.value})`);
    return compileLiteral.call(this, node, frame);
  };
  // A parenthesised list with a comma, or (), is a tuple (Jinja's: it prints (1, 2)), not JavaScript's
  // comma operator; parseAggregate (below) marks the comma.
  const compileGroup = compiler.compileGroup as (this: CompilerLike, node: { children: unknown[] }, frame: unknown) => void;
  compiler.compileGroup = function (this: CompilerLike & { compileArray(n: unknown, f: unknown): void }, node: { children: unknown[]; pyTuple?: boolean }, frame: unknown) {
    if (node.children.length === 1 && node.pyTuple !== true) return compileGroup.call(this, node, frame);
    this._emit('runtime.pyTuple(');
    this.compileArray(node, frame);
    this._emit(')');
  };
  compiler.compileConcat = emitCall('pyConcat');
  compiler.compileMod = emitCall('pyMod');
  compiler.compileMul = emitCall('pyMul');
  // Python's truth in {% if %}, `x if c else y`, `not`, `and`, `or`: [] and {} are false (JavaScript's are
  // true), and `a or b` hands back a or b as Python does.
  runtime.pyTruthy = pyTruthy;
  type Nodes = { Group: { extend(name: string): new (lineno: number, colno: number, children: unknown[]) => unknown } };
  const PyTruth = (nunjucks as unknown as { nodes: Nodes }).nodes.Group.extend('PyTruth');
  const truth = (n: { lineno: number; colno: number }) => new PyTruth(n.lineno, n.colno, [n]);
  compiler.compilePyTruth = function (this: CompilerLike, node: { children: unknown[] }, frame: unknown) {
    this._emit('runtime.pyTruthy(');
    this.compile(node.children[0], frame);
    this._emit(')');
  };
  for (const [method, field] of [['compileIf', 'cond'], ['compileInlineIf', 'cond'], ['compileNot', 'target']] as const) {
    const original = compiler[method] as (this: unknown, node: Record<string, unknown>, ...rest: unknown[]) => unknown;
    compiler[method] = function (this: unknown, node: Record<string, unknown>, ...rest: unknown[]) {
      if (!(node[field] instanceof PyTruth)) node[field] = truth(node[field] as { lineno: number; colno: number });
      return original.call(this, node, ...rest);
    };
  }
  const shortCircuit = (keepLeftWhenTrue: boolean) => function (this: CompilerLike, node: BinOp, frame: unknown) {
    this._emit('((pyT) => (');
    this._emit(keepLeftWhenTrue ? 'runtime.pyTruthy(pyT)' : '!runtime.pyTruthy(pyT)');
    this._emit(' ? pyT : (');
    this.compile(node.right, frame);
    this._emit(')))(');
    this.compile(node.left, frame);
    this._emit(')');
  };
  compiler.compileOr = shortCircuit(true);
  compiler.compileAnd = shortCircuit(false);
  // `==` and `!=` by Python's equality: JavaScript's compared lists by identity and "1" == 1.
  const compileCompare = compiler.compileCompare as (this: CompilerLike, node: CompareNode, frame: unknown) => void;
  compiler.compileCompare = function (this: CompilerLike, node: CompareNode, frame: unknown) {
    // A chain (3 > 2 > 1) is Python's (3 > 2) and (2 > 1), each right side read only when needed;
    // JavaScript's compared true > 1 and answered False.
    if (node.ops.length > 1) {
      this._emit('runtime.pyChain(');
      this.compile(node.expr, frame);
      for (const o of node.ops) {
        this._emit(`, ${JSON.stringify(o.type)}, () => (`);
        this.compile(o.expr, frame);
        this._emit(')');
      }
      this._emit(')');
      return;
    }
    const op = node.ops[0]?.type ?? '';
    if (!['==', '!=', '===', '!=='].includes(op)) return compileCompare.call(this, node, frame);
    this._emit(op.startsWith('!') ? '!runtime.pyEq(' : 'runtime.pyEq(');
    this.compile(node.expr, frame);
    this._emit(', ');
    this.compile(node.ops[0].expr, frame);
    this._emit(')');
  };
  runtime.pyChain = pyChain;
  installLiterals(runtime);
  installTests();
  installDotLookups(compiler);
}

const parserProto = (nunjucks as unknown as { parser: { Parser: { prototype: Record<string, unknown> } } }).parser.Parser.prototype;
const nodes = (nunjucks as unknown as { nodes: Nodes }).nodes;
const lexer = nunjucks as unknown as { lexer: { lex(src: string): unknown } };

// Jinja2's number literals that nunjucks' lexer does not read: an exponent (1e3, 2.5e-3, 1E+6 are floats)
// and underscores between digits (1_000).
const EXPONENT = /[eE][+-]?\d(?:_?\d)*/y;
const SIGNED_DIGITS = /[+-]?\d(?:_?\d)*/y;

function installLiterals(runtime: PyRuntime): void {
  runtime.pyTuple = pyTuple;
  const tokenizer = Object.getPrototypeOf(lexer.lexer.lex('')) as Record<string, unknown>;
  const nextToken = tokenizer.nextToken as (this: TokenizerLike) => Token | null;
  const take = (t: TokenizerLike, re: RegExp): string => {
    re.lastIndex = t.index;
    const m = re.exec(t.str);
    if (!m) return '';
    for (let i = 0; i < m[0].length; i++) t.forward();
    return m[0];
  };
  tokenizer.nextToken = function (this: TokenizerLike) {
    const tok = nextToken.call(this);
    if (!tok) return tok;
    if (tok.type === 'float' || tok.type === 'int') {
      const exp = take(this, EXPONENT);
      if (exp) return { ...tok, type: 'float', value: (tok.value + exp).replace(/_/g, '') };
    } else if (tok.type === 'symbol') {
      // "1e3" and "1_000" came out as one name; "1e" stopped at the sign of "1e-3".
      if (/^\d(?:_?\d)*$/.test(tok.value)) return { ...tok, type: 'int', value: tok.value.replace(/_/g, '') };
      if (/^\d(?:_?\d)*[eE]\d(?:_?\d)*$/.test(tok.value)) return { ...tok, type: 'float', value: tok.value.replace(/_/g, '') };
      if (/^\d(?:_?\d)*[eE]$/.test(tok.value)) {
        const rest = take(this, SIGNED_DIGITS);
        if (rest) return { ...tok, type: 'float', value: (tok.value + rest).replace(/_/g, '') };
      }
    }
    return tok;
  };
}

// Jinja's `x is divisibleby 3`, `x is sameas none`: a test takes one argument without parentheses (a
// literal, a name, a list, a dict), as Jinja's parse_test reads it; nunjucks stopped at the argument.
const TEST_ARG_TOKENS = new Set(['symbol', 'string', 'int', 'float', 'boolean', 'none', 'left-bracket', 'left-curly']);
const NOT_AN_ARG = new Set(['else', 'or', 'and', 'if', 'in', 'is', 'not']);

function installTests(): void {
  parserProto.parseIs = function parseIs(this: ParserLike) {
    let node = this.parseCompare() as { lineno: number; colno: number };
    if (!skipSymbol(this, 'is')) return node;
    const not = skipSymbol(this, 'not');
    let test = this.parseCompare() as { lineno: number; colno: number; typename?: string };
    const next = this.peekToken();
    if (test instanceof nodes.Symbol && next && TEST_ARG_TOKENS.has(next.type) && !(next.type === 'symbol' && NOT_AN_ARG.has(next.value))) {
      const arg = this.parsePrimary();
      test = new nodes.FunCall(test.lineno, test.colno, test, new nodes.NodeList(next.lineno, next.colno, [arg])) as unknown as typeof test;
    }
    node = new nodes.Is(node.lineno, node.colno, node, test) as unknown as typeof node;
    return not ? new nodes.Not(node.lineno, node.colno, node) : node;
  };
}

function skipSymbol(p: ParserLike, name: string): boolean {
  const t = p.peekToken();
  if (t && t.type === 'symbol' && t.value === name) { p.nextToken(); return true; }
  return false;
}

// TEA's DotDict hands out a copy of a mapping read by name (state.d is DotDict(state["d"])), while
// state["d"] is the mapping itself: so {{ state.d.update({...}) }} changes a copy and state['d'].update()
// the state. The parser marks a lookup written with a dot; the sandbox's dotLookup makes the copy.
function installDotLookups(compiler: Record<string, unknown>): void {
  parserProto.parsePostfix = function parsePostfix(this: ParserLike & { parseSignature(): unknown; parseAggregate(): { children: unknown[] } | null }, start: unknown) {
    let node = start;
    for (let tok = this.peekToken(); tok; tok = this.peekToken()) {
      if (tok.type === 'left-paren') {
        node = new nodes.FunCall(tok.lineno, tok.colno, node, this.parseSignature());
      } else if (tok.type === 'left-bracket') {
        const lookup = this.parseAggregate()!;
        if (lookup.children.length > 1) this.fail('invalid index');
        node = new nodes.LookupVal(tok.lineno, tok.colno, node, lookup.children[0]);
      } else if (tok.type === 'operator' && tok.value === '.') {
        this.nextToken();
        const val = this.nextToken();
        if (!val || val.type !== 'symbol') this.fail(`expected name as lookup value, got ${val?.value}`, val?.lineno, val?.colno);
        node = new nodes.LookupVal(tok.lineno, tok.colno, node, new nodes.Literal(val.lineno, val.colno, val.value));
        (node as { pyDot?: boolean }).pyDot = true;
      } else {
        break;
      }
    }
    return node;
  };
  const compileLookupVal = compiler.compileLookupVal as (this: CompilerLike, node: { target: unknown; val: unknown; pyDot?: boolean }, frame: unknown) => void;
  compiler.compileLookupVal = function (this: CompilerLike & { _compileExpression(n: unknown, f: unknown): void }, node: { target: unknown; val: unknown; pyDot?: boolean }, frame: unknown) {
    if (node.pyDot !== true) return compileLookupVal.call(this, node, frame);
    this._emit('runtime.dotLookup((');
    this._compileExpression(node.target, frame);
    this._emit('),');
    this._compileExpression(node.val, frame);
    this._emit(')');
  };
}

/**
 * (1,), (1, 2,) and () are tuples and a trailing comma is allowed in [1, 2,] and {'a': 1,}, as in Jinja;
 * nunjucks' parseAggregate refused each. A group that had a comma is marked for compileGroup. Installed
 * before nunjucks' Jinja compatibility, whose slice parser (x[1:]) wraps the parseAggregate it finds.
 */
export function installAggregates(): void {
  parserProto.parseAggregate = function parseAggregate(this: ParserLike) {
    const tok = this.nextToken();
    if (!tok) return null;
    const kinds: Record<string, NodeClass> = { 'left-paren': nodes.Group, 'left-bracket': nodes.Array, 'left-curly': nodes.Dict };
    const Kind = kinds[tok.type];
    if (!Kind) return null;
    const node = new Kind(tok.lineno, tok.colno);
    const closing = () => ['right-paren', 'right-bracket', 'right-curly'].includes(this.peekToken()?.type ?? '');
    for (;;) {
      if (closing()) { this.nextToken(); break; }
      if (node.children.length > 0) {
        if (!this.skip('comma')) this.fail('parseAggregate: expected comma after expression', tok.lineno, tok.colno);
        node.pyTuple = true;
        if (closing()) { this.nextToken(); break; }
      }
      if (Kind === nodes.Dict) {
        const key = this.parsePrimary() as { lineno: number; colno: number };
        if (!this.skip('colon')) this.fail('parseAggregate: expected colon after dict key', tok.lineno, tok.colno);
        node.addChild(new nodes.Pair(key.lineno, key.colno, key, this.parseExpression()));
      } else {
        node.addChild(this.parseExpression());
      }
    }
    if (Kind === nodes.Group && node.children.length === 0) node.pyTuple = true;
    return node;
  };
}
