// simgrep --like PATH:LINE (issue 30): code like the chunk at a file and line, that chunk left out;
// a malformed PATH:LINE or a line past the end is a clear error with exit 2.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { isolatedHome } from '../helpers/isolated-home.js';

let home: ReturnType<typeof isolatedHome>;
let dir = '';

beforeAll(() => {
  home = isolatedHome('simgrep-like-');
  dir = path.join(home.dir, 'tree');
  mkdirSync(dir);
  const file = (t: string, f: number) => [`export function ${t}Retry${f}(job) {`, `  // ${t}: try the ${t} again after a pause`, `  return schedule${t}(job, ${f});`, '}', ''].join('\n');
  for (const t of ['upload', 'parse']) for (let f = 0; f < 3; f++) writeFileSync(path.join(dir, `${t}-${f}.ts`), file(t, f));
  writeFileSync(path.join(dir, 'blob.bin'), Buffer.from('upload retry\n\0\x01\x02 schedule upload again\n', 'binary'));
});
afterAll(() => home.restore());

const run = (args: string[]) => runCli([...args, '--no-index', '-J', '0'], { env: home.env, cwd: dir });

describe('--like', () => {
  it('finds code like the chunk, without the chunk itself', async () => {
    const r = await run(['--jsonl', '--top-k', '3', '-n', '0', '--like', 'upload-1.ts:2', '.']);
    expect(r.code, r.stderr).toBe(0);
    const files = r.stdout.trim().split('\n').map((l) => path.basename(JSON.parse(l).filename));
    expect(files).not.toContain('upload-1.ts');
    expect(files.slice(0, 2).sort()).toEqual(['upload-0.ts', 'upload-2.ts']);
  });

  it.each([
    ['upload-1.ts', '--like needs PATH:LINE, e.g. --like src/upload.ts:42 (got "upload-1.ts")'],
    ['upload-1.ts:40', 'upload-1.ts has 4 lines; line 40 is past its end: pick one from 1 to 4'],
    // A binary file is never searched: its bytes are no query either.
    ['blob.bin:1', 'blob.bin is a binary file (a NUL byte in its first 8 KiB), never searched; pass a line of a text file'],
  ])('--like %s is refused: %s', async (like, message) => {
    const r = await run(['--like', like, '.']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`simgrep: ${message.replace(/^(upload-1.ts has|blob.bin is)/, (m) => path.join(dir, m))}\n`);
  });

  it('-m that only the chunk itself passes names the closest other code, as any search names its closest miss', async () => {
    // Before: exit 1 and no word (the chunk passed, so the search named no closest miss), or the chunk itself named.
    const best = await run(['--jsonl', '--top-k', '1', '-n', '0', '--like', 'upload-1.ts:2', '.']);
    const { filename, distance } = JSON.parse(best.stdout) as { filename: string; distance: number };
    expect(path.basename(filename)).not.toBe('upload-1.ts');
    for (const d of [distance, 1e-6]) {
      const r = await run(['-m', String(d), '-n', '0', '--like', 'upload-1.ts:2', '.']);
      expect([r.code, r.stdout]).toEqual([1, '']);
      expect(r.stderr).toMatch(new RegExp(`^simgrep: no line is closer than --max-distance [^;]+; the closest was \\./(upload-0|upload-2)\\.ts:\\d+ \\(distance`));
    }
  });

  it('a query given beside --like (read as a PATH that is not there) is named as such, with how to fix it (audit44: only "no such file or directory")', async () => {
    const r = await run(['--like', 'upload-1.ts:2', 'retry upload', '.', '-l']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`simgrep: retry upload: no such file or directory (relative paths start at ${dir}); with --like every positional is a PATH: the chunk at PATH:LINE is the query, so leave the query out\n`);
  });

  it('a mistyped PATH beside --like is only not there: no advice to leave a query out (audit44\'s left: the hint came for any missing first path)', async () => {
    for (const typo of ['sub dir/upload.ts', 'upload-9.ts']) {
      const r = await run(['--like', 'upload-1.ts:2', typo, '.', '-l']);
      expect([r.code, r.stderr]).toEqual([2, `simgrep: ${typo}: no such file or directory (relative paths start at ${dir})\n`]);
    }
  });

  // One bare word (no separator, no extension) is a one-word query or a mistyped directory, which a missing
  // path cannot tell apart: the advice says "if" (mend45c: `upload` beside --like had no hint at all).
  it('a missing first PATH of one bare word: leave it out if it was meant as the query', async () => {
    for (const word of ['upload', 'srcc']) {
      const r = await run(['--like', 'upload-1.ts:2', word, '.', '-l']);
      expect([r.code, r.stderr]).toEqual([2, `simgrep: ${word}: no such file or directory (relative paths start at ${dir}); if ${word} was meant as the query, leave it out: with --like every positional is a PATH (the chunk at PATH:LINE is the query)\n`]);
    }
  });
});
