// Python's `%` for workflow templates: printf-style formatting of a string ("%d items" % n,
// "%.2f" | format(x)) and the modulo of numbers with the divisor's sign (-7 % 3 is 2), where
// JavaScript's `%` gave NaN for a string and -1 for -7 % 3.
import { MAX_TEMPLATE_CHARS, tooLarge } from './py-limits.js';
import { cpPrefix } from './py-text.js';
import { isNumeric, isPyFloat, pyArith } from './py-float.js';
import { isTuple, pyRepr, pyStr } from './py-values.js';

const SPEC = /%(?:\(([^)]*)\))?([-+ 0#]*)(\d+)?(?:\.(\d+))?([sdirfFeEgGxXoc%])/g;

function toNumber(v: unknown, spec: string): number {
  if (typeof v === 'boolean') return Number(v);
  if (isPyFloat(v)) return v.value;
  if (typeof v !== 'number') throw new Error(`TypeError: %${spec} format: a real number is required, not ${v === null ? 'NoneType' : Array.isArray(v) ? 'list' : typeof v === 'string' ? 'str' : 'dict'}`);
  return v;
}

/** |x| (finite) as m * 2^e exactly. */
function exactParts(x: number): { m: bigint; e: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const exp = (view.getUint32(0) >>> 20) & 0x7ff;
  const frac = (BigInt(view.getUint32(0) & 0xfffff) << 32n) | BigInt(view.getUint32(4));
  return exp === 0 ? { m: frac, e: -1074 } : { m: frac | (1n << 52n), e: exp - 1075 };
}

/** |x| * 10^p rounded to an integer, an exact tie to even: the digits Python's correctly rounded dtoa gives
 *  (p may be negative: round(25, -1) rounds 2.5). */
function scaledDigits(x: number, p: number): bigint {
  const { m, e } = exactParts(x);
  let num = e >= 0 ? m << BigInt(e) : m;
  let den = e >= 0 ? 1n : 1n << BigInt(-e);
  if (p >= 0) num *= 10n ** BigInt(p);
  else den *= 10n ** BigInt(-p);
  const q = num / den;
  const twice = (num % den) * 2n;
  return twice > den || (twice === den && (q & 1n) === 1n) ? q + 1n : q;
}

// A double's exact decimal expansion ends within 1,074 digits after the point: past that, only zeros.
const EXACT_DIGITS = 1100;

/** Python's "%.{p}f" % x: the exact value rounded half to even, any precision (toFixed stopped at 100
 *  digits and wrote 1e21 and up in exponent form), nan and inf as Python writes them. */
export function pyFixed(x: number, p: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x < 0 ? '-inf' : 'inf';
  const q = Math.min(p, EXACT_DIGITS);
  const digits = scaledDigits(x, q).toString().padStart(q + 1, '0');
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  const whole = digits.slice(0, digits.length - q);
  return p === 0 ? sign + whole : `${sign}${whole}.${digits.slice(digits.length - q)}${'0'.repeat(p - q)}`;
}

/** Python's "%.{p}e" % x: the exact value rounded half to even to p + 1 digits, at any precision. */
export function pyExp(x: number, p: number): string {
  if (!Number.isFinite(x)) return pyFixed(x, 0);
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  let e10 = x === 0 ? 0 : Math.floor(Math.log10(Math.abs(x)));
  const q = Math.min(p, EXACT_DIGITS);
  let digits = x === 0 ? '0'.repeat(q + 1) : scaledDigits(x, q - e10).toString();
  // log10 can be one off near a power of ten, and rounding can carry into a new digit (9.99 -> 10.0).
  if (digits.length < q + 1) digits = scaledDigits(x, q - --e10).toString();
  if (digits.length > q + 1) digits = scaledDigits(x, q - ++e10).toString();
  const mantissa = p === 0 ? digits : `${digits[0]}.${digits.slice(1)}${'0'.repeat(p - q)}`;
  return `${sign}${mantissa}e${e10 < 0 ? '-' : '+'}${String(Math.abs(e10)).padStart(2, '0')}`;
}

/** Python's "%.{p}g" % x: %e or %f by the exponent, trailing zeros dropped unless alt (the # flag). */
export function pyGeneral(x: number, p: number, alt: boolean): string {
  if (!Number.isFinite(x)) return pyFixed(x, 0);
  const precision = p === 0 ? 1 : p;
  const exp = pyExp(x, precision - 1);
  const e10 = Number(exp.slice(exp.indexOf('e') + 1));
  const s = e10 >= -4 && e10 < precision ? pyFixed(x, precision - 1 - e10) : exp;
  if (alt) return s;
  const [m, e] = s.split('e');
  const trimmed = m.includes('.') ? m.replace(/\.?0+$/, '') : m;
  return e === undefined ? trimmed : `${trimmed}e${e}`;
}

/** Python's round(x, p) for a float: exact, half to even, any p (a negative one rounds to tens, hundreds). */
export function pyRound(x: number, p: number): number {
  if (!Number.isInteger(p)) throw new Error(`TypeError: round: the precision must be an integer, not ${p}`);
  if (!Number.isFinite(x) || x === 0 || p > 323) return x;
  if (p < -308) return x * 0;
  const q = scaledDigits(x, p);
  return (x < 0 ? -1 : 1) * Number(`${q}e${-p}`);
}

function convert(v: unknown, flags: string, precision: string | undefined, conv: string): string {
  const p = precision === undefined ? undefined : Number(precision);
  switch (conv) {
    case 's': { const s = pyStr(v); return p === undefined ? s : cpPrefix(s, p); }
    case 'r': return pyRepr(v);
    case 'c': {
      if (typeof v !== 'number') return String(v);
      if (!Number.isInteger(v) || v < 0 || v > 0x10ffff) throw new Error('OverflowError: %c arg not in range(0x110000)');
      return String.fromCodePoint(v);
    }
    case 'd': case 'i': {
      const n = Math.trunc(toNumber(v, conv));
      if (!Number.isFinite(n)) throw new Error(Number.isNaN(n) ? 'ValueError: cannot convert float NaN to integer' : 'OverflowError: cannot convert float infinity to integer');
      // BigInt writes every digit: String(1e21) is "1e+21".
      return (n >= 0 && flags.includes('+') ? '+' : n >= 0 && flags.includes(' ') ? ' ' : '') + BigInt(n).toString();
    }
    case 'x': case 'X': case 'o': { const n = Math.trunc(toNumber(v, conv)); const s = Math.abs(n).toString(conv === 'o' ? 8 : 16); return (n < 0 ? '-' : '') + (conv === 'X' ? s.toUpperCase() : s); }
    default: {
      const n = toNumber(v, conv);
      const lower = conv.toLowerCase();
      const f = lower === 'e' ? pyExp(n, p ?? 6) : lower === 'g' ? pyGeneral(n, p ?? 6, flags.includes('#')) : pyFixed(n, p ?? 6);
      const signed = (f.startsWith('-') ? '' : flags.includes('+') ? '+' : flags.includes(' ') ? ' ' : '') + f;
      return conv === lower ? signed : signed.toUpperCase();
    }
  }
}

/** fmt % args as Python formats it: one value, a tuple (one item per conversion), or a mapping for %(name)s. */
export function pyFormat(fmt: string, args: unknown): string {
  const specs = [...fmt.matchAll(SPEC)].filter((m) => m[5] !== '%');
  const byName = specs.some((m) => m[1] !== undefined);
  // Only a tuple gives one value per conversion: a list is one value ('%s' % [1, 2] is '[1, 2]'), as in Python.
  const list = byName ? [] : isTuple(args) ? args as unknown[] : [args];
  if (!byName && list.length < specs.length) throw new Error(`TypeError: not enough arguments for format string (${specs.length} wanted, got ${list.length})`);
  // Python checks leftovers only for a tuple or a value without [] (a number, a string, None): a list or
  // a dict counts as a mapping, so 'hi' % [] and 'hi' % {} are 'hi'.
  const mapping = args !== null && typeof args === 'object' && !isTuple(args) && !(args instanceof String);
  if (!byName && list.length > specs.length && !mapping) throw new Error('TypeError: not all arguments converted during string formatting');
  let i = 0;
  // The whole result is bounded too: ("%s" * 50) % (["x" * 10000000] * 50) would make 500 million characters.
  let grown = 0;
  let conversions = 0;
  return fmt.replace(SPEC, (m, name: string | undefined, flags: string, width: string | undefined, precision: string | undefined, conv: string, at: number) => {
    if (conv === '%') return '%';
    const out = formatSpec(args, list, i++, name, flags, width, precision, conv);
    grown += out.length - m.length;
    conversions++;
    const size = at + m.length + grown;
    if (size > MAX_TEMPLATE_CHARS) throw tooLarge(`a % format's first ${conversions} conversions`, size, MAX_TEMPLATE_CHARS, 'characters', 'format fewer or shorter values');
    return out;
  });
}

/** One conversion's text: its value (the next one, or by %(name)s), converted, padded to its width. */
function formatSpec(args: unknown, list: unknown[], index: number, name: string | undefined, flags: string, width: string | undefined, precision: string | undefined, conv: string): string {
  for (const [n, what] of [[width, 'width'], [precision, 'precision']] as const) {
    if (n !== undefined && Number(n) > MAX_TEMPLATE_CHARS) throw tooLarge(`the ${what} of "%${flags}${width ?? ''}${precision === undefined ? '' : '.' + precision}${conv}"`, Number(n), MAX_TEMPLATE_CHARS, 'characters', `give a smaller ${what}`);
  }
  let v: unknown;
  if (name !== undefined) {
    if (args === null || typeof args !== 'object' || Array.isArray(args) || !Object.hasOwn(args, name)) throw new Error(`KeyError: '${name}'`);
    v = (args as Record<string, unknown>)[name];
  } else v = list[index];
  const s = convert(v, flags, precision, conv);
  const w = width === undefined ? 0 : Number(width);
  if (s.length >= w) return s;
  if (flags.includes('-')) return s.padEnd(w);
  return flags.includes('0') && conv !== 's' && conv !== 'r' ? (s.startsWith('-') ? '-' + s.slice(1).padStart(w - 1, '0') : s.padStart(w, '0')) : s.padStart(w);
}

/** Python's `a % b`: a string formats, numbers take the divisor's sign. */
export function pyMod(a: unknown, b: unknown): unknown {
  if (typeof a === 'string') return pyFormat(a, b);
  if (isNumeric(a) && isNumeric(b)) return pyArith('%', a, b);
  return (a as number) % (b as number);
}
