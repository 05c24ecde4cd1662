// Jinja2 templates for workflow `with:` values, `output:` mappings, inline code and conditions, on
// nunjucks (a maintained Jinja-compatible engine) with The Edge Agent's rendering (yaml_templates.py):
// every mapping reads as TEA's DotDict, so a missing key is None (printed "None") while an undefined
// *name* is an error; a value that is exactly one `{{ expr }}` keeps its native type (a list stays a
// list); `${name}` in rendered text is replaced by the workflow's variable of that name. Templates run
// walled in (template-sandbox.ts).
import { SimgrepError } from '../../errors.js';
import { type FilterEnv, jinjaFilters } from './jinja-filters.js';
import { isPyFloat } from './py-float.js';
import { pyStr, pyTruthy } from './py-values.js';
import { createSandboxedEnvironment, dotContext } from './template-sandbox.js';

export { pyStr, pyTruthy };

const SINGLE = /^\{\{\s*([^}]+(?:\}(?!\})[^}]*)*)\s*\}\}$/;
const captured: unknown[] = [];

const env = createSandboxedEnvironment({
  // The native value of an expression leaves the template through this filter instead of being printed.
  __capture: (v: unknown) => { captured.push(v); return ''; },
  ...jinjaFilters(() => env as unknown as FilterEnv),
});

export type TemplateContext = Record<string, unknown>;

function fail(what: string, e: unknown): never {
  const msg = ((e as Error).message ?? String(e)).replace(/^\(unknown path\)\s*/, '').replace(/\s+/g, ' ').trim();
  throw new SimgrepError('BAD_FLAG', `template ${JSON.stringify(what)}: ${msg}`);
}

/** The value of one Jinja expression (native type); an undefined name is an error (strict undefined). */
export function evaluate(expr: string, ctx: TemplateContext): unknown {
  captured.length = 0;
  try { env.renderString(`{{ (${expr}) | __capture }}`, dotContext(ctx)); } catch (e) { fail(expr, e); }
  // Jinja2's compile_expression gives None for an undefined value ({{ nosuch }}, a list's item past its end).
  const v = captured.pop();
  return v === undefined ? null : v;
}

// Python's runtime errors (TypeError, ZeroDivisionError, ...), as against Jinja's own (an undefined name,
// bad syntax, a refused member), which TEA reports as "Template error".
const PY_RUNTIME_ERROR = /(?:^|\s|Error: )(?:TypeError|ValueError|ZeroDivisionError|KeyError|IndexError|OverflowError|AttributeError|RangeError): /;

/**
 * TEA's process_template: one `{{ expr }}` keeps its native type; anything else renders to a string. A
 * lone expression that raises a Python error (not a Jinja one) gives back its own text, as TEA's does
 * ("except Exception: return text"); in a longer template the error stops the node.
 */
export function renderString(s: string, ctx: TemplateContext): unknown {
  const t = s.trim();
  const single = SINGLE.exec(t);
  if (single && !t.includes('{%') && t.split('{{').length === 2) {
    try { return evaluate(single[1].trim(), ctx); } catch (e) {
      if (PY_RUNTIME_ERROR.test((e as Error).message)) return s;
      throw e;
    }
  }
  if (!s.includes('{{') && !s.includes('{%') && !s.includes('${')) return s;
  let out: string;
  try { out = env.renderString(s, dotContext(ctx)); } catch (e) { fail(s, e); }
  // TEA's ${name}: the workflow's variables only (never the environment), unknown names left as written.
  const variables = (ctx.variables ?? {}) as Record<string, unknown>;
  return out.replace(/\$\{([^}]+)\}/g, (m, name: string) => (Object.hasOwn(variables, name) ? pyStr(variables[name]) : m));
}

/** Renders every string inside a value (mappings and lists recursively). */
export function renderValue(v: unknown, ctx: TemplateContext): unknown {
  if (typeof v === 'string') return renderString(v, ctx);
  if (Array.isArray(v)) return v.map((x) => renderValue(x, ctx));
  if (v !== null && typeof v === 'object' && !isPyFloat(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, renderValue(x, ctx)]));
  return v;
}

/**
 * TEA's evaluate_condition (edge `when:`/`condition:`, while_loop `condition:`): `True`/`False`,
 * `!name` (not state.name), a bare name (state.name), a template, or an expression without braces.
 * The answer is Python's truth of the value (a rendered string is true when it is not empty).
 */
export function condition(c: unknown, ctx: TemplateContext): boolean {
  if (typeof c !== 'string') return pyTruthy(c);
  const s = c.trim();
  if (s === 'True') return true;
  if (s === 'False') return false;
  const state = (ctx.state ?? {}) as Record<string, unknown>;
  if (s.startsWith('!') && !s.startsWith('{{') && isIdentifier(s.slice(1).trim())) return !pyTruthy(own(state, s.slice(1).trim()));
  if (isIdentifier(s)) return pyTruthy(own(state, s));
  if (s.includes('{{') || s.includes('{%')) return pyTruthy(renderString(s, ctx));
  return pyTruthy(renderString(`{{ ${s} }}`, ctx));
}

/** TEA's goto `if:`: the rendered text is false when it is "", false, 0, no or none; a failing test is false. */
export function gotoCondition(c: unknown, ctx: TemplateContext): boolean {
  const s = String(c).trim();
  const tmpl = s.startsWith('{{') || s.startsWith('{%') ? s : `{{ ${s} }}`;
  let rendered: string;
  try { rendered = env.renderString(tmpl, dotContext(ctx)).trim().toLowerCase(); } catch { return false; }
  return !['', 'false', '0', 'no', 'none'].includes(rendered);
}

function own(o: Record<string, unknown>, k: string): unknown {
  return Object.hasOwn(o, k) ? o[k] : null;
}

function isIdentifier(s: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(s);
}
