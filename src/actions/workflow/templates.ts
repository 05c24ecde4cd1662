// Jinja2 templates for workflow `with:` values and `when:` conditions, on nunjucks (a maintained
// Jinja-compatible engine) with Jinja compatibility on (True/None, dict.get/items/keys) and strict
// undefined: printing an undefined name is an error. A value that is exactly one `{{ expr }}` keeps its
// native type (a list stays a list), as in The Edge Agent. Templates run walled in (template-sandbox.ts).
import { SimgrepError } from '../../errors.js';
import { createSandboxedEnvironment } from './template-sandbox.js';

const SINGLE = /^\s*\{\{([\s\S]*?)\}\}\s*$/;
const captured: unknown[] = [];

const env = createSandboxedEnvironment({
  // The native value of an expression leaves the template through this filter instead of being printed.
  __capture: (v: unknown) => { captured.push(v); return ''; },
  tojson: (v: unknown) => JSON.stringify(v),
  json: (v: unknown) => JSON.stringify(v),
  fromjson: (v: string) => JSON.parse(v) as unknown,
});

export type TemplateContext = Record<string, unknown>;

function fail(what: string, e: unknown): never {
  const msg = ((e as Error).message ?? String(e)).replace(/^\(unknown path\)\s*/, '').replace(/\s+/g, ' ').trim();
  throw new SimgrepError('BAD_FLAG', `template ${JSON.stringify(what)}: ${msg}`);
}

/** The value of one Jinja expression (native type); undefined is an error (strict undefined). */
export function evaluate(expr: string, ctx: TemplateContext): unknown {
  captured.length = 0;
  try { env.renderString(`{{ (${expr}) | __capture }}`, ctx); } catch (e) { fail(expr, e); }
  const v = captured.pop();
  if (v === undefined) throw new SimgrepError('BAD_FLAG', `template ${JSON.stringify(expr)}: the value is undefined (strict undefined); check the name, or add | default(...)`);
  return v;
}

/** Renders a string: one `{{ expr }}` keeps its native type; anything else renders to a string. */
export function renderString(s: string, ctx: TemplateContext): unknown {
  if (!s.includes('{{') && !s.includes('{%')) return s;
  const single = SINGLE.exec(s);
  if (single && !single[1].includes('{{') && !single[1].includes('}}')) return evaluate(single[1].trim(), ctx);
  try { return env.renderString(s, ctx); } catch (e) { fail(s, e); }
}

/** Renders every string inside a value (mappings and lists recursively). */
export function renderValue(v: unknown, ctx: TemplateContext): unknown {
  if (typeof v === 'string') return renderString(v, ctx);
  if (Array.isArray(v)) return v.map((x) => renderValue(x, ctx));
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, renderValue(x, ctx)]));
  return v;
}

/** A `when:`/`if:` condition: a boolean, a Jinja expression, `!name` (not state.name) or a template. */
export function condition(c: unknown, ctx: TemplateContext): boolean {
  if (typeof c === 'boolean') return c;
  if (typeof c !== 'string') throw new SimgrepError('BAD_FLAG', `a condition must be a boolean or an expression (got ${JSON.stringify(c)})`);
  const s = c.trim();
  if (/^!\s*[A-Za-z_][\w.]*$/.test(s)) return !truthy(evaluateLenient(`state.${s.slice(1).trim()}`, ctx));
  if (s.includes('{{')) {
    const r = renderString(s, ctx);
    return typeof r === 'string' ? !['', 'false', 'none', '0', 'null'].includes(r.trim().toLowerCase()) : truthy(r);
  }
  return truthy(evaluateLenient(s, ctx));
}

/** Conditions may test a key that is not set yet: that reads as false, not as an error. */
function evaluateLenient(expr: string, ctx: TemplateContext): unknown {
  captured.length = 0;
  try { env.renderString(`{{ (${expr}) | __capture }}`, ctx); } catch (e) { fail(expr, e); }
  return captured.pop();
}

function truthy(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0;
  if (v !== null && typeof v === 'object') return Object.keys(v).length > 0;
  return Boolean(v);
}
