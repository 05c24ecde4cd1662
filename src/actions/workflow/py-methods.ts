// Python's answers where a workflow template's JavaScript would give another one without a word: a
// slice (a string's slice is a string; bounds are clamped, never padded), `+` (lists concatenate),
// `~` (str() of each side) and the str methods TEA's Jinja2 templates call (.lower(), .split(), ...).
import { MAX_TEMPLATE_CHARS, MAX_TEMPLATE_ITEMS, tooLarge } from './py-limits.js';
import { cpLength, cpSlice, hasSurrogates } from './py-text.js';
import { isFloat, isNumeric, isPyFloat, pyArith, toNumber } from './py-float.js';
import { strFormat } from './py-str-format.js';
import { isTuple, pyRepr, pyStr, pyTuple } from './py-values.js';

function pyError(kind: string, message: string): Error {
  return new Error(`${kind}: ${message}`);
}

export function typeName(v: unknown): string {
  if (v === null || v === undefined) return 'NoneType';
  if (typeof v === 'string') return 'str';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number' || isPyFloat(v)) return isFloat(v) ? 'float' : 'int';
  if (Array.isArray(v)) return 'list';
  return 'dict';
}

/** One slice bound as Python's slice.indices clamps it. */
function bound(v: unknown, n: number, step: number, atStart: boolean): number {
  if (v === null || v === undefined) return atStart ? (step < 0 ? n - 1 : 0) : (step < 0 ? -1 : n);
  if (typeof v !== 'number' || !Number.isInteger(v)) throw pyError('TypeError', 'slice indices must be integers or None');
  let i = v < 0 ? v + n : v;
  if (i < 0) i = step < 0 ? -1 : 0;
  else if (i >= n) i = step < 0 ? n - 1 : n;
  return i;
}

/** obj[start:stop:step] as Python answers it: a list for a list, a string for a string. */
export function pySlice(obj: unknown, start: unknown, stop: unknown, step: unknown): unknown {
  const s = step === null || step === undefined ? 1 : step;
  if (typeof s !== 'number' || !Number.isInteger(s)) throw pyError('TypeError', 'slice indices must be integers or None');
  if (s === 0) throw pyError('ValueError', 'slice step cannot be zero');
  if (typeof obj === 'string') return sliceString(obj, start, stop, s);
  if (!Array.isArray(obj)) throw pyError('TypeError', `'${typeName(obj)}' object is not subscriptable`);
  const n = obj.length;
  const out: unknown[] = [];
  for (let i = bound(start, n, s, true), end = bound(stop, n, s, false); s > 0 ? i < end : i > end; i += s) out.push(obj[i]);
  return isTuple(obj) ? pyTuple(out) : out;
}

/** A string's slice by code points; a step of 1 (the usual [:30]) copies only the slice. */
function sliceString(text: string, start: unknown, stop: unknown, step: number): string {
  const n = cpLength(text);
  const first = bound(start, n, step, true);
  const end = bound(stop, n, step, false);
  if (step === 1) return cpSlice(text, first, end);
  const chars: ArrayLike<string> = hasSurrogates(text) ? Array.from(text) : text;
  let out = '';
  for (let i = first; step > 0 ? i < end : i > end; i += step) out += chars[i];
  return out;
}

/** Python's `a + b` for JSON values: numbers add, strings and lists concatenate, other mixes are a TypeError. */
export function pyAdd(a: unknown, b: unknown): unknown {
  // A tuple and a tuple make a tuple; a tuple and a list is a TypeError, as in Python.
  if (Array.isArray(a) && Array.isArray(b)) {
    if (isTuple(a) !== isTuple(b)) throw pyError('TypeError', `can only concatenate ${isTuple(a) ? 'tuple' : 'list'} (not "${isTuple(b) ? 'tuple' : 'list'}") to ${isTuple(a) ? 'tuple' : 'list'}`);
    return isTuple(a) ? pyTuple([...a, ...b]) : [...a, ...b];
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    throw pyError('TypeError', Array.isArray(a) ? `can only concatenate list (not "${typeName(b)}") to list` : `unsupported operand type(s) for +: '${typeName(a)}' and 'list'`);
  }
  if (isNumeric(a) && isNumeric(b)) return pyArith('+', a, b);
  return (a as number) + (b as number);
}

