// The methods of Python's list, int, float and str that TEA's Jinja2 templates reach (TEA's environment
// is not sandboxed, so every public method is there) and nunjucks lacks or answers as JavaScript does:
// list.append is None and sort() sorts in place by Python's order; (2.0).is_integer(), x.real; 'a,b'.partition(',').
import { MAX_TEMPLATE_ITEMS, tooLarge } from './py-limits.js';
import { floatRepr, isFloat, isPyFloat, pyFloat, PyFloat, toNumber } from './py-float.js';
import { cpLength } from './py-text.js';
import { dictView, isTuple, pyTuple } from './py-values.js';

function pyError(kind: string, message: string): Error {
  return new Error(`${kind}: ${message}`);
}

function kind(v: unknown): string {
  if (v === null || v === undefined) return 'NoneType';
  if (typeof v === 'string') return 'str';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number' || isPyFloat(v)) return isFloat(v) ? 'float' : 'int';
  if (Array.isArray(v)) return isTuple(v) ? 'tuple' : 'list';
  return 'dict';
}

interface KeywordArgs { __keywords: true; [k: string]: unknown }
function keywords(args: unknown[]): Partial<KeywordArgs> {
  const last = args.at(-1);
  return last !== null && typeof last === 'object' && (last as KeywordArgs).__keywords === true ? args.pop() as KeywordArgs : {};
}

/** Python's a < b for what a template holds: numbers (bools too), strings by code point, lists item by item. */
export function pyCompare(a: unknown, b: unknown): number {
  const num = (v: unknown) => typeof v === 'number' || typeof v === 'boolean' || isPyFloat(v);
  if (num(a) && num(b)) { const x = toNumber(a); const y = toNumber(b); return x < y ? -1 : x > y ? 1 : 0; }
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (Array.isArray(a) && Array.isArray(b) && isTuple(a) === isTuple(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) { const c = pyCompare(a[i], b[i]); if (c !== 0) return c; }
    return a.length - b.length;
  }
  throw pyError('TypeError', `'<' not supported between instances of '${kind(a)}' and '${kind(b)}'`);
}

function asInt(v: unknown, what: string): number {
  if (typeof v === 'boolean') return Number(v);
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  throw pyError('TypeError', `'${kind(v)}' object cannot be interpreted as an integer (${what})`);
}

/** list methods with Python's answers: the changing ones give None (JavaScript's push gave the length). */
export const LIST_METHODS: Readonly<Record<string, (this: unknown[], ...args: unknown[]) => unknown>> = Object.freeze(Object.assign(Object.create(null) as object, {
  append(this: unknown[], x: unknown) { this.push(x); return null; },
  extend(this: unknown[], items: unknown) {
    const list = Array.isArray(items) ? items : typeof items === 'string' ? Array.from(items) : items !== null && typeof items === 'object' && !isPyFloat(items) ? Object.keys(items) : null;
    if (!list) throw pyError('TypeError', `'${kind(items)}' object is not iterable`);
    if (this.length + list.length > MAX_TEMPLATE_ITEMS) throw tooLarge('extending a list', this.length + list.length, MAX_TEMPLATE_ITEMS, 'items', 'extend by less');
    for (const x of list.slice()) this.push(x);
    return null;
  },
  insert(this: unknown[], at: unknown, x: unknown) {
    let i = asInt(at, 'insert');
    if (i < 0) i = Math.max(0, i + this.length);
    this.splice(Math.min(i, this.length), 0, x);
    return null;
  },
  pop(this: unknown[], at?: unknown) {
    if (this.length === 0) throw pyError('IndexError', 'pop from empty list');
    const n = at === undefined ? -1 : asInt(at, 'pop');
    const i = n < 0 ? n + this.length : n;
    if (i < 0 || i >= this.length) throw pyError('IndexError', 'pop index out of range');
    return this.splice(i, 1)[0];
  },
  sort(this: unknown[], ...args: unknown[]) {
    const kw = keywords(args);
    if (args.length > 0) throw pyError('TypeError', 'sort() takes no positional arguments (write sort(reverse=true))');
    if (kw.key !== undefined && kw.key !== null) throw pyError('TypeError', 'sort(key=...) is not supported in a template; use the sort filter: | sort(attribute="name")');
    const sign = kw.reverse ? -1 : 1;
    const sorted = this.slice().sort((a, b) => sign * pyCompare(a, b));
    this.splice(0, this.length, ...sorted);
    return null;
  },
  reverse(this: unknown[]) { this.reverse(); return null; },
  copy(this: unknown[]) { return this.slice(); },
  clear(this: unknown[]) { this.length = 0; return null; },
}));

/** dict methods beside Jinja's compatibility's get/pop/setdefault/update: the views print as Python's. */
export const DICT_METHODS: Readonly<Record<string, (this: Record<string, unknown>) => unknown>> = Object.freeze(Object.assign(Object.create(null) as object, {
  items(this: Record<string, unknown>) { return dictView('dict_items', Object.entries(this).map(pyTuple)); },
  keys(this: Record<string, unknown>) { return dictView('dict_keys', Object.keys(this)); },
  values(this: Record<string, unknown>) { return dictView('dict_values', Object.values(this)); },
  copy(this: Record<string, unknown>) { return Object.fromEntries(Object.entries(this)); },
  clear(this: Record<string, unknown>) { for (const k of Object.keys(this)) delete this[k]; return null; },
}));

