// The MCP answer's warning note: counts by code, the first warnings with their messages (redacted:
// redact.test.ts), held to its share of the budget, and nothing named outside the root.
import { describe, expect, it } from 'vitest';
import { warningNote } from '../../../src/mcp/warning-note.js';

const root = '/srv/project';
const indexDir = '/home/u/.simgrep/workspaces/project-1a2b';
const w = (path: string, code: string) => ({ path, code, message: `${path}: ${code} from ${indexDir}` });

describe('warningNote', () => {
  it('none: no note', () => {
    expect(warningNote([], { root, indexDir, maxTokens: 4000 })).toBeNull();
  });

  it('each warning its code and message: paths inside the root relative to it, the index as "the index", anything else as outside', () => {
    const note = warningNote([
      w(`${root}/a.ts`, 'PATH_UNREADABLE'), w(indexDir, 'SNAPSHOT_NOT_SAVED'), w('/etc/x', 'PATH_NOT_FOUND'),
      { path: `${root}/b.ts`, code: 'TOO_LARGE', message: 'too large (12 MB); raise --max-file-bytes' },
    ], { root, indexDir, maxTokens: 4000 });
    expect(note).toBe('4 warnings (1 PATH_UNREADABLE, 1 SNAPSHOT_NOT_SAVED, 1 PATH_NOT_FOUND, 1 TOO_LARGE): this answer may leave out what they name; the CLI prints them in full: '
      + 'PATH_UNREADABLE: a.ts: PATH_UNREADABLE from the index; SNAPSHOT_NOT_SAVED: the index: SNAPSHOT_NOT_SAVED from the index; '
      + 'PATH_NOT_FOUND: [outside the root]: PATH_NOT_FOUND from the index; TOO_LARGE: b.ts: too large (12 MB); raise --max-file-bytes');
  });

  it('a long message is cut', () => {
    const note = warningNote([{ path: `${root}/a.ts`, code: 'X', message: `${root}/a.ts: ${'why '.repeat(200)}` }], { root, maxTokens: 100_000 })!;
    expect(note).toMatch(/: X: a\.ts: (why ){73}wh…$/);
  });

  it('at most ten warnings, then "N more"; a small budget shows fewer, the smallest only the counts', () => {
    const many = Array.from({ length: 25 }, (_, i) => w(`${root}/d${i}/.gitignore`, 'IGNORE_FILE_UNUSABLE'));
    const big = warningNote(many, { root, maxTokens: 100_000 })!;
    expect(big.match(/IGNORE_FILE_UNUSABLE: /g)).toHaveLength(10);
    expect(big).toMatch(/; and 15 more$/);
    const small = warningNote(many, { root, maxTokens: 300 })!;
    expect(small.length).toBeLessThanOrEqual(300 * 4 / 5);
    expect(small).toMatch(/: IGNORE_FILE_UNUSABLE: d0\/\.gitignore: IGNORE_FILE_UNUSABLE from \[outside the root\]; and 24 more$/);
    expect(warningNote(many, { root, maxTokens: 200 })).toBe('25 warnings (25 IGNORE_FILE_UNUSABLE): this answer may leave out what they name; the CLI prints them in full; raise max_tokens to see which');
  });

  it('a warning about the whole search (no path: the query, -J capped) shows its message, first, never as a path outside the root', () => {
    const words = { path: '', code: 'QUERY_WORDS_ONLY', message: 'the model knows no token of the query "ⵜⴰⵎⴰⵣⵉⵖⵜ": it was searched by its words alone (as --mode lexical)' };
    const note = warningNote([w(`${root}/a.ts`, 'PATH_UNREADABLE'), words], { root, indexDir, maxTokens: 4000 })!;
    expect(note).toBe('2 warnings (1 PATH_UNREADABLE, 1 QUERY_WORDS_ONLY): this answer may leave out what they name; the CLI prints them in full: '
      + `QUERY_WORDS_ONLY: ${words.message.replace('--mode lexical', '"mode": "lexical"')}; PATH_UNREADABLE: a.ts: PATH_UNREADABLE from the index`);
    const long = { path: '', code: 'QUERY_STOP_WORDS', message: `the query "${'the of and '.repeat(100)}" has only common words` };
    const cut = warningNote([long], { root, maxTokens: 4000 })!;
    expect(cut).not.toMatch(/outside the root/);
    expect(cut.length).toBeLessThan(500);
    expect(cut).toMatch(/^1 warning \(1 QUERY_STOP_WORDS\): .*: QUERY_STOP_WORDS: the query "the of and .*…" has only common words$/);
    // A path in a search-wide message is redacted as any other message's.
    const capped = warningNote([{ path: '', code: 'CONCURRENCY_CAPPED', message: `-J 999 is too many; see ${indexDir}/x and /etc/passwd` }], { root, indexDir, maxTokens: 4000 })!;
    expect(capped).toMatch(/: CONCURRENCY_CAPPED: -J 999 is too many; see the index and \[outside the root\]$/);
  });

  it('any other warning with no path (a path given as \'\', a worker\'s error) shows only its code: its message may name the outside in words', () => {
    const warnings = [
      { path: '', code: 'PATH_NOT_FOUND', message: 'cannot search "": /home/u/work (the current directory) is outside; ENOENT' },
      { path: '', code: 'CLUSTER_WORKER_FAILED', message: 'worker 10.0.0.7:7000 on host build-3 (user alice) failed: out of memory' },
      { path: '', code: 'QUERY_NUMBERS_ONLY', message: 'the query "1964" has numbers but no word' },
    ];
    const note = warningNote(warnings, { root, indexDir, maxTokens: 4000 })!;
    expect(note).toBe('3 warnings (1 PATH_NOT_FOUND, 1 CLUSTER_WORKER_FAILED, 1 QUERY_NUMBERS_ONLY): this answer may leave out what they name; the CLI prints them in full: '
      + 'QUERY_NUMBERS_ONLY: the query "1964" has numbers but no word; PATH_NOT_FOUND; CLUSTER_WORKER_FAILED');
  });

  it('a long whole-search message loses the middle of the query it quotes, not its advice; no cut splits an emoji or a Gothic letter', () => {
    const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    const advice = 'has only common words (stop words), which match any line by chance: no match; use identifiers or words, or --mode semantic for the nearest lines anyway';
    for (const unit of ['😀', '𐌰', 'a😀', 'ab𐌰']) {
      const note = warningNote([{ path: '', code: 'QUERY_STOP_WORDS', message: `the query "${unit.repeat(400)}" ${advice}` }], { root, maxTokens: 100_000 })!;
      expect(note).not.toMatch(lone);
      // In the tools' terms (audit44), within the same bound.
      expect(note.endsWith(`…" ${advice.replace('--mode semantic', '"mode": "semantic"')}`)).toBe(true);
      expect(note.length - note.indexOf('QUERY_STOP_WORDS: ')).toBeLessThanOrEqual('QUERY_STOP_WORDS: '.length + 300);
    }
    // Any other long message is cut at its end, on a code point boundary; a long path keeps its end.
    const path = `${root}/${'𐌰'.repeat(200)}.ts`;
    const note = warningNote([{ path, code: 'X', message: `a${'😀'.repeat(151)}` }, { path, code: 'Y', message: 'y' }], { root, maxTokens: 100_000 })!;
    expect(note).not.toMatch(lone);
    expect(note).toContain(`X: …${'𐌰'.repeat(78)}.ts: a${'😀'.repeat(149)}…;`);
  });
});