/** Python's a - b, a / b, a // b, a ** b: numbers only (a string or a list is a TypeError, as in Python). */
export function pyBinary(op: '-' | '/' | '//' | '**', a: unknown, b: unknown): unknown {
  if (isNumeric(a) && isNumeric(b)) return pyArith(op, a, b);
  throw pyError('TypeError', `unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`);
}

/** Python's `a == b` for JSON values: lists and dicts by content, True == 1, "1" != 1 (JavaScript's == compared lists by identity). */
export function pyEq(a: unknown, b: unknown): boolean {
  const x = a === undefined ? null : a;
  const y = b === undefined ? null : b;
  // The same object is equal to itself, as in Python: a cyclic YAML alias (a: &x {self: *x}) compared
  // with itself recursed until the stack ran out. NaN stays unequal (NaN !== NaN).
  if (x === y) return true;
  if (isNumeric(x) && isNumeric(y)) return toNumber(x) === toNumber(y);
  // A tuple never equals a list ((1, 2) == [1, 2] is False).
  if (Array.isArray(x) || Array.isArray(y)) return Array.isArray(x) && Array.isArray(y) && isTuple(x) === isTuple(y) && x.length === y.length && x.every((v, i) => pyEq(v, y[i]));
  if (x !== null && typeof x === 'object' && y !== null && typeof y === 'object') {
    const kx = Object.keys(x);
    return kx.length === Object.keys(y).length && kx.every((k) => Object.hasOwn(y, k) && pyEq((x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k]));
  }
  return x === y;
}

/** Python's `key in container`: an equal item of a list, a substring, an own key of a dict. */
export function pyIn(key: unknown, container: unknown): boolean {
  if (Array.isArray(container)) return container.some((v) => pyEq(key, v));
  if (typeof container === 'string') {
    if (typeof key !== 'string') throw pyError('TypeError', `'in <string>' requires string as left operand, not ${typeName(key)}`);
    return container.includes(key);
  }
  // A dict's keys are strings here (JSON's): 1 in {"1": 2} is False, as in Python.
  if (container !== null && typeof container === 'object' && !isPyFloat(container)) return typeof key === 'string' && Object.hasOwn(container, key);
  throw pyError('TypeError', `argument of type '${typeName(container)}' is not iterable`);
}

/** Python's `a * b`: a string or list times an int repeats it ("-" * 3), numbers multiply. */
export function pyMul(a: unknown, b: unknown): unknown {
  const seq = typeof a === 'string' || Array.isArray(a) ? a : typeof b === 'string' || Array.isArray(b) ? b : null;
  if (seq === null) return isNumeric(a) && isNumeric(b) ? pyArith('*', a, b) : (a as number) * (b as number);
  const n = seq === a ? b : a;
  if (typeof n !== 'number' || !Number.isInteger(n)) throw pyError('TypeError', `can't multiply sequence by non-int of type '${typeName(n)}'`);
  const times = Math.max(0, n);
  if (seq.length === 0 || times === 0) return typeof seq === 'string' ? '' : isTuple(seq) ? pyTuple([]) : [];
  const size = seq.length * times;
  if (typeof seq === 'string') {
    if (size > MAX_TEMPLATE_CHARS) throw tooLarge(`a string * ${times}`, size, MAX_TEMPLATE_CHARS, 'characters', 'repeat it fewer times');
    return seq.repeat(times);
  }
  if (size > MAX_TEMPLATE_ITEMS) throw tooLarge(`a list * ${times}`, size, MAX_TEMPLATE_ITEMS, 'items', 'repeat it fewer times');
  const out: unknown[] = [];
  for (let k = 0; k < times; k++) for (const x of seq) out.push(x);
  return isTuple(seq) ? pyTuple(out) : out;
}

/** Jinja's `a ~ b`: str() of each side, joined. */
export function pyConcat(a: unknown, b: unknown): string {
  if (a === undefined || b === undefined) throw pyError('UndefinedError', 'a side of ~ is undefined (strict undefined); check the name, or add | default(...)');
  return pyStr(a) + pyStr(b);
}

/** One UTF-16 unit of white space (every character \s matches is one unit). */
const SPACE = /\s/;

