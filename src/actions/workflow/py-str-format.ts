// Python's str.format for workflow templates ("{:.2f}".format(x), "{} of {}".format(a, b),
// "{name}".format(name=...)), which TEA's Jinja2 templates call and nunjucks lacks: fields by position,
// number or name, !r/!s, and the format-spec mini-language ([[fill]align][sign][0][width][,][.precision][type]).
import { isFloat, isNumeric, isPyFloat, toNumber } from './py-float.js';
import { pyExp, pyFixed, pyGeneral } from './py-format.js';
import { MAX_TEMPLATE_CHARS, tooLarge } from './py-limits.js';
import { cpPrefix, cpLength } from './py-text.js';
import { floatRepr } from './py-float.js';
import { pyRepr, pyStr } from './py-values.js';

const FIELD = /\{\{|\}\}|\{([^{}!:]*)(?:!([rsa]))?(?::([^{}]*))?\}/g;
const SPEC = /^(?:([\s\S])?([<>=^]))?([+\- ])?(#)?(0)?(\d+)?([,_])?(?:\.(\d+))?([bcdeEfFgGnosxX%])?$/;

function group(digits: string, sep: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, sep);
}

/** One value by a format spec, as format(value, spec) gives it. */
function formatOne(v: unknown, spec: string): string {
  const m = SPEC.exec(spec);
  if (!m) throw new Error(`ValueError: Invalid format specifier '${spec}'`);
  const [, fill0, align0, sign = '-', , zero, width, sep, precision, type] = m;
  const p = precision === undefined ? undefined : Number(precision);
  // The bounds `%` formatting keeps: "{:.500000000f}" would build half a billion digits.
  for (const [n, what] of [[width, 'width'], [precision, 'precision']] as const) {
    if (n !== undefined && Number(n) > MAX_TEMPLATE_CHARS) throw tooLarge(`the ${what} of "{:${spec}}"`, Number(n), MAX_TEMPLATE_CHARS, 'characters', `give a smaller ${what}`);
  }
  let body: string;
  let numeric = false;
  if (typeof v === 'string' || !isNumeric(v) || type === 's') {
    if (type !== undefined && type !== 's') throw new Error(`ValueError: Unknown format code '${type}' for object of type '${typeof v === 'string' ? 'str' : 'object'}'`);
    body = p === undefined ? pyStr(v) : cpPrefix(pyStr(v), p);
  } else {
    numeric = true;
    const x = toNumber(v);
    const t = type ?? (isFloat(v) ? (p === undefined ? '' : 'g') : 'd');
    const abs = Math.abs(x);
    switch (t) {
      case 'd': case 'n':
        if (!Number.isInteger(x)) throw new Error(`ValueError: Unknown format code 'd' for object of type 'float'`);
        body = BigInt(abs).toString(); break;
      case 'b': case 'o': case 'x': case 'X': {
        const s = Math.trunc(abs).toString(t === 'b' ? 2 : t === 'o' ? 8 : 16);
        body = t === 'X' ? s.toUpperCase() : s; break;
      }
      case 'c': body = String.fromCodePoint(x); break;
      case 'e': case 'E': body = pyExp(abs, p ?? 6); break;
      case 'f': case 'F': body = pyFixed(abs, p ?? 6); break;
      case 'g': case 'G': body = pyGeneral(abs, p ?? 6, false); break;
      case '%': body = `${pyFixed(abs * 100, p ?? 6)}%`; break;
      default: body = floatRepr(abs);
    }
    if (t === t.toUpperCase() && /[EFG]/.test(t)) body = body.toUpperCase();
    if (sep) {
      const [int, ...rest] = body.split('.');
      body = [group(int, sep), ...rest].join('.');
    }
    const negative = x < 0 || Object.is(x, -0);
    body = (negative ? '-' : sign === '+' ? '+' : sign === ' ' ? ' ' : '') + body;
  }
  const w = width === undefined ? 0 : Number(width);
  const n = cpLength(body);
  if (n >= w) return body;
  const fill = fill0 ?? (zero && numeric ? '0' : ' ');
  const align = align0 ?? (zero && numeric ? '=' : numeric ? '>' : '<');
  const pad = (k: number) => fill.repeat(k);
  if (align === '<') return body + pad(w - n);
  if (align === '>') return pad(w - n) + body;
  if (align === '^') return pad(Math.floor((w - n) / 2)) + body + pad(Math.ceil((w - n) / 2));
  const signed = /^[-+ ]/.test(body) ? body[0] : '';
  return signed + pad(w - n) + body.slice(signed.length);
}

/** fmt.format(*args, **kwargs) (kwargs: nunjucks' keyword object, the last argument). */
export function strFormat(fmt: string, args: unknown[]): string {
  const last = args.at(-1);
  const kw = last !== null && typeof last === 'object' && (last as { __keywords?: boolean }).__keywords === true ? args.pop() as Record<string, unknown> : {};
  let auto = 0;
  // The whole result is bounded too: ("{0}" * 50).format("x" * 10000000) would make 500 million characters.
  let grown = 0;
  let fields = 0;
  return fmt.replace(FIELD, (m, field: string, conv: string | undefined, spec: string | undefined, at: number) => {
    if (m === '{{') return '{';
    if (m === '}}') return '}';
    const out = formatField(args, kw, field, conv, spec, () => auto++);
    grown += out.length - m.length;
    fields++;
    // The text so far: the format up to this field's end, grown by what the fields made of their own text.
    const size = at + m.length + grown;
    if (size > MAX_TEMPLATE_CHARS) throw tooLarge(`a str.format's first ${fields} fields`, size, MAX_TEMPLATE_CHARS, 'characters', 'format fewer or shorter values');
    return out;
  });
}

/** One replacement field's text: its value (by position, number or name, then .attribute), !conversion, :spec. */
function formatField(args: unknown[], kw: Record<string, unknown>, field: string, conv: string | undefined, spec: string | undefined, nextAuto: () => number): string {
  const [head, ...path] = field.split('.');
  let v: unknown;
  if (head === '') {
    const auto = nextAuto();
    if (auto >= args.length) throw new Error(`IndexError: Replacement index ${auto} out of range for positional args tuple`);
    v = args[auto];
  } else if (/^\d+$/.test(head)) {
    if (Number(head) >= args.length) throw new Error(`IndexError: Replacement index ${head} out of range for positional args tuple`);
    v = args[Number(head)];
  } else {
    if (head === '__keywords' || !Object.hasOwn(kw, head)) throw new Error(`KeyError: '${head}'`);
    v = kw[head];
  }
  for (const name of path) {
    // A float has no attributes a format field may read (its box's members are not Python's).
    if (isPyFloat(v) || typeof v === 'number') throw new Error(`AttributeError: '${isFloat(v) ? 'float' : 'int'}' object has no attribute '${name}'`);
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, name)) throw new Error(`AttributeError: the value has no attribute '${name}'`);
    v = (v as Record<string, unknown>)[name];
  }
  if (conv === 'r' || conv === 'a') v = pyRepr(v);
  else if (conv === 's') v = pyStr(v);
  return formatOne(v, spec ?? '');
}
