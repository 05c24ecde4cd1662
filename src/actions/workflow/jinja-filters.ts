// Jinja2's filters where nunjucks' differ or are missing, as The Edge Agent's templates use them:
// tojson (Jinja's: sorted keys, HTML-safe, indent), json (TEA's json.dumps), fromjson (TEA's: text that
// is not JSON comes back), map, selectattr/rejectattr with a test, sum(attribute=), truncate (leeway 5).
import { pyFormat, pyRound } from './py-format.js';
import { createHash } from 'node:crypto';
import { isFloat, isPyFloat, pyFloat, toNumber } from './py-float.js';
import { pyJsonDumps, pyJsonParse } from './py-json.js';
import { pyAdd, pyEq, typeName } from './py-methods.js';
import { cpLength, cpSlice } from './py-text.js';
import { wordwrap } from './py-textwrap.js';
import { MAX_TEMPLATE_CHARS, tooLarge } from './py-limits.js';
import { pyStr, pyTruthy, pyTuple } from './py-values.js';
import { isBlockedName } from './template-sandbox.js';

export interface FilterEnv {
  getFilter(name: string): (...args: unknown[]) => unknown;
  getTest(name: string): (...args: unknown[]) => unknown;
}

interface KeywordArgs { __keywords: true; [k: string]: unknown }
function isKeywordArgs(v: unknown): v is KeywordArgs {
  return v !== null && typeof v === 'object' && (v as KeywordArgs).__keywords === true;
}
function keywordArg(v: unknown, name: string): unknown {
  return isKeywordArgs(v) ? v[name] ?? null : v ?? null;
}

/** Jinja's truncate (leeway 5, the end counted in the length), which nunjucks' cuts elsewhere. */
function truncateFilter(v: unknown, ...args: unknown[]): string {
  const kw = isKeywordArgs(args.at(-1)) ? args.pop() as KeywordArgs : {} as Partial<KeywordArgs>;
  const [length = kw.length ?? 255, killwords = kw.killwords ?? false, end = kw.end ?? '...', leeway = kw.leeway ?? 5] = args;
  const s = pyStr(v);
  const n = Number(length);
  const e = String(end);
  if (cpLength(s) <= n + Number(leeway)) return s;
  const head = cpSlice(s, 0, Math.max(0, n - cpLength(e)));
  if (killwords) return head + e;
  const cut = head.lastIndexOf(' ');
  return (cut === -1 ? head : head.slice(0, cut)) + e;
}

/** Jinja's map: map(attribute='a.b', default=x) reads an attribute of each item; map('upper') applies a filter. */
function mapFilter(this: unknown, envOf: () => FilterEnv, seq: unknown, ...args: unknown[]): unknown[] {
  const items = iterate(seq);
  const kw = isKeywordArgs(args.at(-1)) ? args.pop() as KeywordArgs : null;
  if (kw && typeof kw.attribute === 'string') {
    return items.map((item) => {
      const v = attribute(item, kw.attribute as string);
      if (v !== undefined) return v;
      if (Object.hasOwn(kw, 'default')) return kw.default;
      throw new Error(`map(attribute=${JSON.stringify(kw.attribute)}): an item has no ${JSON.stringify(kw.attribute)} (give map a default=...)`);
    });
  }
  const name = args.shift();
  if (typeof name !== 'string' || isBlockedName(name)) throw new Error('map needs a filter name (map("upper")) or attribute="name"');
  const filter = envOf().getFilter(name);
  return items.map((item) => filter.call(this, item, ...args));
}


function iterate(seq: unknown): unknown[] {
  if (Array.isArray(seq)) return seq;
  if (seq === null || seq === undefined) return [];
  return typeof seq === 'string' ? Array.from(seq) : Object.keys(seq as object);
}

/** Jinja's attribute path ("a.b", "items.0"): own keys only; undefined when an item lacks it. */
function attribute(item: unknown, path: string): unknown {
  let v: unknown = item;
  for (const p of path.split('.')) {
    const key = Array.isArray(v) && /^\d+$/.test(p) ? Number(p) : p;
    v = v !== null && typeof v === 'object' && Object.hasOwn(v, key) ? (v as Record<string | number, unknown>)[key] : undefined;
  }
  return v;
}

