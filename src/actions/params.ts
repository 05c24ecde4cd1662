// Readers for the snake_case parameters a YAML `with:` block passes: each checks the type and range
// and throws a BAD_FLAG SimgrepError naming the parameter (the action wrapper turns it into a result).
import { SimgrepError } from '../errors.js';
import { checkFilterValues, FILTER_OPTIONS, type FilterOption, type FilterValues } from '../sources/filter-options.js';

export type Params = Record<string, unknown>;

function bad(name: string, want: string, got: unknown): SimgrepError {
  return new SimgrepError('BAD_FLAG', `parameter ${name} must be ${want} (got ${JSON.stringify(got) ?? String(got)})`);
}

export function str(p: Params, name: string, o: { required: true; fallback?: string }): string;
export function str(p: Params, name: string, o?: { required?: boolean; fallback?: string }): string | undefined;
export function str(p: Params, name: string, o: { required?: boolean; fallback?: string } = {}): string | undefined {
  const v = p[name];
  if (v === undefined || v === null) {
    if (o.fallback !== undefined) return o.fallback;
    if (o.required) throw new SimgrepError('BAD_FLAG', `parameter ${name} is required`);
    return undefined;
  }
  if (typeof v !== 'string') throw bad(name, 'a string', v);
  if (o.required && v.trim() === '') throw new SimgrepError('BAD_FLAG', `parameter ${name} must not be empty`);
  return v;
}

export function int(p: Params, name: string, o: { fallback?: number; min?: number; max?: number } = {}): number | undefined {
  const v = p[name];
  if (v === undefined || v === null) return o.fallback;
  const n = typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n)) throw bad(name, 'a whole number', v);
  if (o.min !== undefined && n < o.min) throw bad(name, `>= ${o.min}`, v);
  if (o.max !== undefined && n > o.max) throw bad(name, `<= ${o.max}`, v);
  return n;
}

export function num(p: Params, name: string, o: { fallback?: number; min?: number; max?: number } = {}): number | undefined {
  const v = p[name];
  if (v === undefined || v === null) return o.fallback;
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw bad(name, 'a number', v);
  if (o.min !== undefined && n < o.min) throw bad(name, `between ${o.min} and ${o.max ?? 'any'}`, v);
  if (o.max !== undefined && n > o.max) throw bad(name, `between ${o.min ?? 'any'} and ${o.max}`, v);
  return n;
}

export function bool(p: Params, name: string, fallback: boolean): boolean {
  const v = p[name];
  if (v === undefined || v === null) return fallback;
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'false') return v === 'true';
  throw bad(name, 'true or false', v);
}

/** A list of strings; a single string counts as a one-item list. */
export function strList(p: Params, name: string, o: { required?: boolean } = {}): string[] | undefined {
  const v = p[name];
  if (v === undefined || v === null) {
    if (o.required) throw new SimgrepError('BAD_FLAG', `parameter ${name} is required`);
    return undefined;
  }
  const list = typeof v === 'string' ? [v] : v;
  if (!Array.isArray(list) || !list.every((x) => typeof x === 'string')) throw bad(name, 'a string or a list of strings', v);
  if (o.required && list.length === 0) throw new SimgrepError('BAD_FLAG', `parameter ${name} must name at least one item`);
  return list as string[];
}

export function oneOf<T extends string>(p: Params, name: string, choices: readonly T[], fallback: T): T {
  const v = p[name] ?? fallback;
  if (typeof v !== 'string' || !(choices as readonly string[]).includes(v)) throw bad(name, `one of ${choices.join(', ')}`, v);
  return v as T;
}

export function dict(p: Params, name: string): Record<string, unknown> | undefined {
  const v = p[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) throw bad(name, 'a mapping', v);
  return v as Record<string, unknown>;
}

/**
 * The file filters of the one table (sources/filter-options.ts) under their parameter names, read as a
 * `with:` block gives them (a single string is a one-item list) and checked.
 */
export function filterParams(p: Params): FilterValues {
  const out: Record<string, unknown> = {};
  for (const f of FILTER_OPTIONS as readonly FilterOption[]) {
    const v = f.kind === 'list' ? strList(p, f.param) : f.kind === 'count' ? int(p, f.param) : p[f.param] == null ? undefined : bool(p, f.param, false);
    if (v !== undefined) out[f.key] = v;
  }
  checkFilterValues(out, 'param');
  return out as FilterValues;
}
