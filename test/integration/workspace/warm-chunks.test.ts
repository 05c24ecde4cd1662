// A resident workspace warms every code chunk's exact sum in the background (src/workspace/search/
// warm-chunks.ts, issue 30), under the index's state of each file. Answers from warmed chunks are the
// scan's, bit for bit; a file edited after the warm-up (same size: only its mtime and hash tell) is
// scored from its new lines, never from what was warmed.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSearcher } from '../../../src/searcher.js';
import { type SearchOptions } from '../../../src/searcher/api.js';
import { chunksWarmed } from '../../../src/workspace/search/warm-chunks.js';
import { createWorkspace, type Workspace } from '../../../src/workspace/workspace.js';
import { makeTree } from '../../helpers/tree.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const SOURCES = ['src/rank/topk.ts', 'src/embed/static.ts', 'src/workspace/search/candidates.ts', 'src/embed/kept-scoring.ts'];
const QUERIES = ['bounded top-k heap', 'how are token rows pooled into a vector', 'zebra migration across the savanna', 'quickSelect'];

let tree: Awaited<ReturnType<typeof makeTree>>;
let ws: Workspace;
const searcher = createSearcher({ concurrency: 0 });
const scan = createSearcher({ concurrency: 0 });

beforeAll(async () => {
  tree = await makeTree(Object.fromEntries(SOURCES.map((f) => [f, readFileSync(path.join(repo, f), 'utf8')])));
  ws = createWorkspace({ dir: path.join(tree.dir, '.ws'), resident: true, searcher });
  await ws.index([tree.dir]);
  // Lexical: it scores no chunk's embedding, so every chunk a later search scores first comes from the warm-up.
  await ws.search({ query: 'warm up', paths: [tree.dir], mode: 'lexical' });
  await chunksWarmed(searcher);
});
afterAll(async () => {
  await ws?.close();
  await Promise.all([searcher.close(), scan.close()]);
  await tree?.cleanup();
});

const exact = async (o: Omit<SearchOptions, 'paths'>) => {
  const opts = { ...o, paths: [tree.dir] };
  const [indexed, scanned] = [await ws.search(opts), await scan.search(opts)];
  expect(indexed.stats.index?.workspace).toBeDefined();
  expect(indexed.results).toEqual(scanned.results);
  return indexed;
};

it('answers from warmed chunks as the scan does, distances bit for bit', async () => {
  for (const query of QUERIES) {
    await exact({ query, topK: 5 });
    await exact({ query, mode: 'semantic', topK: 8, nLines: 0 });
  }
});

it('a file edited after the warm-up is scored from its new lines', async () => {
  const file = path.join(tree.dir, 'src/embed/static.ts');
  const text = readFileSync(file, 'utf8');
  // The same size: rows become "cats", pooled "petted" (a whole different meaning, the same bytes' count).
  writeFileSync(file, text.replace(/rows/g, 'cats').replace(/pooled/g, 'petted'));
  const query = 'how are token rows pooled into a vector';
  let r = await ws.search({ query, paths: [tree.dir], topK: 5 });
  for (let i = 0; i < 30 && r.stats.index?.refreshed === 0 && !r.results.some((x) => x.lines.join('\n').includes('cats')); i++) {
    await new Promise((done) => setTimeout(done, 100));
    r = await ws.search({ query, paths: [tree.dir], topK: 5 });
  }
  await exact({ query, topK: 5 });
  await exact({ query: 'petted cats', topK: 5 });
});