/** Jinja's selectattr/rejectattr: the attribute's truth, or a test with its arguments ("gt", 1). */
function selectAttr(envOf: () => FilterEnv, keep: boolean) {
  return function (this: unknown, seq: unknown, attr: unknown, ...args: unknown[]): unknown[] {
    if (typeof attr !== 'string') throw new Error('selectattr/rejectattr need an attribute name');
    const [testName, ...testArgs] = args;
    if (testName !== undefined && (typeof testName !== 'string' || isBlockedName(testName))) throw new Error('selectattr/rejectattr take a test name ("equalto", "gt", ...)');
    const test = testName === undefined ? null : envOf().getTest(testName);
    return iterate(seq).filter((item) => {
      const v = attribute(item, attr);
      const ok = test ? Boolean(test.call(this, v ?? null, ...testArgs)) : pyTruthy(v);
      return ok === keep;
    });
  };
}

/** Jinja's select/reject: Python's truth of each item ([] and {} are false), or a test ("odd", "gt", 2). */
function selectItems(envOf: () => FilterEnv, keep: boolean) {
  return function (this: unknown, seq: unknown, ...args: unknown[]): unknown[] {
    const [testName, ...testArgs] = args;
    if (testName !== undefined && (typeof testName !== 'string' || isBlockedName(testName))) throw new Error('select/reject take a test name ("odd", "gt", ...)');
    const test = testName === undefined ? null : envOf().getTest(testName);
    return iterate(seq).filter((item) => (test ? Boolean(test.call(this, item, ...testArgs)) : pyTruthy(item)) === keep);
  };
}

/** Jinja's default(value, default_value='', boolean=False): boolean replaces any false value by Python's truth. */
function defaultFilter(v: unknown, ...args: unknown[]): unknown {
  const kw = isKeywordArgs(args.at(-1)) ? args.pop() as KeywordArgs : {} as Partial<KeywordArgs>;
  const [dflt = kw.default_value ?? '', boolean = kw.boolean ?? false] = args;
  return v === undefined || (pyTruthy(boolean) && !pyTruthy(v)) ? dflt : v;
}

/** Jinja's sum(iterable, attribute=None, start=0), with Python's + (lists concatenate). */
function sumFilter(seq: unknown, ...args: unknown[]): unknown {
  const kw = isKeywordArgs(args.at(-1)) ? args.pop() as KeywordArgs : {} as Partial<KeywordArgs>;
  const [attr = kw.attribute ?? null, start = kw.start ?? 0] = args;
  return iterate(seq).reduce((acc: unknown, item) => pyAdd(acc, typeof attr === 'string' ? attribute(item, attr) ?? null : item), start);
}

// Python's float() of text: digits with single underscores between them, a fraction, an exponent, or
// inf / infinity / nan in any case, a sign, whitespace around; anything else is not a number ("banana").
const DIGITS = String.raw`\d(?:_?\d)*`;
const PY_FLOAT = new RegExp(String.raw`^[+-]?(?:(?:${DIGITS}(?:\.(?:${DIGITS})?)?|\.${DIGITS})(?:[eE][+-]?${DIGITS})?|inf(?:inity)?|nan)$`, 'i');
const PY_INT = new RegExp(String.raw`^[+-]?${DIGITS}$`);

/** Python's float(text), or undefined where Python raises ValueError. */
function parsePyFloat(text: string): number | undefined {
  const s = text.trim();
  if (!PY_FLOAT.test(s)) return undefined;
  const body = s.replace(/^[+-]/, '').toLowerCase();
  const sign = s.startsWith('-') ? -1 : 1;
  if (body === 'nan') return NaN;
  if (body.startsWith('inf')) return sign * Infinity;
  return Number(s.replace(/_/g, ''));
}

