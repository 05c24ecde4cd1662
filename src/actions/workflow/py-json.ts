// Python's json.dumps for workflow templates, so `| tojson` and `| json` print what TEA's Jinja2 prints:
// ", " and ": " separators (",", ": " with an indent), non-ASCII as \uXXXX (ensure_ascii), and for
// Jinja's tojson sorted keys and <, >, &, ' escaped (htmlsafe_json_dumps).

import { isPyFloat, numberRepr, pyFloat, type PyFloat } from './py-float.js';

export interface PyJsonOptions { sortKeys?: boolean; indent?: number | string | null; htmlSafe?: boolean }

function quote(s: string): string {
  // JSON.stringify escapes as Python does below U+0020; ensure_ascii escapes everything outside ' '..'~'.
  return JSON.stringify(s).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A number as json.dumps writes it: 2.0 and 1e+20 for floats, every digit of an int, NaN, Infinity. */
export function jsonNumber(v: number | PyFloat): string {
  const x = typeof v === 'number' ? v : v.value;
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  return numberRepr(v);
}

function dumps(v: unknown, o: PyJsonOptions, pad: string, level: number): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number' || isPyFloat(v)) return jsonNumber(v);
  if (typeof v === 'string') return quote(v);
  const items: string[] = Array.isArray(v)
    ? v.map((x) => dumps(x, o, pad, level + 1))
    : (o.sortKeys ? Object.keys(v as object).sort() : Object.keys(v as object)).map((k) => `${quote(k)}: ${dumps((v as Record<string, unknown>)[k], o, pad, level + 1)}`);
  const [open, close] = Array.isArray(v) ? ['[', ']'] : ['{', '}'];
  if (items.length === 0) return open + close;
  if (o.indent === null || o.indent === undefined) return open + items.join(', ') + close;
  const inner = `\n${pad.repeat(level + 1)}`;
  return open + inner + items.join(`,${inner}`) + `\n${pad.repeat(level)}` + close;
}

/** json.dumps(v, sort_keys=..., indent=...), and Jinja's HTML-safe escapes when asked. */
export function pyJsonDumps(v: unknown, o: PyJsonOptions = {}): string {
  const pad = typeof o.indent === 'number' ? ' '.repeat(Math.max(0, o.indent)) : typeof o.indent === 'string' ? o.indent : '';
  const out = dumps(v, o, pad, 0);
  return o.htmlSafe ? out.replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/'/g, '\\u0027') : out;
}

const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const SPACE = /[ \t\n\r]*/y;

/** Python's json.loads: JSON plus NaN, Infinity and -Infinity, a number with a fraction or an exponent a
 *  float (2.0 stays a float: JSON.parse made it the int 2). Throws a SyntaxError naming the offset. */
export function pyJsonParse(text: string): unknown {
  let i = 0;
  const fail = (what: string): never => { throw new SyntaxError(`${what} at position ${i}`); };
  const space = () => { SPACE.lastIndex = i; SPACE.exec(text); i = SPACE.lastIndex; };
  const value = (depth: number): unknown => {
    if (depth > 10_000) fail('nested too deeply');
    space();
    const c = text[i];
    if (c === '{' || c === '[') {
      i++;
      const list: unknown[] = [];
      const dict: Record<string, unknown> = {};
      space();
      const close = c === '{' ? '}' : ']';
      if (text[i] === close) { i++; return c === '{' ? dict : list; }
      for (;;) {
        if (c === '{') {
          space();
          if (text[i] !== '"') fail('expected a "key"');
          const k = value(depth + 1) as string;
          space();
          if (text[i++] !== ':') fail('expected ":"');
          Object.defineProperty(dict, k, { value: value(depth + 1), enumerable: true, writable: true, configurable: true });
        } else list.push(value(depth + 1));
        space();
        const sep = text[i++];
        if (sep === close) return c === '{' ? dict : list;
        if (sep !== ',') fail(`expected "," or "${close}"`);
      }
    }
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const s = JSON.parse(text.slice(i, j + 1)) as string;
      i = j + 1;
      return s;
    }
    for (const [word, v] of [['true', true], ['false', false], ['null', null], ['NaN', NaN], ['Infinity', Infinity], ['-Infinity', -Infinity]] as const) {
      if (text.startsWith(word, i)) { i += word.length; return v; }
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (!m) return fail('unexpected character');
    i = NUMBER.lastIndex;
    const n = Number(m[0]);
    return m[1] !== undefined || m[2] !== undefined ? pyFloat(n) : n;
  };
  const v = value(0);
  space();
  if (i < text.length) fail('unexpected text after the value');
  return v;
}

/** JSON.stringify(v, null, 2) (strings as JavaScript writes them), with numbers as json.dumps writes them:
 *  TEA prints a float state value as 2.0 and 1e+20, and inf as Infinity. */
export function stateJson(v: unknown, level = 0, stack: object[] = []): string {
  if (v === null) return 'null';
  if (typeof v === 'number' || isPyFloat(v)) return jsonNumber(v);
  if (typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (stack.includes(v)) throw new TypeError('Converting circular structure to JSON');
  stack.push(v);
  const pad = '  '.repeat(level + 1);
  const items = Array.isArray(v)
    ? v.map((x) => pad + stateJson(x === undefined || typeof x === 'function' ? null : x, level + 1, stack))
    : Object.entries(v).filter(([, x]) => x !== undefined && typeof x !== 'function').map(([k, x]) => `${pad}${JSON.stringify(k)}: ${stateJson(x, level + 1, stack)}`);
  stack.pop();
  const [open, close] = Array.isArray(v) ? ['[', ']'] : ['{', '}'];
  return items.length === 0 ? open + close : `${open}\n${items.join(',\n')}\n${'  '.repeat(level)}${close}`;
}
