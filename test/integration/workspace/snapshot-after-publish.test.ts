// A search reads the index's meta before its walk and hands it to loadSnapshot after it (warm39): when an
// index run published in between, the snapshot of that older version was rebuilt from the store (seconds on a
// big index) and written over the newer snapshot file. The meta passed serves only the snapshot in memory.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSearcher } from '../../../src/searcher.js';
import { indexRun } from '../../../src/workspace/index-run.js';
import { openWorkspace, type OpenWorkspace } from '../../../src/workspace/open.js';
import { makeTree } from '../../helpers/tree.js';

let tree: Awaited<ReturnType<typeof makeTree>>;
const searcher = createSearcher({ concurrency: 0 });
let reader: OpenWorkspace;
let writer: OpenWorkspace;

beforeAll(async () => {
  tree = await makeTree({ 'a.ts': 'export function retryUpload() { return send(); }\n', 'b.md': 'The upload is retried after a timeout.\n' });
});
afterAll(async () => {
  await reader?.close();
  await writer?.close();
  await searcher.close();
  await tree?.cleanup();
});

it('a meta read before another process published: the published snapshot is loaded, not the older one rebuilt', async () => {
  const dir = path.join(tree.dir, '.ws');
  writer = openWorkspace({ dir, searcher });
  await indexRun(writer, [tree.dir]);
  reader = openWorkspace({ dir, searcher });
  const before = await reader.compatible(await searcher.model());
  expect(before.ok).toBe(true);
  // Another run publishes a newer version while the reader's search walks.
  writeFileSync(path.join(tree.dir, 'c.ts'), 'export function parseConfig() { return json; }\n');
  await indexRun(writer, [tree.dir]);
  const published = (await reader.meta())!.complete;
  expect(published).not.toBe(before.m!.complete);
  const snap = await reader.loadSnapshot(before.m);
  expect(snap.version).toBe(published);
  expect(snap.files.map((f) => path.basename(f.key)).sort()).toEqual(['a.ts', 'b.md', 'c.ts']);
}, 120_000);
