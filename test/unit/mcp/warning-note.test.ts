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

  it('a warning about the whole search (no path: the query, a timeout) shows its message, first, never as a path outside the root', () => {
    const words = { path: '', code: 'QUERY_WORDS_ONLY', message: 'the model knows no token of the query "ⵜⴰⵎⴰⵣⵉⵖⵜ": it was searched by its words alone (as --mode lexical)' };
    const note = warningNote([w(`${root}/a.ts`, 'PATH_UNREADABLE'), words], { root, indexDir, maxTokens: 4000 })!;
    expect(note).toBe('2 warnings (1 PATH_UNREADABLE, 1 QUERY_WORDS_ONLY): this answer may leave out what they name; the CLI prints them in full: '
      + `QUERY_WORDS_ONLY: ${words.message}; PATH_UNREADABLE: a.ts: PATH_UNREADABLE from the index`);
    const long = { path: '', code: 'QUERY_STOP_WORDS', message: `the query "${'the of and '.repeat(100)}" has only common words` };
    const cut = warningNote([long], { root, maxTokens: 4000 })!;
    expect(cut).not.toMatch(/outside the root/);
    expect(cut.length).toBeLessThan(500);
    expect(cut).toMatch(/^1 warning \(1 QUERY_STOP_WORDS\): .*: QUERY_STOP_WORDS: the query "the of and .*…$/);
    // A path in a search-wide message is redacted as any other message's.
    const timeout = warningNote([{ path: '', code: 'TIMEOUT', message: `timed out after 5 s reading ${indexDir}/x and /etc/passwd` }], { root, indexDir, maxTokens: 4000 })!;
    expect(timeout).not.toMatch(/\/etc|\/home/);
  });
});