/** Jinja's int and float: text that is not a number is the default (0), "3.7" | int is 3. */
function toInt(v: unknown, ...args: unknown[]): unknown {
  const kw = isKeywordArgs(args.at(-1)) ? args.pop() as KeywordArgs : {} as Partial<KeywordArgs>;
  const [dflt = kw.default ?? 0, base = kw.base ?? 10] = args;
  if (typeof v === 'number' || typeof v === 'boolean' || isPyFloat(v)) { const x = toNumber(v); return Number.isFinite(x) ? Math.trunc(x) || 0 : dflt; }
  if (typeof v !== 'string') return dflt;
  const s = v.trim();
  // Jinja's do_int: int(text, base), else int(float(text)), else the default.
  const n = base !== 10 ? intOfBase(s, Number(base)) : PY_INT.test(s) ? Number.parseInt(s.replace(/_/g, ''), 10) : undefined;
  if (n !== undefined) return n;
  const f = parsePyFloat(s);
  return f !== undefined && Number.isFinite(f) ? Math.trunc(f) : dflt;
}
/** Python's int(text, base): base 0 reads the prefix (0x, 0o, 0b); 16, 8 and 2 take their own prefix. */
function intOfBase(text: string, base: number): number | undefined {
  if (!Number.isInteger(base) || base < 0 || base === 1 || base > 36) return undefined;
  const m = /^([+-]?)(0[xob])?(.*)$/i.exec(text)!;
  const prefix = (m[2] ?? '').toLowerCase();
  const radix = base !== 0 ? base : prefix === '0x' ? 16 : prefix === '0o' ? 8 : prefix === '0b' ? 2 : 10;
  if (prefix && ({ '0x': 16, '0o': 8, '0b': 2 } as Record<string, number>)[prefix] !== radix) return undefined;
  const digits = prefix ? m[3].replace(/^_/, '') : m[3];
  if (!/^[0-9a-z]+(?:_[0-9a-z]+)*$/i.test(digits)) return undefined;
  const clean = digits.replace(/_/g, '').toLowerCase();
  if ([...clean].some((c) => Number.parseInt(c, 36) >= radix)) return undefined;
  // Base 0 reads decimal as Python's literals do: no leading zeros but for zero itself.
  if (base === 0 && !prefix && /^0+[1-9]/.test(clean)) return undefined;
  const n = Number.parseInt(clean, radix);
  return m[1] === '-' ? -n || 0 : n;
}

function toFloat(v: unknown, ...args: unknown[]): unknown {
  const kw = isKeywordArgs(args.at(-1)) ? args.pop() as KeywordArgs : {} as Partial<KeywordArgs>;
  const [dflt = kw.default ?? 0] = args;
  if (typeof v === 'number' || typeof v === 'boolean' || isPyFloat(v)) return pyFloat(toNumber(v));
  const f = typeof v === 'string' ? parsePyFloat(v) : undefined;
  return f === undefined ? dflt : pyFloat(f);
}

/** Jinja's round(value, precision=0, method='common'): common is Python's round (an exact tie to even). */
function roundFilter(v: unknown, ...args: unknown[]): unknown {
  const kw = isKeywordArgs(args.at(-1)) ? args.pop() as KeywordArgs : {} as Partial<KeywordArgs>;
  const [precision = kw.precision ?? 0, method = kw.method ?? 'common'] = args;
  const x = toNumber(v);
  const p = Number(precision);
  // Python's round of an int is an int (round(3) is 3); of a float, a float (round(2.5) is 2.0).
  if (method === 'common') return isFloat(v) ? pyFloat(pyRound(x, p)) : p >= 0 ? x : pyRound(x, p);
  if (method !== 'ceil' && method !== 'floor') throw new Error('round: method must be common, ceil or floor');
  const f = 10 ** p;
  return pyFloat((method === 'ceil' ? Math.ceil(x * f) : Math.floor(x * f)) / f);
}

