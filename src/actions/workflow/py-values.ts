// JSON values seen the way Python (and so Jinja2 in The Edge Agent) sees them: their truth and how
// they print. Workflow templates and conditions use these so a rendered value reads as TEA renders it.
import { isPyFloat, numberRepr } from './py-float.js';

// Jinja's namespace() objects (template-sandbox.ts makes them): prototype-less mappings that print as
// Jinja's Namespace does, <Namespace {'a': 1}>.
const namespaces = new WeakSet<object>();

export function markNamespace<T extends object>(o: T): T {
  namespaces.add(o);
  return o;
}

export function isNamespace(v: unknown): boolean {
  return v !== null && typeof v === 'object' && namespaces.has(v);
}

// Python's tuples ((1, 2), dictsort's and items' pairs): lists marked so that they print as (1, 2) and
// (1,); JSON writes them as lists, as json.dumps does.
const tuples = new WeakSet<object>();

/** `items` as a Python tuple. */
export function pyTuple<T extends unknown[]>(items: T): T {
  tuples.add(items);
  return items;
}

export function isTuple(v: unknown): boolean {
  return Array.isArray(v) && tuples.has(v);
}

// dict.items()/keys()/values(): lists that print as Python's views, dict_items([('a', 1)]).
const views = new WeakMap<object, string>();

export function dictView<T extends unknown[]>(kind: 'dict_items' | 'dict_keys' | 'dict_values', items: T): T {
  views.set(items, kind);
  return items;
}

/** Python's truth: None, False, 0, "", [] and {} are false. */
export function pyTruthy(v: unknown): boolean {
  if (isPyFloat(v)) return v.value !== 0;
  if (Array.isArray(v)) return v.length > 0;
  if (v !== null && typeof v === 'object') return Object.keys(v).length > 0;
  return Boolean(v);
}

/** Python's str() of a JSON value, as Jinja prints it: None, True, ['a', 1], {'k': 'v'}. */
export function pyStr(v: unknown): string {
  return typeof v === 'string' ? v : pyRepr(v);
}

const ESCAPES: Readonly<Record<string, string>> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** Python's repr() of a str: quoted with ' (or " when it holds ' and no "), the backslash, newline, tab
 *  and the characters Python does not print (control characters, no-break space, U+2028) escaped. */
function reprString(s: string): string {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  const body = s.replace(/[\\'\x00-\x1f\x7f-\xa0\xad\u2028\u2029]/g, (c) => {
    if (c === "'") return q === "'" ? "\\'" : c;
    const code = c.charCodeAt(0);
    return ESCAPES[c] ?? (code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`);
  });
  return q + body + q;
}

/** Python's repr() of a JSON value: 'it', None, True, ['a', 1], {'k': 'v'}. */
export function pyRepr(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'string') return reprString(v);
  if (typeof v === 'number' || isPyFloat(v)) return numberRepr(v);
  if (Array.isArray(v)) {
    const view = views.get(v);
    if (view) return `${view}([${v.map(pyRepr).join(', ')}])`;
    if (!tuples.has(v)) return `[${v.map(pyRepr).join(', ')}]`;
    return v.length === 1 ? `(${pyRepr(v[0])},)` : `(${v.map(pyRepr).join(', ')})`;
  }
  if (typeof v === 'object') {
    const dict = `{${Object.entries(v).map(([k, x]) => `${pyRepr(k)}: ${pyRepr(x)}`).join(', ')}}`;
    return namespaces.has(v) ? `<Namespace ${dict}>` : dict;
  }
  return String(v);
}
