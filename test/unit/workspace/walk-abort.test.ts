// A walk cut short (a --timeout or an abort during an indexed search) is no walk: a source stops listing
// quietly when aborted, so the cut list must neither be recorded nor kept, or the next search of the
// paths would see only the files listed before the cut (left32: "searched 0 files", no results).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { WalkCache } from '../../../src/workspace/changes/walk-cache.js';
import { recordedWalk } from '../../../src/workspace/changes/walks.js';

let tmp = '';
let tree = '';
const saved = process.env.SIMGREP_CACHE_DIR;

beforeEach(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-walk-abort-'));
  tree = path.join(tmp, 'tree');
  for (let i = 0; i < 20; i++) {
    mkdirSync(path.join(tree, `d${i % 4}`), { recursive: true });
    writeFileSync(path.join(tree, `d${i % 4}`, `f${i}.ts`), `const x${i} = ${i};\n`);
  }
  process.env.SIMGREP_CACHE_DIR = path.join(tmp, 'cache');
});
afterEach(() => {
  if (saved === undefined) delete process.env.SIMGREP_CACHE_DIR; else process.env.SIMGREP_CACHE_DIR = saved;
  rmSync(tmp, { recursive: true, force: true });
});

it('an aborted walk throws and records nothing; the next walk lists every file', async () => {
  const stop = new AbortController();
  stop.abort();
  await expect(recordedWalk('k', [tree], {}, stop.signal)).rejects.toThrow();
  const walks = path.join(tmp, 'cache', 'walks');
  expect(existsSync(walks) ? readdirSync(walks) : []).toEqual([]);
  expect((await recordedWalk('k', [tree], {})).entries.length).toBe(20);
});

it('a watched walk cut short leaves the next search to walk again, not to trust the walk before it', async () => {
  const cache = new WalkCache(1);
  try {
    expect((await cache.get('k', [tree], () => recordedWalk('k', [tree], {}))).walk.entries.length).toBe(20);
    writeFileSync(path.join(tree, 'd0', 'new.ts'), 'const y = 1;\n');
    await new Promise((r) => setTimeout(r, 200)); // the watcher's event
    const stop = new AbortController();
    stop.abort();
    await expect(cache.get('k', [tree], () => recordedWalk('k', [tree], {}, stop.signal))).rejects.toThrow();
    const next = await cache.get('k', [tree], () => recordedWalk('k', [tree], {}));
    expect([next.cached, next.walk.entries.length]).toEqual([false, 21]);
  } finally { cache.close(); }
});
