// A search of a workspace whose first build is under way in this process waits for the build (its lock),
// as before engine40: only an index a run completed answers beside a run (reading what changed for its own
// answer). A first build's files are all unsaved: read beside the build, they doubled its work and memory
// (review of engine40: one search re-read all 1,200 files of a first build in memory).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createWorkspace } from '../../../src/workspace/workspace.js';
import { writeTinyModel } from '../../helpers/tiny-model.js';

let tmp = '';
let tree = '';
let modelDir = '';

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-beside-first-'));
  tree = path.join(tmp, 'tree');
  mkdirSync(tree, { recursive: true });
  for (let f = 0; f < 40; f++) {
    writeFileSync(path.join(tree, `f${f}.ts`), Array.from({ length: 2_000 }, (_, i) => `function f${f}_${i}() { return retryUpload(${i}); }`).join('\n'));
  }
  modelDir = await writeTinyModel(path.join(tmp, 'model'));
});
afterAll(() => {
  delete process.env.SIMGREP_FAILPOINT;
  rmSync(tmp, { recursive: true, force: true });
});

it('a search during a first build waits for it, reading no file beside it', async () => {
  const ws = createWorkspace({ dir: path.join(tmp, 'ws'), model: modelDir, concurrency: 0, resident: true });
  const abort = new AbortController();
  // The build (80,000 lines: two commits of 65,536 lines at most) stops after its first, holding the lock, until aborted.
  process.env.SIMGREP_FAILPOINT = 'pause-after-commit:1';
  const build = ws.index([tree], { signal: abort.signal }).catch((e: unknown) => e);
  await new Promise((r) => setTimeout(r, 1500));
  let settled = false;
  const search = ws.search({ query: 'retry the upload', paths: [tree], topK: 3 }).finally(() => { settled = true; });
  await new Promise((r) => setTimeout(r, 1500));
  const early = settled ? await search.then((x) => JSON.stringify({ n: x.results.length, stats: x.stats, w: x.warnings }), (e) => String(e)) : '';
  expect(settled, early).toBe(false);
  delete process.env.SIMGREP_FAILPOINT;
  abort.abort();
  expect(await build).toBeInstanceOf(Error);
  const r = await search;
  expect(r.results.length).toBe(3);
  await ws.close();
}, 60_000);
