// How TEA's Jinja2 reads a template where nunjucks' lexer and parser read it otherwise: number literals
// with an exponent or underscores, tuples and trailing commas, a test's one argument without parentheses.
// template-python.ts compiles what these parse.
import nunjucks from 'nunjucks';
import { pyTuple } from './py-values.js';

export interface Token { type: string; value: string; lineno: number; colno: number }
export interface TokenizerLike { str: string; index: number; forward(): void }
export interface TokenizerLike { str: string; index: number; forward(): void }
export interface ParserLike {
  peekToken(): Token | null;
  nextToken(): Token | null;
  pushToken(t: Token): void;
  skip(type: string): boolean;
  fail(message: string, lineno?: number, colno?: number): never;
  parsePrimary(noPostfix?: boolean): unknown;
  parseExpression(): unknown;
  parseCompare(): unknown;
}
export type NodeClass = new (lineno: number, colno: number, ...rest: unknown[]) => { children: unknown[]; addChild(c: unknown): void } & Record<string, unknown>;
export interface Nodes { Group: NodeClass & { extend(name: string): NodeClass }; Array: NodeClass; Dict: NodeClass; Pair: NodeClass; FunCall: NodeClass; NodeList: NodeClass; Is: NodeClass; Not: NodeClass; Symbol: NodeClass; LookupVal: NodeClass; Literal: NodeClass }

export const parserProto = (nunjucks as unknown as { parser: { Parser: { prototype: Record<string, unknown> } } }).parser.Parser.prototype;
export const nodes = (nunjucks as unknown as { nodes: Nodes }).nodes;
const lexer = nunjucks as unknown as { lexer: { lex(src: string): unknown } };

// Jinja2's number literals that nunjucks' lexer does not read: an exponent (1e3, 2.5e-3, 1E+6 are floats)
// and underscores between digits (1_000).
const EXPONENT = /[eE][+-]?\d(?:_?\d)*/y;
const SIGNED_DIGITS = /[+-]?\d(?:_?\d)*/y;

export function installLiterals(runtime: { pyTuple: typeof pyTuple }): void {
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

export function installTests(): void {
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
