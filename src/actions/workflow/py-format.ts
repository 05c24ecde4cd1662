// Python's `%` for workflow templates: printf-style formatting of a string ("%d items" % n,
// "%.2f" | format(x)) and the modulo of numbers with the divisor's sign (-7 % 3 is 2), where
// JavaScript's `%` gave NaN for a string and -1 for -7 % 3.
import { MAX_TEMPLATE_CHARS, tooLarge } from './py-limits.js';
import { cpPrefix } from './py-text.js';
import { pyStr } from './py-values.js';

const SPEC = /%(?:\(([^)]*)\))?([-+ 0#]*)(\d+)?(?:\.(\d+))?([sdirfFeEgGxXoc%])/g;

function pyRepr(v: unknown): string {
  return typeof v === 'string' ? (v.includes("'") && !v.includes('"') ? `"${v}"` : `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`) : pyStr(v);
}

function toNumber(v: unknown, spec: string): number {
  if (typeof v === 'boolean') return Number(v);
  if (typeof v !== 'number') throw new Error(`TypeError: %${spec} format: a real number is required, not ${v === null ? 'NoneType' : Array.isArray(v) ? 'list' : typeof v === 'string' ? 'str' : 'dict'}`);
  return v;
}

/** x.toFixed(p) with Python's rounding: an exact tie goes to the even neighbour (JavaScript's goes up). */
export function pyFixed(x: number, p: number): string {
  const s = x.toFixed(p);
  if (!Number.isFinite(x)) return s;
  const long = Math.abs(x).toFixed(Math.min(100, p + 25));
  const dot = long.indexOf('.');
  if (!/^50*$/.test(long.slice(dot + 1 + p))) return s;
  const truncated = long.slice(0, p === 0 ? dot : dot + 1 + p);
  return Number(truncated.slice(-1)) % 2 === 0 ? (x < 0 || Object.is(x, -0) ? '-' : '') + truncated : s;
}

function convert(v: unknown, flags: string, precision: string | undefined, conv: string): string {
  const p = precision === undefined ? undefined : Number(precision);
  switch (conv) {
    case 's': { const s = pyStr(v); return p === undefined ? s : cpPrefix(s, p); }
    case 'r': return pyRepr(v);
    case 'c': return typeof v === 'number' ? String.fromCodePoint(v) : String(v);
    case 'd': case 'i': { const n = Math.trunc(toNumber(v, conv)); return (n >= 0 && flags.includes('+') ? '+' : n >= 0 && flags.includes(' ') ? ' ' : '') + String(n); }
    case 'x': case 'X': case 'o': { const n = Math.trunc(toNumber(v, conv)); const s = Math.abs(n).toString(conv === 'o' ? 8 : 16); return (n < 0 ? '-' : '') + (conv === 'X' ? s.toUpperCase() : s); }
    case 'e': case 'E': { const s = toNumber(v, conv).toExponential(p ?? 6).replace(/e([+-])(\d)$/, 'e$10$2'); return conv === 'E' ? s.toUpperCase() : s; }
    case 'g': case 'G': { const s = String(Number(toNumber(v, conv).toPrecision(p || 6))); return conv === 'G' ? s.toUpperCase() : s; }
    default: { const n = toNumber(v, conv); return (n >= 0 && flags.includes('+') ? '+' : '') + pyFixed(n, p ?? 6); }
  }
}

/** fmt % args as Python formats it: one value, a tuple (a list here, one item per conversion), or a mapping for %(name)s. */
export function pyFormat(fmt: string, args: unknown): string {
  const specs = [...fmt.matchAll(SPEC)].filter((m) => m[5] !== '%');
  const byName = specs.some((m) => m[1] !== undefined);
  const list = byName ? [] : Array.isArray(args) && args.length === specs.length && specs.length !== 1 ? args : [args];
  if (!byName && list.length !== specs.length) throw new Error(`TypeError: not enough arguments for format string (${specs.length} wanted, got ${list.length})`);
  let i = 0;
  return fmt.replace(SPEC, (_m, name: string | undefined, flags: string, width: string | undefined, precision: string | undefined, conv: string) => {
    if (conv === '%') return '%';
    for (const [n, what] of [[width, 'width'], [precision, 'precision']] as const) {
      if (n !== undefined && Number(n) > MAX_TEMPLATE_CHARS) throw tooLarge(`the ${what} of "%${flags}${width ?? ''}${precision === undefined ? '' : '.' + precision}${conv}"`, Number(n), MAX_TEMPLATE_CHARS, 'characters', `give a smaller ${what}`);
    }
    let v: unknown;
    if (name !== undefined) {
      if (args === null || typeof args !== 'object' || Array.isArray(args) || !Object.hasOwn(args, name)) throw new Error(`KeyError: '${name}'`);
      v = (args as Record<string, unknown>)[name];
    } else v = list[i++];
    const s = convert(v, flags, precision, conv);
    const w = width === undefined ? 0 : Number(width);
    if (s.length >= w) return s;
    if (flags.includes('-')) return s.padEnd(w);
    return flags.includes('0') && conv !== 's' && conv !== 'r' ? (s.startsWith('-') ? '-' + s.slice(1).padStart(w - 1, '0') : s.padStart(w, '0')) : s.padStart(w);
  });
}

/** Python's `a % b`: a string formats, numbers take the divisor's sign. */
export function pyMod(a: unknown, b: unknown): unknown {
  if (typeof a === 'string') return pyFormat(a, b);
  if (typeof a === 'number' && typeof b === 'number') {
    if (b === 0) throw new Error('ZeroDivisionError: integer modulo by zero');
    return a - b * Math.floor(a / b);
  }
  return (a as number) % (b as number);
}