/** The tuple's methods are count and index only (LIST_EQ_METHODS); these change a list and a tuple has none. */
export function isListOnly(name: string): boolean {
  return Object.hasOwn(LIST_METHODS, name);
}

function ratio(x: number): [number, number] {
  if (!Number.isFinite(x)) throw pyError(Number.isNaN(x) ? 'ValueError' : 'OverflowError', `cannot convert ${floatRepr(x)} to integer ratio`);
  let d = 1;
  let n = x;
  while (!Number.isInteger(n)) { n *= 2; d *= 2; }
  return [n, d];
}

/** int and float attributes and methods (a bool is an int). Members a template reads without a call are
 *  the attributes (real, imag, numerator, denominator); the others are methods. */
export function numberMember(v: number | boolean | PyFloat, name: string): unknown {
  const x = toNumber(v);
  const float = isFloat(v);
  switch (name) {
    case 'real': return float ? pyFloat(x) : x;
    case 'imag': return float ? pyFloat(0) : 0;
    case 'conjugate': return () => (float ? pyFloat(x) : x);
    case 'is_integer': return () => Number.isInteger(x);
    case 'as_integer_ratio': return () => pyTuple(float ? ratio(x) : [x, 1]);
  }
  if (float) {
    if (name === 'hex') return () => floatHex(x);
    return undefined;
  }
  switch (name) {
    case 'numerator': return x;
    case 'denominator': return 1;
    case 'bit_length': return () => (x === 0 ? 0 : Math.abs(x).toString(2).length);
    case 'bit_count': return () => Array.from(Math.abs(x).toString(2)).filter((c) => c === '1').length;
  }
  return undefined;
}

function floatHex(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  if (x === 0) return `${sign}0x0.0p+0`;
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, Math.abs(x));
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  const biased = hi >>> 20;
  const mant = (hi & 0xfffff).toString(16).padStart(5, '0') + lo.toString(16).padStart(8, '0');
  const exp = biased === 0 ? -1022 : biased - 1023;
  return `${sign}0x${biased === 0 ? 0 : 1}.${mant}p${exp < 0 ? '-' : '+'}${Math.abs(exp)}`;
}

function partition(s: string, sep: unknown, last: boolean): string[] {
  if (typeof sep !== 'string') throw pyError('TypeError', `must be str, not ${kind(sep)}`);
  if (sep === '') throw pyError('ValueError', 'empty separator');
  const i = last ? s.lastIndexOf(sep) : s.indexOf(sep);
  if (i === -1) return pyTuple(last ? ['', '', s] : [s, '', '']);
  return pyTuple([s.slice(0, i), sep, s.slice(i + sep.length)]);
}

function cpIndex(s: string, unitIndex: number): number {
  return unitIndex < 0 ? -1 : cpLength(s.slice(0, unitIndex));
}

function found(s: string, sub: unknown, last: boolean, raise: boolean): number {
  const t = String(sub);
  const i = cpIndex(s, last ? s.lastIndexOf(t) : s.indexOf(t));
  if (i === -1 && raise) throw pyError('ValueError', 'substring not found');
  return i;
}

/** str methods beside those in py-methods.ts's STR_METHODS. */
export const MORE_STR_METHODS: Readonly<Record<string, (this: string, ...args: unknown[]) => unknown>> = Object.freeze(Object.assign(Object.create(null) as object, {
  partition(this: string, sep: unknown) { return partition(this, sep, false); },
  rpartition(this: string, sep: unknown) { return partition(this, sep, true); },
  rfind(this: string, sub: unknown) { return found(this, sub, true, false); },
  index(this: string, sub: unknown) { return found(this, sub, false, true); },
  rindex(this: string, sub: unknown) { return found(this, sub, true, true); },
  removeprefix(this: string, p: unknown) { const t = String(p); return t !== '' && this.startsWith(t) ? this.slice(t.length) : this; },
  removesuffix(this: string, p: unknown) { const t = String(p); return t !== '' && this.endsWith(t) ? this.slice(0, -t.length) : this; },
  swapcase(this: string) { return Array.from(this).map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join(''); },
  casefold(this: string) { return this.toLowerCase(); },
  isspace(this: string) { return /^[\s\x1c-\x1f\x85]+$/u.test(this); },
  isalnum(this: string) { return /^[\p{L}\p{N}]+$/u.test(this); },
  isdecimal(this: string) { return /^\p{Nd}+$/u.test(this); },
  isnumeric(this: string) { return /^\p{N}+$/u.test(this); },
  istitle(this: string) { return /\p{L}/u.test(this) && this === this.replace(/\p{L}+/gu, (w) => w[0].toUpperCase() + w.slice(1).toLowerCase()); },
}));
