// Which environment variables a workflow's templates see as `env`: only the names the workflow declares
// (top-level `env:`, a list of names or a mapping of names to defaults) and the names the user allows on
// the command line (`simgrep run --env NAME,...`). Every other variable is absent, so a template cannot
// read a secret (a token, a password) that nobody gave it.
import { SimgrepError } from '../../errors.js';
import { declaredMapping } from './template-sandbox.js';

export interface EnvDeclaration {
  /** Declared names, in the workflow's order. */
  names: string[];
  /** Values used when a declared variable is unset (from the mapping form). */
  defaults: Record<string, string>;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function checkEnvName(name: string, where: string): string {
  if (!NAME.test(name) || name.startsWith('__')) {
    throw new SimgrepError('BAD_FLAG', `${where}: "${name}" is not an environment variable name (letters, digits and _, not starting with a digit or __)`);
  }
  return name;
}

/** The top-level `env:` of a workflow: absent, a list of names, or a mapping of names to defaults (null: none). */
export function parseEnvDeclaration(v: unknown, file: string): EnvDeclaration {
  if (v === undefined || v === null) return { names: [], defaults: {} };
  const where = `${file}: env`;
  if (Array.isArray(v)) {
    return { names: v.map((n) => checkEnvName(typeof n === 'string' ? n : JSON.stringify(n), where)), defaults: {} };
  }
  if (typeof v === 'object') {
    const defaults: Record<string, string> = {};
    for (const [k, d] of Object.entries(v)) {
      checkEnvName(k, where);
      if (d === null) continue;
      if (!['string', 'number', 'boolean'].includes(typeof d)) throw new SimgrepError('BAD_FLAG', `${where}: the default of ${k} must be a string, a number, a boolean or null (no default)`);
      defaults[k] = String(d);
    }
    return { names: Object.keys(v), defaults };
  }
  throw new SimgrepError('BAD_FLAG', `${where}: must be a list of variable names (env: [HOME, API_URL]) or a mapping of names to defaults`);
}

/** The names `simgrep run --env` allows, from its comma-separated value. */
export function parseAllowedEnv(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value.split(',').map((s) => s.trim()).filter((s) => s !== '').map((n) => checkEnvName(n, '--env'));
}

/** The `env` templates see: declared and allowed names only, from `source` (the process environment). */
export function templateEnv(decl: EnvDeclaration, allowed: readonly string[], source: NodeJS.ProcessEnv = process.env): Readonly<Record<string, unknown>> {
  const names = new Set([...decl.names, ...allowed]);
  const values: Record<string, string> = {};
  for (const n of names) {
    const v = Object.hasOwn(source, n) ? source[n] : undefined;
    if (v !== undefined) values[n] = v;
    else if (Object.hasOwn(decl.defaults, n)) values[n] = decl.defaults[n];
  }
  return declaredMapping(values, names, (n) => `env.${n} is not available: a workflow sees only the environment variables it declares (top-level env: [${n}]) or that the command line allows (simgrep run --env ${n})`);
}