/** Jinja's min/max (strings compared case-insensitively unless case_sensitive), attribute= too. */
function extreme(wantMax: boolean) {
  return (seq: unknown, ...args: unknown[]): unknown => {
    const kw = isKeywordArgs(args.at(-1)) ? args.pop() as KeywordArgs : {} as Partial<KeywordArgs>;
    const [caseSensitive = kw.case_sensitive ?? false, attr = kw.attribute ?? null] = args;
    const key = (x: unknown) => { const v = typeof attr === 'string' ? attribute(x, attr) : x; return typeof v === 'string' && !caseSensitive ? v.toLowerCase() : v; };
    const items = iterate(seq);
    if (items.length === 0) return undefined;
    return items.reduce((best, x) => { const a = key(x) as number; const b = key(best) as number; return (wantMax ? a > b : a < b) ? x : best; });
  };
}

/** Jinja's unique: first of each, strings case-insensitively unless case_sensitive, attribute= too. */
function uniqueFilter(seq: unknown, ...args: unknown[]): unknown[] {
  const kw = isKeywordArgs(args.at(-1)) ? args.pop() as KeywordArgs : {} as Partial<KeywordArgs>;
  const [caseSensitive = kw.case_sensitive ?? false, attr = kw.attribute ?? null] = args;
  const seen: unknown[] = [];
  return iterate(seq).filter((x) => {
    const v0 = typeof attr === 'string' ? attribute(x, attr) : x;
    const v = typeof v0 === 'string' && !caseSensitive ? v0.toLowerCase() : v0;
    if (seen.some((s) => pyEq(s, v))) return false;
    seen.push(v);
    return true;
  });
}

/** Jinja's groupby(attribute, default=None, case_sensitive=False): (grouper, list) pairs sorted by the
 *  attribute, each readable as a pair ({% for key, items in ... %}) or as .grouper and .list. */
function groupbyFilter(seq: unknown, ...args: unknown[]): unknown[] {
  const kw = isKeywordArgs(args.at(-1)) ? args.pop() as KeywordArgs : {} as Partial<KeywordArgs>;
  const [attr = kw.attribute, dflt = kw.default ?? null, caseSensitive = kw.case_sensitive ?? false] = args;
  if (typeof attr !== 'string' && typeof attr !== 'number') throw new Error('groupby needs an attribute name (groupby("city"))');
  const value = (x: unknown) => attribute(x, String(attr)) ?? dflt;
  const key = (x: unknown) => { const v = value(x); return typeof v === 'string' && !caseSensitive ? v.toLowerCase() : v; };
  const sorted = iterate(seq).map((x, i) => ({ x, k: key(x), i })).sort((a, b) => {
    const ka = a.k as number;
    const kb = b.k as number;
    if (typeof ka !== typeof kb && !(typeof ka === 'number' || typeof kb === 'number')) throw new Error(`TypeError: '<' not supported between a ${typeof ka} and a ${typeof kb} (groupby's keys must be alike)`);
    return ka < kb ? -1 : ka > kb ? 1 : a.i - b.i;
  });
  const groups: unknown[][] = [];
  let last: { k: unknown } | null = null;
  for (const item of sorted) {
    if (last && pyEq(last.k, item.k)) (groups.at(-1)![1] as unknown[]).push(item.x);
    else groups.push([value(item.x), [item.x]]);
    last = item;
  }
  for (const g of groups) {
    Object.defineProperty(g, 'grouper', { value: g[0] });
    Object.defineProperty(g, 'list', { value: g[1] });
  }
  return groups;
}

/** Jinja's join(d='', attribute=None): str() of each item (1.0 stays 1.0), an attribute of each when named. */
function joinFilter(seq: unknown, ...args: unknown[]): string {
  const kw = isKeywordArgs(args.at(-1)) ? args.pop() as KeywordArgs : {} as Partial<KeywordArgs>;
  const [sep = kw.d ?? '', attr = kw.attribute ?? null] = args;
  const items = seq === null || seq === undefined ? [] : iterate(seq);
  const picked = attr === null ? items : items.map((x) => attribute(x, String(attr)));
  const glue = pyStr(sep);
  // Bounded as it grows: a separator of millions of characters between many items.
  const texts: string[] = [];
  let size = 0;
  for (const x of picked) {
    const text = x === undefined ? '' : pyStr(x);
    size += text.length + (texts.length > 0 ? glue.length : 0);
    texts.push(text);
    if (size > MAX_TEMPLATE_CHARS) throw tooLarge(`join's first ${texts.length} items with a separator of ${glue.length.toLocaleString('en-US')} characters`, size, MAX_TEMPLATE_CHARS, 'characters', 'join fewer items or with a shorter separator');
  }
  return texts.join(glue);
}

