// simgrep's caches (compiled tokenizers, the kernel's pruning directions: src/model/cache-entry.ts) are only
// accelerators: a cache directory that cannot be made, a FIFO at an entry's (predictable) name, or a killed
// writer's temp file never stops or changes a search. Each case runs the built CLI over a corpus large
// enough for the kernel to prune (it then reads and writes the directions) and expects the answer of a
// run with no cache at all, exit 0.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath } from '../helpers/cli.js';

let tmp = '';
let corpus = '';
let reference = '';
const QUERY = 'retry the upload';

function search(cacheDir: string) {
  const r = spawnSync(process.execPath, [cliPath, QUERY, corpus], {
    env: { ...process.env, SIMGREP_HOME: path.join(tmp, 'home'), SIMGREP_CACHE_DIR: cacheDir, HF_HUB_OFFLINE: '1' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, timedOut: r.error !== undefined };
}
const bins = (dir: string) => (readdirSync(dir, { recursive: true }) as string[]).filter((n) => n.endsWith('.bin')).map((n) => path.join(dir, n));

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-cache-entries-'));
  corpus = path.join(tmp, 'corpus');
  mkdirSync(corpus);
  const words = 'retry upload file config parse read write socket engine cache token model vector search index line path error open close buffer stream'.split(' ');
  let s = 1;
  const next = () => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return words[s % words.length]; };
  for (let f = 0; f < 4; f++) writeFileSync(path.join(corpus, `b${f}.ts`), Array.from({ length: 3000 }, () => Array.from({ length: 6 }, next).join(' ')).join('\n') + '\n');
  const r = search('off');
  expect(r.code).toBe(0);
  reference = r.stdout;
}, 120_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the caches never stop or change a search', () => {
  it('pruning directions are written (the corpus makes the kernel prune)', () => {
    const dir = path.join(tmp, 'written');
    expect(search(dir)).toMatchObject({ code: 0, stdout: reference });
    expect(readdirSync(path.join(dir, 'directions')).filter((n) => n.endsWith('.bin'))).toHaveLength(1);
  }, 120_000);

  it('a cache directory under a regular file (regression: the directions write failed the search, exit 2)', () => {
    const file = path.join(tmp, 'a-file');
    writeFileSync(file, 'not a directory');
    expect(search(path.join(file, 'cache'))).toMatchObject({ code: 0, stdout: reference, stderr: '' });
  }, 120_000);

  it('a FIFO at every entry\'s name is a miss (regression: the search hung reading it)', () => {
    const dir = path.join(tmp, 'fifos');
    expect(search(dir).code).toBe(0);
    const entries = bins(dir);
    expect(entries.map((f) => path.basename(path.dirname(f))).sort()).toEqual(['directions', 'tokenizers']);
    for (const f of entries) {
      rmSync(f);
      expect(spawnSync('mkfifo', [f]).status).toBe(0);
    }
    expect(search(dir)).toMatchObject({ timedOut: false, code: 0, stdout: reference });
  }, 180_000);

  it("a killed writer's stale temp files are removed when an entry is next written; a live writer's stay", () => {
    const dir = path.join(tmp, 'temps');
    expect(search(dir).code).toBe(0);
    const hour = Date.now() / 1000 - 3600;
    const temps = ['directions', 'tokenizers'].flatMap((sub) => {
      const stale = path.join(dir, sub, `x.bin.1.stale.tmp`);
      const live = path.join(dir, sub, `x.bin.2.live.tmp`);
      writeFileSync(stale, 'partial');
      utimesSync(stale, hour, hour);
      writeFileSync(live, 'partial');
      return [stale, live];
    });
    for (const f of bins(dir)) rmSync(f); // misses: both entries are written again
    expect(search(dir)).toMatchObject({ code: 0, stdout: reference });
    const left = (sub: string) => readdirSync(path.join(dir, sub)).filter((n) => n.endsWith('.tmp'));
    expect([left('directions'), left('tokenizers')]).toEqual([['x.bin.2.live.tmp'], ['x.bin.2.live.tmp']]);
    expect(temps).toHaveLength(4);
  }, 180_000);
});
