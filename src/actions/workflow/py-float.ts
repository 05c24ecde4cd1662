// Python's float beside its int, for workflow values: JavaScript has one number type, so a float whose
// value is whole (2.0, 1e20, -0.0) is boxed in a PyFloat and prints as Python prints it ("2.0"), while a
// plain number is an int when it is whole and a float when it is not (0.5). Arithmetic follows Python's
// rules (/ is always a float, an int op an int stays an int, x / 0 is a ZeroDivisionError).

/**
 * A Python float with a whole value (or any value: the box is harmless); valueOf keeps < and > working.
 * The box is frozen and opaque: no own keys (so no template sees it as a mapping, counts or lists its
 * keys, or changes it), and its tag is "[object Number]", not "[object Object]" (nunjucks' filters take
 * that for a mapping; a test's toEqual compares a Number's valueOf, so new PyFloat(2) is not PyFloat(3)).
 */
export class PyFloat {
  readonly #value: number;
  constructor(value: number) {
    this.#value = value;
    Object.freeze(this);
  }
  get value(): number { return this.#value; }
  valueOf(): number { return this.#value; }
  toString(): string { return floatRepr(this.#value); }
  toJSON(): number { return this.#value; }
  get [Symbol.toStringTag](): string { return 'Number'; }
}

export function isPyFloat(v: unknown): v is PyFloat {
  return v instanceof PyFloat;
}

/** Python's isinstance(v, float): a boxed float or a number that is not whole (0.5, inf, nan). */
export function isFloat(v: unknown): boolean {
  return v instanceof PyFloat || (typeof v === 'number' && !Number.isInteger(v));
}

/** The float x as a workflow value: boxed when whole, so it keeps printing as a float. */
export function pyFloat(x: number): number | PyFloat {
  return Number.isInteger(x) ? new PyFloat(x) : x;
}

/** A number, bool or PyFloat as a JavaScript number (True is 1). */
export function toNumber(v: unknown): number {
  return v instanceof PyFloat ? v.value : Number(v);
}

export function isNumeric(v: unknown): v is number | boolean | PyFloat {
  return typeof v === 'number' || typeof v === 'boolean' || v instanceof PyFloat;
}

/** Python's repr() of a float: the shortest digits that read back, 1e+16 and 1e-05 in exponent form, 2.0. */
export function floatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [mantissa, exp] = Math.abs(x).toExponential().split('e');
  const e10 = Number(exp);
  const digits = mantissa.replace('.', '');
  const sign = x < 0 ? '-' : '';
  if (e10 < -4 || e10 >= 16) {
    const m = digits.length === 1 ? digits : `${digits[0]}.${digits.slice(1)}`;
    return `${sign}${m}e${e10 < 0 ? '-' : '+'}${String(Math.abs(e10)).padStart(2, '0')}`;
  }
  if (e10 < 0) return `${sign}0.${'0'.repeat(-e10 - 1)}${digits}`;
  const whole = digits.slice(0, e10 + 1).padEnd(e10 + 1, '0');
  return `${sign}${whole}.${digits.slice(e10 + 1) || '0'}`;
}

/** Python's repr() of a number: an int with all its digits (String(1e21) is "1e+21"), a float as floatRepr. */
export function numberRepr(v: number | PyFloat): string {
  if (v instanceof PyFloat) return floatRepr(v.value);
  if (!Number.isInteger(v)) return floatRepr(v);
  return Number.isSafeInteger(v) ? String(v === 0 ? 0 : v) : BigInt(v).toString();
}

function zeroDivision(message: string): Error {
  return new Error(`ZeroDivisionError: ${message}`);
}

export type ArithOp = '+' | '-' | '*' | '/' | '//' | '%' | '**';

/** Python's a OP b for numbers (bools are 0 and 1): an int result for ints (but / and a negative **), else a float. */
export function pyArith(op: ArithOp, a: number | boolean | PyFloat, b: number | boolean | PyFloat): number | PyFloat {
  const x = toNumber(a);
  const y = toNumber(b);
  const float = isFloat(a) || isFloat(b);
  const kind = float ? 'float ' : 'integer ';
  let r: number;
  switch (op) {
    case '+': r = x + y; break;
    case '-': r = x - y; break;
    case '*': r = x * y; break;
    case '/':
      if (y === 0) throw zeroDivision(float ? 'float division by zero' : 'division by zero');
      return pyFloat(x / y);
    case '//':
      if (y === 0) throw zeroDivision(float ? 'float floor division by zero' : 'integer division or modulo by zero');
      r = Math.floor(x / y); break;
    case '%':
      if (y === 0) throw zeroDivision(float ? 'float modulo' : `${kind}modulo by zero`);
      r = x % y;
      if (r !== 0 && (r < 0) !== (y < 0)) r += y;
      else if (r === 0 && y < 0) r = -0;
      break;
    case '**':
      if (x === 0 && y < 0) throw zeroDivision('0.0 cannot be raised to a negative power');
      // 1 / 10 ** 5, not 10 ** -5: V8's pow of a negative exponent is off by an ulp (9.999999999999999e-06).
      if (y < 0 && Number.isInteger(y)) return pyFloat(1 / x ** -y);
      r = x ** y; break;
  }
  if (float) return pyFloat(r);
  return r === 0 ? 0 : r;
}

/** Python's -x and +x (a float stays a float). */
export function pyNeg(v: unknown): unknown {
  return v instanceof PyFloat ? new PyFloat(-v.value) : typeof v === 'boolean' ? -Number(v) : typeof v === 'number' ? (v === 0 ? 0 : -v) : -(v as number);
}
export function pyPos(v: unknown): unknown {
  return v instanceof PyFloat ? v : typeof v === 'boolean' ? Number(v) : +(v as number);
}

/** `v` with every PyFloat a plain number (for actions and anything else outside the templates); the same
 *  object when nothing in it is boxed. */
export function plainValue(v: unknown, seen = new Map<object, unknown>()): unknown {
  if (v instanceof PyFloat) return v.value;
  if (v === null || typeof v !== 'object') return v;
  const proto = Object.getPrototypeOf(v);
  if (!Array.isArray(v) && proto !== Object.prototype && proto !== null) return v;
  // A YAML alias can make a cycle: a value under way is handed back as it is.
  if (seen.has(v)) return seen.get(v);
  seen.set(v, v);
  let out: Record<string, unknown> | unknown[] | null = null;
  for (const [k, x] of Object.entries(v)) {
    const p = plainValue(x, seen);
    if (p !== x) (out ??= Array.isArray(v) ? v.slice() : { ...v } as Record<string, unknown>)[k as never] = p as never;
  }
  if (out) seen.set(v, out);
  return out ?? v;
}

/** A deep copy of a JSON-shaped value that keeps floats floats (structuredClone drops PyFloat's class). */
export function cloneValue<T>(v: T, seen = new Map<object, unknown>()): T {
  if (v === null || typeof v !== 'object' || v instanceof PyFloat) return v;
  // A YAML alias can make a cycle (a: &x {self: *x}): the copy has the same shape.
  if (seen.has(v)) return seen.get(v) as T;
  const out: Record<string, unknown> | unknown[] = Array.isArray(v) ? [] : {};
  seen.set(v, out);
  for (const [k, x] of Object.entries(v)) (out as Record<string, unknown>)[k] = cloneValue(x, seen);
  return out as T;
}