/** Jinja's filesizeformat(binary=False): 123.5 MB, or 117.7 MiB in powers of 1024. */
function filesizeFilter(v: unknown, ...args: unknown[]): string {
  const kw = isKeywordArgs(args.at(-1)) ? args.pop() as KeywordArgs : {} as Partial<KeywordArgs>;
  const [binary = kw.binary ?? false] = args;
  const bytes = typeof v === 'string' ? Number(v) : toNumber(v as number);
  const base = pyTruthy(binary) ? 1024 : 1000;
  const units = pyTruthy(binary) ? ['KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB', 'ZiB', 'YiB'] : ['kB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'];
  if (bytes === 1) return '1 Byte';
  if (bytes < base) return `${Math.trunc(bytes)} Bytes`;
  let unit = units[0];
  let size = base;
  for (let i = 0; i < units.length; i++) {
    size = base ** (i + 2);
    unit = units[i];
    if (bytes < size) break;
  }
  return `${pyFormat('%.1f', (base * bytes) / size)} ${unit}`;
}

/** Jinja's list: a list's copy (a tuple becomes a list), a string's characters, a mapping's keys. */
function listFilter(v: unknown): unknown[] {
  if (Array.isArray(v)) return v.slice();
  if (typeof v === 'string') return Array.from(v);
  if (v !== null && typeof v === 'object' && !isPyFloat(v)) return Object.keys(v);
  throw new Error(`TypeError: '${typeName(v)}' object is not iterable`);
}

/** Jinja's dictsort(case_sensitive=False, by='key', reverse=False): (key, value) tuples, sorted. */
function dictsortFilter(v: unknown, ...args: unknown[]): unknown[] {
  if (v === null || typeof v !== 'object' || Array.isArray(v) || isPyFloat(v)) throw new Error(`AttributeError: '${typeName(v)}' object has no attribute 'items' (dictsort takes a mapping)`);
  const kw = isKeywordArgs(args.at(-1)) ? args.pop() as KeywordArgs : {} as Partial<KeywordArgs>;
  const [caseSensitive = kw.case_sensitive ?? false, by = kw.by ?? 'key', reverse = kw.reverse ?? false] = args;
  if (by !== 'key' && by !== 'value') throw new Error("FilterArgumentError: You can only sort by either 'key' or 'value'");
  const at = by === 'key' ? 0 : 1;
  const key = (p: unknown[]) => { const x = p[at]; return typeof x === 'string' ? (pyTruthy(caseSensitive) ? x : x.toLowerCase()) : typeof x === 'number' || typeof x === 'boolean' || isPyFloat(x) ? toNumber(x) : x; };
  const pairs = Object.entries(v).map((p) => ({ p: pyTuple(p), k: key(p) }));
  const sign = pyTruthy(reverse) ? -1 : 1;
  pairs.sort((a, b) => {
    if (typeof a.k !== typeof b.k || (typeof a.k !== 'string' && typeof a.k !== 'number')) throw new Error(`TypeError: '<' not supported between instances of '${typeName(a.p[at])}' and '${typeName(b.p[at])}'`);
    return sign * ((a.k as number) < (b.k as number) ? -1 : (a.k as number) > (b.k as number) ? 1 : 0);
  });
  return pairs.map((x) => x.p);
}

/** Jinja's length/count: len() of a list, a string (by code point) or a mapping; a number has none. */
function lengthFilter(v: unknown): number {
  if (Array.isArray(v)) return v.length;
  if (typeof v === 'string') return cpLength(v);
  if (v === undefined) return 0;
  if (v === null || typeof v !== 'object' || isPyFloat(v)) throw new Error(`TypeError: object of type '${typeName(v)}' has no len()`);
  return Object.keys(v).length;
}

