// An index run publishes its snapshot in memory only once workspace.json says its version (review of
// engine40): set before, a search in between read the older version there, found the snapshot in memory
// newer, and loaded the older one again (from the snapshot file the run had just replaced: rebuilt from the
// store, seconds on a big index), leaving the older one in memory after the run. The window is widened
// here by holding the meta's write.
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { indexRun } from '../../../src/workspace/index-run.js';
import { openWorkspace } from '../../../src/workspace/open.js';
import { searchWorkspace } from '../../../src/workspace/search-run.js';
import { writeTinyModel } from '../../helpers/tiny-model.js';

let tmp = '';
let tree = '';
let modelDir = '';

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-publish-window-'));
  tree = path.join(tmp, 'tree');
  mkdirSync(tree, { recursive: true });
  for (let f = 0; f < 30; f++) writeFileSync(path.join(tree, `f${f}.ts`), Array.from({ length: 40 }, (_, i) => `export const v${f}_${i} = retryUpload(${i}); // step ${i}`).join('\n') + '\n');
  modelDir = await writeTinyModel(path.join(tmp, 'model'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

it('a search while the run writes workspace.json answers from the published version and leaves the new one in memory after', async () => {
  const dir = path.join(tmp, 'ws');
  const ws = openWorkspace({ dir, model: modelDir, resident: true, concurrency: 0 });
  await indexRun(ws, [tree]);
  const published = () => (JSON.parse(readFileSync(path.join(dir, 'workspace.json'), 'utf8')) as { meta: { complete: string } }).meta.complete;
  const first = published();
  expect(ws.snapshot?.version).toBe(first);
  // Hold the meta's write of the next run: the window between its snapshot and its publication.
  const store = await ws.store(true);
  const write = store.writeMeta.bind(store);
  let release!: () => void;
  let entered!: () => void;
  const inWindow = new Promise<void>((r) => { entered = r; });
  store.writeMeta = async (m) => {
    if (m.complete !== undefined) { entered(); await new Promise<void>((r) => { release = r; }); }
    return write(m);
  };
  appendFileSync(path.join(tree, 'f1.ts'), 'export const late = retryUpload(1);\n');
  const run = indexRun(ws, [tree]);
  await inWindow;
  const r = await searchWorkspace(ws, { query: 'retry the upload', paths: [tree], topK: 3 });
  expect(r.results.length).toBe(3);
  // The search used the version workspace.json names, and left it in memory as it was.
  expect(ws.snapshot?.version).toBe(first);
  release();
  await run;
  expect(published()).not.toBe(first);
  expect(ws.snapshot?.version).toBe(published());
  await ws.close();
}, 60_000);
