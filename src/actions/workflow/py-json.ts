// Python's json.dumps for workflow templates, so `| tojson` and `| json` print what TEA's Jinja2 prints:
// ", " and ": " separators (",", ": " with an indent), non-ASCII as \uXXXX (ensure_ascii), and for
// Jinja's tojson sorted keys and <, >, &, ' escaped (htmlsafe_json_dumps).

export interface PyJsonOptions { sortKeys?: boolean; indent?: number | string | null; htmlSafe?: boolean }

function quote(s: string): string {
  // JSON.stringify escapes as Python does below U+0020; ensure_ascii escapes everything outside ' '..'~'.
  return JSON.stringify(s).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function num(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? 'Infinity' : '-Infinity';
  return String(v);
}

function dumps(v: unknown, o: PyJsonOptions, pad: string, level: number): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return num(v);
  if (typeof v === 'string') return quote(v);
  const items: string[] = Array.isArray(v)
    ? v.map((x) => dumps(x, o, pad, level + 1))
    : (o.sortKeys ? Object.keys(v as object).sort() : Object.keys(v as object)).map((k) => `${quote(k)}: ${dumps((v as Record<string, unknown>)[k], o, pad, level + 1)}`);
  const [open, close] = Array.isArray(v) ? ['[', ']'] : ['{', '}'];
  if (items.length === 0) return open + close;
  if (o.indent === null || o.indent === undefined) return open + items.join(', ') + close;
  const inner = `\n${pad.repeat(level + 1)}`;
  return open + inner + items.join(`,${inner}`) + `\n${pad.repeat(level)}` + close;
}

/** json.dumps(v, sort_keys=..., indent=...), and Jinja's HTML-safe escapes when asked. */
export function pyJsonDumps(v: unknown, o: PyJsonOptions = {}): string {
  const pad = typeof o.indent === 'number' ? ' '.repeat(Math.max(0, o.indent)) : typeof o.indent === 'string' ? o.indent : '';
  const out = dumps(v, o, pad, 0);
  return o.htmlSafe ? out.replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/'/g, '\\u0027') : out;
}