/** Jinja's urlencode: text quoted; a mapping's (or a list of pairs') key=value joined by &; anything else
 *  its str() quoted (2.0 is "2.0": nunjucks' listed a number's keys, so gave "", and the box's "value=2"). */
function urlencodeFilter(v: unknown): string {
  const enc = (x: unknown) => encodeURIComponent(pyStr(x));
  if (typeof v === 'string') return enc(v);
  const pairs = Array.isArray(v) ? v : v !== null && typeof v === 'object' && !isPyFloat(v) ? Object.entries(v) : null;
  if (pairs === null) return enc(v);
  return pairs.map((p) => (Array.isArray(p) ? `${enc(p[0])}=${enc(p[1])}` : enc(p))).join('&');
}

export function jinjaFilters(envOf: () => FilterEnv): Record<string, (...args: never[]) => unknown> {
  return {
    tojson: (v: unknown, indent?: unknown) => pyJsonDumps(v, { sortKeys: true, htmlSafe: true, indent: keywordArg(indent, 'indent') as number | string | null }),
    json: (v: unknown) => pyJsonDumps(v),
    fromjson: (v: unknown) => { try { return typeof v === 'string' ? pyJsonParse(v) : v; } catch { return v; } },
    abs: (v: unknown) => (isPyFloat(v) ? pyFloat(Math.abs(v.value)) : typeof v === 'boolean' ? Number(v) : Math.abs(v as number)),
    map(this: unknown, seq: unknown, ...args: unknown[]) { return mapFilter.call(this, envOf, seq, ...args); },
    select: selectItems(envOf, true),
    reject: selectItems(envOf, false),
    default: defaultFilter,
    d: defaultFilter,
    selectattr: selectAttr(envOf, true),
    rejectattr: selectAttr(envOf, false),
    sum: sumFilter,
    truncate: truncateFilter,
    // Jinja's format: fmt % args, the arguments a tuple (one of them a tuple of one).
    format: (fmt: unknown, ...args: unknown[]) => pyFormat(pyStr(fmt), pyTuple(args)),
    int: toInt,
    round: roundFilter,
    float: toFloat,
    min: extreme(false),
    max: extreme(true),
    unique: uniqueFilter,
    groupby: groupbyFilter,
    // TEA's own (cache_actions.py, registered on every engine): the SHA-256 of str(value), in hex.
    sha256: (v: unknown) => createHash('sha256').update(pyStr(v), 'utf8').digest('hex'),
    // Jinja 3.1's items: a mapping's (key, value) pairs (a float is no mapping).
    items: (v: unknown) => {
      if (isPyFloat(v)) throw new Error('TypeError: Can only get item pairs from a mapping.');
      return v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.entries(v).map(pyTuple) : [];
    },
    dictsort: dictsortFilter,
    join: joinFilter,
    filesizeformat: filesizeFilter,
    list: listFilter,
    wordwrap: (v: unknown, ...args: unknown[]) => {
      const kw = isKeywordArgs(args.at(-1)) ? args.pop() as KeywordArgs : {} as Partial<KeywordArgs>;
      const [width = kw.width ?? 79, breakLong = kw.break_long_words ?? true, wrapstring = kw.wrapstring ?? null, breakHyphens = kw.break_on_hyphens ?? true] = args;
      if (typeof width !== 'number' || !Number.isInteger(width)) throw new Error(`TypeError: wordwrap's width must be an int (got ${typeName(width)})`);
      return wordwrap(pyStr(v), width, pyTruthy(breakLong), wrapstring === null ? null : pyStr(wrapstring), pyTruthy(breakHyphens));
    },
    count: lengthFilter,
    length: lengthFilter,
    urlencode: urlencodeFilter,
    // Jinja's string: str(value) ([1, 2.0], True, <Namespace {...}>); nunjucks' String() failed on a
    // namespace() ("Cannot convert object to primitive value") and wrote a list as 1,2.
    string: (v: unknown) => pyStr(v),
  };
}
