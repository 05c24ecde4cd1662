// Keeps the docs honest (issue 27): every flag of the one flag table is in docs/cli.md's option table
// (and that table names no flag the parser lacks), every registered action name is in docs/agents.md,
// and every relative link in README.md and docs/*.md reaches a file and, with a #anchor into a
// markdown file, one of its headings as GitHub slugs them. Pure: reads files only.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ACTION_NAMES } from '../../src/actions/registry.js';
import { FLAGS, SEMTOOLS_FLAGS, type FlagDef } from '../../src/cli/flags.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (rel: string) => readFileSync(path.join(ROOT, rel), 'utf8');
const DOC_FILES = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];

/** Markdown lines outside fenced code blocks, with their inline code spans blanked when `code` is false. */
function prose(md: string, { keepCode = false } = {}): string[] {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of md.split('\n')) {
    const f = /^\s*(```+|~~~+)/.exec(line);
    if (f) {
      if (fence === null) fence = f[1][0];
      else if (f[1][0] === fence) fence = null;
      continue;
    }
    if (fence === null) out.push(keepCode ? line : line.replace(/`[^`]*`/g, '``'));
  }
  return out;
}

/** The first cell of every row of the table under the `## Options` heading (or another `## heading`). */
function optionCells(cliMd: string, heading = 'Options'): string[] {
  const lines = prose(cliMd, { keepCode: true });
  const start = lines.findIndex((l) => l.replace(/^##\s+/, '').trim() === heading && /^##\s/.test(l));
  if (start < 0) return [];
  const end = lines.findIndex((l, i) => i > start && /^##\s/.test(l));
  return lines.slice(start + 1, end < 0 ? undefined : end)
    .filter((l) => l.startsWith('|') && !/^\|\s*-/.test(l))
    .map((l) => l.split(/(?<!\\)\|/)[1] ?? '');
}

const longName = (name: string, negatable?: boolean) => new RegExp(`--${negatable ? '(?:\\[no-\\]|no-)' : ''}${name}(?![\\w-])`);

/** Flags of the table missing from docs/cli.md's option table: `--name`, its short `-x` in the same row, its `--no-` form. */
export function undocumentedFlags(cliMd: string, flags: readonly FlagDef[], heading?: string): string[] {
  const cells = optionCells(cliMd, heading);
  const missing: string[] = [];
  for (const f of flags) {
    const row = cells.find((c) => longName(f.name).test(c) || longName(f.name, true).test(c));
    if (!row) { missing.push(`--${f.name}`); continue; }
    if (f.negatable && !longName(f.name, true).test(row)) missing.push(`--no-${f.name}`);
    if (f.short && !new RegExp(`(?:^|[\\s\`])-${f.short}(?![\\w-])`).test(row)) missing.push(`-${f.short} (--${f.name})`);
    for (const alias of f.aliases ?? []) if (!longName(alias).test(row)) missing.push(`--${alias} (--${f.name})`);
  }
  return missing;
}

/**
 * Ignore files (`.gitignore`, `.ignore`, `.git/...`) that a flag's row in docs/cli.md names
 * and its --help text (the flag table) does not: the docs edited by hand past the one source (mend33).
 */
export function filesMissingFromHelp(cliMd: string, flags: readonly FlagDef[]): string[] {
  const cells = optionCells(cliMd);
  const missing: string[] = [];
  for (const f of flags) {
    const row = cells.find((c) => longName(f.name).test(c) || longName(f.name, true).test(c));
    const desc = row === undefined ? '' : cliMd.split('\n').find((l) => l.includes(row))?.split(/(?<!\\)\|/)[2] ?? '';
    for (const [, file] of desc.matchAll(/`(\.(?:git|ignore)[\w./-]*)`/g)) if (!f.help.includes(file)) missing.push(`--${f.name}: ${file}`);
  }
  return missing;
}

/** Long options named in docs/cli.md's option table that the flag table does not have. */
export function unknownFlags(cliMd: string, flags: readonly FlagDef[], heading?: string): string[] {
  const known = new Set(flags.flatMap((f) => [...(f.negatable ? [f.name, `no-${f.name}`, `[no-]${f.name}`] : [f.name]), ...(f.aliases ?? [])]));
  return optionCells(cliMd, heading).flatMap((c) => [...c.matchAll(/--((?:\[no-\])?[a-z0-9][\w-]*)/g)].map((m) => m[1])).filter((n) => !known.has(n));
}

/** Names that docs/agents.md never writes as `name` (in backticks). */
export function undocumentedActions(agentsMd: string, names: readonly string[]): string[] {
  return names.filter((n) => !agentsMd.includes(`\`${n}\``));
}

/** GitHub's heading anchor: the rendered text lower-cased, punctuation dropped, each space a hyphen. */
export function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a markdown file offers: its headings' slugs (repeats numbered -1, -2, as GitHub does) and explicit ids. */
export function anchors(md: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of prose(md, { keepCode: true })) {
    for (const m of line.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) out.add(m[1]);
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!h) continue;
    const base = slug(h[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Relative link targets of a markdown file (inline and reference-style), outside code. */
export function relativeLinks(md: string): string[] {
  const targets: string[] = [];
  for (const line of prose(md)) {
    for (const m of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(m[1]);
    const ref = /^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(line);
    if (ref) targets.push(ref[1]);
  }
  return targets.filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t) && !t.startsWith('//'));
}

/** The links of `file` (repo-relative) that reach no file, or no heading of a markdown file. */
export function brokenLinks(file: string, md: string, readDoc: (rel: string) => string | null): string[] {
  const broken: string[] = [];
  for (const target of relativeLinks(md)) {
    const hash = target.indexOf('#');
    const rel = hash < 0 ? target : target.slice(0, hash);
    const anchor = hash < 0 ? '' : decodeURIComponent(target.slice(hash + 1));
    const dest = rel === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURIComponent(rel)));
    if (dest.startsWith('..') || !existsSync(path.join(ROOT, dest))) { broken.push(`${file}: ${target} (no such file)`); continue; }
    if (anchor && dest.endsWith('.md')) {
      const text = dest === file ? md : readDoc(dest);
      if (text === null || !anchors(text).has(anchor)) broken.push(`${file}: ${target} (no heading #${anchor} in ${dest})`);
    }
  }
  return broken;
}

const readDoc = (rel: string) => { try { return read(rel); } catch { return null; } };

describe('docs match the code', () => {
  it('docs/cli.md documents every flag of src/cli/flags.ts, with its short form and its --no- form', () => {
    expect(undocumentedFlags(read('docs/cli.md'), FLAGS)).toEqual([]);
  });

  it('the ignore files a flag\'s row in docs/cli.md names are in its --help text too (the flag table is the one source)', () => {
    expect(filesMissingFromHelp(read('docs/cli.md'), FLAGS)).toEqual([]);
  });

  it('docs/cli.md names no option the parser lacks', () => {
    expect(unknownFlags(read('docs/cli.md'), FLAGS)).toEqual([]);
  });

  it('docs/cli.md\'s semtools drop-in table documents every flag of SEMTOOLS_FLAGS (aliases too) and no other', () => {
    expect(undocumentedFlags(read('docs/cli.md'), SEMTOOLS_FLAGS, 'semtools drop-in')).toEqual([]);
    expect(unknownFlags(read('docs/cli.md'), SEMTOOLS_FLAGS, 'semtools drop-in')).toEqual([]);
  });

  it('docs/agents.md names every registered action and alias', () => {
    expect(ACTION_NAMES.length).toBeGreaterThan(0);
    expect(undocumentedActions(read('docs/agents.md'), ACTION_NAMES)).toEqual([]);
  });

  it('every relative link in README.md and docs/*.md reaches a file and its heading', () => {
    expect(DOC_FILES).toContain('docs/architecture.md');
    expect(DOC_FILES.flatMap((f) => brokenLinks(f, read(f), readDoc))).toEqual([]);
  });
});

describe('the checks catch what they are for', () => {
  const cli = read('docs/cli.md');

  it('a flag whose row is gone is reported', () => {
    const without = cli.split('\n').filter((l) => !l.startsWith('| `--s3-endpoint')).join('\n');
    expect(undocumentedFlags(without, FLAGS)).toEqual(['--s3-endpoint']);
  });

  it('a short form or a --no- form missing from its row is reported, and an option the parser lacks', () => {
    const doctored = cli.replace('| `-n, --n-lines N`', '| `--n-lines N`').replace('`--[no-]merge`', '`--merge`').replace('| `--hidden`', '| `--hiddn`');
    expect(undocumentedFlags(doctored, FLAGS)).toEqual(['-n (--n-lines)', '--no-merge', '--hidden']);
    expect(unknownFlags(doctored, FLAGS)).toEqual(['hiddn']);
  });

  it('an action name missing from docs/agents.md is reported', () => {
    expect(undocumentedActions('`search.semantic_content`', ['search.semantic', 'search.semantic_content'])).toEqual(['search.semantic']);
  });

  it('GitHub slugs: code, punctuation and repeats', () => {
    expect(slug('### `--json` (semtools\' exact schema)'.replace(/^#+\s*/, ''))).toBe('--json-semtools-exact-schema');
    expect(slug('A resident server: `simgrep serve`')).toBe('a-resident-server-simgrep-serve');
    expect([...anchors('# A\n## B\n```\n# not a heading\n```\n## B\n')]).toEqual(['a', 'b', 'b-1']);
  });

  it('a link to a missing file or heading is reported; external links and code are not checked', () => {
    const md = '[a](docs/cli.md#options) [b](docs/nope.md) [c](docs/cli.md#no-such-heading) [d](https://x.y/z) `[e](nope.md)`\n```\n[f](nope.md)\n```\n';
    expect(brokenLinks('README.md', md, readDoc)).toEqual([
      'README.md: docs/nope.md (no such file)',
      'README.md: docs/cli.md#no-such-heading (no heading #no-such-heading in docs/cli.md)',
    ]);
  });
});
