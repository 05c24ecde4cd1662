// A compact match's enclosing definition is looked for in its file above the hunk (answer.ts fileReader): the
// file is read only when it is a regular file of at most 8 MiB, not through a link, so that a huge file never
// holds the engine's thread for seconds and a FIFO swapped in after the search never blocks it forever (mend47a).
import { spawnSync } from 'node:child_process';
import { closeSync, ftruncateSync, mkdtempSync, openSync, rmSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAnswer } from '../../../src/mcp/answer.js';
import type { SearchResult } from '../../../src/rank/windows.js';

const repoRoot = path.join(import.meta.dirname, '../../..');
const HEAD = 'class Big:\n    def method(self):\n        # ';
const BODY = '        x = compute(1, 2, 3)';
let dir = '';
beforeAll(() => { dir = mkdtempSync(path.join(tmpdir(), 'simgrep-answer-read-')); });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HUNK = Array.from({ length: 7 }, () => BODY);
/** Ten results at line 3 of `file` (its lines 0-1 the definition, 2 filler), the hunk not reaching the definition. */
const resultsIn = (file: string): SearchResult[] => Array.from({ length: 10 }, () => ({ filename: file, start: 3, end: 10, match_line: 3, lines: HUNK, distance: 0.1, matches: [] }) as unknown as SearchResult);
const signatures = (file: string) => buildAnswer({ results: resultsIn(file), mode: 'hybrid', maxTokens: 200, withCode: true, filesSearched: 1, more: false, index: 'fresh', notes: [] })
  .structuredContent.matches.map((m) => m.signature);

/** `HEAD`, its comment line filled out by `fillerBytes` (a hole: nothing written), then the hunk. */
function writeFile(file: string, fillerBytes: number): void {
  const fd = openSync(file, 'w');
  writeSync(fd, HEAD);
  ftruncateSync(fd, HEAD.length + fillerBytes);
  writeSync(fd, `\n${HUNK.join('\n')}\n`, HEAD.length + fillerBytes);
  closeSync(fd);
}

describe('a compact match\'s signature from its file', () => {
  it('is read from a small regular file', () => {
    const f = path.join(dir, 'small.py');
    writeFile(f, 10);
    expect(signatures(f)[0]).toBe('def method(self):');
  });

  it('is not read from a file over 8 MiB (the hunk\'s own, here none)', () => {
    const f = path.join(dir, 'huge.py');
    writeFile(f, 9 << 20);
    const s = signatures(f);
    expect(s.length).toBeGreaterThan(0);
    expect(new Set(s)).toEqual(new Set([null]));
  });

  it('is not read through a link', () => {
    const f = path.join(dir, 'target.py');
    writeFile(f, 10);
    symlinkSync(f, path.join(dir, 'link.py'));
    expect(new Set(signatures(path.join(dir, 'link.py')))).toEqual(new Set([null]));
  });

  it('is not waited for from a FIFO swapped in after the search: the answer comes at once', () => {
    // In a child (the built answer.js): a blocking open of a FIFO with no writer never returns, which would hang this run.
    const fifo = path.join(dir, 'fifo.py');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const script = `
      import { buildAnswer } from ${JSON.stringify(path.join(repoRoot, 'dist/src/mcp/answer.js'))};
      const results = Array.from({ length: 10 }, () => ({ filename: ${JSON.stringify(fifo)}, start: 3, end: 10, match_line: 3, lines: ${JSON.stringify(HUNK)}, distance: 0.1, matches: [] }));
      const a = buildAnswer({ results, mode: 'hybrid', maxTokens: 200, withCode: true, filesSearched: 1, more: false, index: 'fresh', notes: [] });
      console.log(JSON.stringify(a.structuredContent.matches.map((m) => m.signature)));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 10_000 });
    expect(r.signal, r.stderr).toBeNull();
    expect(r.status, r.stderr).toBe(0);
    expect(new Set(JSON.parse(r.stdout))).toEqual(new Set([null]));
  });
});