function stripChars(s: string, chars: unknown, left: boolean, right: boolean): string {
  if (chars === null || chars === undefined) {
    // By index from each end, not `/\s+$/`: that tries every run of white space to its end, so a file's text of
    // 50,000 spaces then a word took seconds to strip (quadratic in the run; trust47).
    let i = 0;
    let j = s.length;
    if (left) while (i < j && SPACE.test(s[i])) i++;
    if (right) while (j > i && SPACE.test(s[j - 1])) j--;
    return s.slice(i, j);
  }
  const set = new Set(Array.from(String(chars)));
  const cs: ArrayLike<string> = hasSurrogates(s) ? Array.from(s) : s;
  let i = 0;
  let j = cs.length;
  if (left) while (i < j && set.has(cs[i])) i++;
  if (right) while (j > i && set.has(cs[j - 1])) j--;
  return typeof cs === 'string' ? cs.slice(i, j) : (cs as string[]).slice(i, j).join('');
}

function split(s: string, sep: unknown, maxsplit: unknown): string[] {
  const max = typeof maxsplit === 'number' && maxsplit >= 0 ? maxsplit : Infinity;
  if (sep === null || sep === undefined) {
    // Runs of whitespace separate; after maxsplit splits the rest is one item, its trailing space kept.
    const out: string[] = [];
    let rest = s.replace(/^\s+/, '');
    while (rest !== '') {
      const m = out.length < max ? /\s+/.exec(rest) : null;
      if (!m) { out.push(rest); break; }
      out.push(rest.slice(0, m.index));
      rest = rest.slice(m.index + m[0].length);
    }
    return out;
  }
  const by = String(sep);
  if (by === '') throw pyError('ValueError', 'empty separator');
  const parts = s.split(by);
  return parts.length - 1 > max ? [...parts.slice(0, max), parts.slice(max).join(by)] : parts;
}

function replace(s: string, old: unknown, by: unknown, count: unknown): string {
  const o = String(old);
  const n = String(by);
  const max = typeof count === 'number' && count >= 0 ? count : Infinity;
  const parts = o === '' ? ['', ...Array.from(s), ''] : s.split(o);
  if (parts.length - 1 <= max) return parts.join(n);
  return parts.slice(0, max + 1).join(n) + o + parts.slice(max + 1).join(o);
}

function affix(s: string, test: unknown, at: (x: string) => boolean): boolean {
  if (Array.isArray(test)) return test.some((t) => at(String(t)));
  if (typeof test !== 'string') throw pyError('TypeError', `startswith/endswith arg must be str or a tuple of str, not ${typeName(test)}`);
  return at(test);
}

/** str.center/ljust/rjust: Python puts the odd pad of center on the right when the length is even. */
function pad(s: string, width: unknown, fill: unknown, how: 'center' | 'left' | 'right'): string {
  const w = Number(width);
  if (!Number.isInteger(w)) throw pyError('TypeError', `'${typeName(width)}' object cannot be interpreted as an integer`);
  if (w > MAX_TEMPLATE_CHARS) throw tooLarge(`a ${how} pad to ${w}`, w, MAX_TEMPLATE_CHARS, 'characters', 'pad to a smaller width');
  const f = fill === undefined || fill === null ? ' ' : String(fill);
  if (cpLength(f) !== 1) throw pyError('TypeError', 'The fill character must be exactly one character long');
  const n = cpLength(s);
  if (n >= w) return s;
  const total = w - n;
  if (how === 'left') return s + f.repeat(total);
  if (how === 'right') return f.repeat(total) + s;
  const left = Math.floor(total / 2) + (total & w & 1);
  return f.repeat(left) + s + f.repeat(total - left);
}

