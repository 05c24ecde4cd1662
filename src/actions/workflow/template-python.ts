// Python's syntax and operators on nunjucks' lexer, parser and compiler, as TEA's Jinja2 reads a template:
// + - * / // ** % ~ and unary minus by Python's rules, Python's truth in if/not/and/or, == by value, float
// literals, tuples, {% set ns.x = ... %}, chained comparisons, TEA's DotDict copies; template-parse.ts reads them.
import nunjucks from 'nunjucks';
import { pyMod } from './py-format.js';
import { pyFloat, pyNeg, pyPos } from './py-float.js';
import { pyAdd, pyBinary, pyConcat, pyEq, pyMul, typeName } from './py-methods.js';
import { isTuple, pyTuple, pyTruthy } from './py-values.js';
import { installLiterals, installTests, nodes, type ParserLike, parserProto } from './template-parse.js';

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
  pyOrder: typeof pyOrder;
}
interface BinOp { left: unknown; right: unknown }
interface CompareNode { expr: unknown; ops: { type: string; expr: unknown }[] }
interface CompilerLike { _emit(code: string): void; compile(node: unknown, frame: unknown): void }

/**
 * a < b (>, <=, >=) with lists and tuples as Python's: item by item, the first pair that is not == decides,
 * then the lengths (JavaScript compared them as strings: [1, 10] < [1, 9] was True); a list against a
 * tuple or a scalar is Python's TypeError. Other values compare as before.
 */
function pyOrder(op: string, a: unknown, b: unknown): boolean {
  if (!Array.isArray(a) && !Array.isArray(b)) {
    return op === '<' ? (a as number) < (b as number) : op === '>' ? (a as number) > (b as number)
      : op === '<=' ? (a as number) <= (b as number) : (a as number) >= (b as number);
  }
  if (!Array.isArray(a) || !Array.isArray(b) || isTuple(a) !== isTuple(b)) {
    const kind = (v: unknown) => (isTuple(v) ? 'tuple' : typeName(v));
    throw new Error(`TypeError: '${op}' not supported between instances of '${kind(a)}' and '${kind(b)}'`);
  }
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (!pyEq(a[i], b[i])) return pyOrder(op, a[i], b[i]);
  return pyOrder(op, a.length, b.length);
}

/** a op1 b op2 c ... as Python's chain: each link holds, the next side read only while they do. */
function pyChain(first: unknown, ...links: unknown[]): boolean {
  let left = first;
  for (let i = 0; i < links.length; i += 2) {
    const op = links[i] as string;
    const right = (links[i + 1] as () => unknown)();
    const holds = op === '==' || op === '===' ? pyEq(left, right) : op === '!=' || op === '!==' ? !pyEq(left, right)
      : pyOrder(op, left, right);
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
    if (['<', '>', '<=', '>='].includes(op)) {
      this._emit(`runtime.pyOrder(${JSON.stringify(op)}, `);
      this.compile(node.expr, frame);
      this._emit(', ');
      this.compile(node.ops[0].expr, frame);
      this._emit(')');
      return;
    }
    if (!['==', '!=', '===', '!=='].includes(op)) return compileCompare.call(this, node, frame);
    this._emit(op.startsWith('!') ? '!runtime.pyEq(' : 'runtime.pyEq(');
    this.compile(node.expr, frame);
    this._emit(', ');
    this.compile(node.ops[0].expr, frame);
    this._emit(')');
  };
  runtime.pyChain = pyChain;
  runtime.pyOrder = pyOrder;
  installLiterals(runtime);
  installTests();
  installDotLookups(compiler);
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

