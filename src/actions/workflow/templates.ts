// Jinja2 templates for workflow `with:` values, `output:` mappings, inline code and conditions, on
// nunjucks (a maintained Jinja-compatible engine) with The Edge Agent's rendering (yaml_templates.py):
// every mapping reads as TEA's DotDict, so a missing key is None (printed "None") while an undefined
// *name* is an error; a value that is exactly one `{{ expr }}` keeps its native type (a list stays a
// list); `${name}` in rendered text is replaced by the workflow's variable of that name. Templates run
// walled in (template-sandbox.ts).
import { SimgrepError } from '../../errors.js';
import { pyJsonDumps } from './py-json.js';
import { pyStr, pyTruthy } from './py-values.js';
import { createSandboxedEnvironment, isBlockedName } from './template-sandbox.js';

export { pyStr, pyTruthy };

const SINGLE = /^\{\{\s*([^}]+(?:\}(?!\})[^}]*)*)\s*\}\}$/;
const captured: unknown[] = [];

const env = createSandboxedEnvironment({
  // The native value of an expression leaves the template through this filter instead of being printed.
  __capture: (v: unknown) => { captured.push(v); return ''; },
  // TEA's filters print as its Jinja2 does: tojson is Jinja's (sorted keys, HTML-safe, indent), json is
  // TEA's json.dumps, and fromjson hands back what it cannot parse (TEA's safe_fromjson).
  tojson: (v: unknown, indent?: unknown) => pyJsonDumps(v, { sortKeys: true, htmlSafe: true, indent: keywordArg(indent, 'indent') as number | string | null }),
  json: (v: unknown) => pyJsonDumps(v),
  fromjson: (v: unknown) => { try { return typeof v === 'string' ? JSON.parse(v) as unknown : v; } catch { return v; } },
  map: mapFilter,
  truncate: truncateFilter,
});

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
  const s = Array.from(pyStr(v));
  const n = Number(length);
  const e = String(end);
  if (s.length <= n + Number(leeway)) return s.join('');
  const head = s.slice(0, Math.max(0, n - Array.from(e).length)).join('');
  if (killwords) return head + e;
  const cut = head.lastIndexOf(' ');
  return (cut === -1 ? head : head.slice(0, cut)) + e;
}

/** Jinja's map: map(attribute='a.b', default=x) reads an attribute of each item; map('upper') applies a filter. */
function mapFilter(this: unknown, seq: unknown, ...args: unknown[]): unknown[] {
  const items = Array.isArray(seq) ? seq : seq === null || seq === undefined ? [] : typeof seq === 'string' ? Array.from(seq) : Object.keys(seq as object);
  const kw = isKeywordArgs(args.at(-1)) ? args.pop() as KeywordArgs : null;
  if (kw && typeof kw.attribute === 'string') {
    const path = kw.attribute.split('.');
    return items.map((item) => {
      let v: unknown = item;
      for (const p of path) {
        const key = Array.isArray(v) && /^\d+$/.test(p) ? Number(p) : p;
        v = v !== null && typeof v === 'object' && Object.hasOwn(v, key) ? (v as Record<string | number, unknown>)[key] : undefined;
      }
      if (v !== undefined) return v;
      if (Object.hasOwn(kw, 'default')) return kw.default;
      throw new Error(`map(attribute=${JSON.stringify(kw.attribute)}): an item has no ${JSON.stringify(kw.attribute)} (give map a default=...)`);
    });
  }
  const name = args.shift();
  if (typeof name !== 'string' || isBlockedName(name)) throw new Error('map needs a filter name (map("upper")) or attribute="name"');
  const filter = env.getFilter(name);
  return items.map((item) => filter.call(this, item, ...args));
}

export type TemplateContext = Record<string, unknown>;

function fail(what: string, e: unknown): never {
  const msg = ((e as Error).message ?? String(e)).replace(/^\(unknown path\)\s*/, '').replace(/\s+/g, ' ').trim();
  throw new SimgrepError('BAD_FLAG', `template ${JSON.stringify(what)}: ${msg}`);
}

/** The value of one Jinja expression (native type); an undefined name is an error (strict undefined). */
export function evaluate(expr: string, ctx: TemplateContext): unknown {
  captured.length = 0;
  try { env.renderString(`{{ (${expr}) | __capture }}`, ctx); } catch (e) { fail(expr, e); }
  const v = captured.pop();
  if (v === undefined) throw new SimgrepError('BAD_FLAG', `template ${JSON.stringify(expr)}: the value is undefined (strict undefined); check the name, or add | default(...)`);
  return v;
}

/** TEA's process_template: one `{{ expr }}` keeps its native type; anything else renders to a string. */
export function renderString(s: string, ctx: TemplateContext): unknown {
  const t = s.trim();
  const single = SINGLE.exec(t);
  if (single && !t.includes('{%') && t.split('{{').length === 2) return evaluate(single[1].trim(), ctx);
  if (!s.includes('{{') && !s.includes('{%') && !s.includes('${')) return s;
  let out: string;
  try { out = env.renderString(s, ctx); } catch (e) { fail(s, e); }
  // TEA's ${name}: the workflow's variables only (never the environment), unknown names left as written.
  const variables = (ctx.variables ?? {}) as Record<string, unknown>;
  return out.replace(/\$\{([^}]+)\}/g, (m, name: string) => (Object.hasOwn(variables, name) ? pyStr(variables[name]) : m));
}

/** Renders every string inside a value (mappings and lists recursively). */
export function renderValue(v: unknown, ctx: TemplateContext): unknown {
  if (typeof v === 'string') return renderString(v, ctx);
  if (Array.isArray(v)) return v.map((x) => renderValue(x, ctx));
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, renderValue(x, ctx)]));
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
  try { rendered = env.renderString(tmpl, ctx).trim().toLowerCase(); } catch { return false; }
  return !['', 'false', '0', 'no', 'none'].includes(rendered);
}

function own(o: Record<string, unknown>, k: string): unknown {
  return Object.hasOwn(o, k) ? o[k] : null;
}

function isIdentifier(s: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(s);
}