/** The str methods a template may call, with Python's meaning (the JavaScript ones of the same name differ). */
export const STR_METHODS: Readonly<Record<string, (this: string, ...args: unknown[]) => unknown>> = Object.freeze(Object.assign(Object.create(null) as object, {
  lower(this: string) { return this.toLowerCase(); },
  upper(this: string) { return this.toUpperCase(); },
  strip(this: string, chars?: unknown) { return stripChars(this, chars, true, true); },
  lstrip(this: string, chars?: unknown) { return stripChars(this, chars, true, false); },
  rstrip(this: string, chars?: unknown) { return stripChars(this, chars, false, true); },
  startswith(this: string, p: unknown) { return affix(this, p, (x) => this.startsWith(x)); },
  endswith(this: string, p: unknown) { return affix(this, p, (x) => this.endsWith(x)); },
  split(this: string, sep?: unknown, maxsplit?: unknown) { return split(this, sep, maxsplit); },
  splitlines(this: string) { return this.split(/\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/).filter((x, i, a) => i < a.length - 1 || x !== ''); },
  replace(this: string, old: unknown, by: unknown, count?: unknown) { return replace(this, old, by, count); },
  title(this: string) { return this.replace(/\p{L}+/gu, (w) => w[0].toUpperCase() + w.slice(1).toLowerCase()); },
  capitalize(this: string) { return this.length ? this[0].toUpperCase() + this.slice(1).toLowerCase() : this; },
  count(this: string, sub: unknown) { const t = String(sub); return t === '' ? cpLength(this) + 1 : this.split(t).length - 1; },
  find(this: string, sub: unknown) { return this.indexOf(String(sub)); },
  join(this: string, items: unknown) {
    const list = Array.isArray(items) ? items : typeof items === 'string' ? Array.from(items) : null;
    if (!list) throw pyError('TypeError', 'can only join an iterable');
    list.forEach((x, i) => { if (typeof x !== 'string') throw pyError('TypeError', `sequence item ${i}: expected str instance, ${typeName(x)} found`); });
    return list.join(this);
  },
  format(this: string, ...args: unknown[]) { return strFormat(this, args); },
  center(this: string, width: unknown, fill?: unknown) { return pad(this, width, fill, 'center'); },
  ljust(this: string, width: unknown, fill?: unknown) { return pad(this, width, fill, 'left'); },
  rjust(this: string, width: unknown, fill?: unknown) { return pad(this, width, fill, 'right'); },
  zfill(this: string, width: unknown) { const sign = /^[-+]/.test(this) ? this[0] : ''; return sign + pad(this.slice(sign.length), Number(width) - sign.length, '0', 'right'); },
  isdigit(this: string) { return /^\p{Nd}+$/u.test(this); },
  isalpha(this: string) { return /^\p{L}+$/u.test(this); },
  isupper(this: string) { return /\p{Lu}/u.test(this) && this === this.toUpperCase(); },
  islower(this: string) { return /\p{Ll}/u.test(this) && this === this.toLowerCase(); },
}));

function notInList(what: string): Error {
  return pyError('ValueError', what);
}

/** The list methods that compare items, by Python's equality (nunjucks' used ===, so 1.0 did not match 1). */
export const LIST_EQ_METHODS: Readonly<Record<string, (this: unknown[], x: unknown) => unknown>> = Object.freeze(Object.assign(Object.create(null) as object, {
  count(this: unknown[], x: unknown) { return this.filter((v) => pyEq(v, x)).length; },
  index(this: unknown[], x: unknown) {
    const i = this.findIndex((v) => pyEq(v, x));
    if (i === -1) throw notInList(`${pyRepr(x)} is not in list`);
    return i;
  },
  remove(this: unknown[], x: unknown) {
    const i = this.findIndex((v) => pyEq(v, x));
    if (i === -1) throw notInList('list.remove(x): x not in list');
    this.splice(i, 1);
    return null;
  },
}));

/** An int argument as Python's range and friends take it: an int or a bool; a float is a TypeError. */
function asIndex(v: unknown): number {
  if (typeof v === 'boolean') return Number(v);
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  throw pyError('TypeError', `'${typeName(v)}' object cannot be interpreted as an integer`);
}

/** Python's range(stop) / range(start, stop[, step]) as a list (nunjucks' took range(2.0) and built any
 *  length, so range(10 ** 9) ran the heap out). */
export function pyRange(...args: unknown[]): number[] {
  if (args.length === 0 || args.length > 3) throw pyError('TypeError', `range expected at least 1 argument, got ${args.length}`);
  const [start, stop, step] = args.length === 1 ? [0, asIndex(args[0]), 1] : [asIndex(args[0]), asIndex(args[1]), args.length === 3 ? asIndex(args[2]) : 1];
  if (step === 0) throw pyError('ValueError', 'range() arg 3 must not be zero');
  const n = Math.max(0, Math.ceil((stop - start) / step));
  if (n > MAX_TEMPLATE_ITEMS) throw tooLarge(`a range of ${n}`, n, MAX_TEMPLATE_ITEMS, 'items', 'take a shorter range');
  return Array.from({ length: n }, (_, i) => start + i * step);
}
