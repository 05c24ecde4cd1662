// A resident workspace's index build hands each code chunk's exact sum to its scorer as it embeds it
// (src/workspace/search/warm-chunks.ts builtSums, issue 30): the searches right after the index turns
// fresh score their candidates from them, and the background warm-up pools none of them again. An index
// built by another process is warmed instead, to the same sums. The warmed sums of a file that changes
// are dropped once the next snapshot is warmed, so the store holds the index's chunks, not every state.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { KeptChunks } from '../../../src/embed/kept-chunks.js';
import { createSearcher } from '../../../src/searcher.js';
import { type Searcher, type SearchOptions } from '../../../src/searcher/api.js';
import { executorOf } from '../../../src/searcher/seams.js';
import { chunksWarmed } from '../../../src/workspace/search/warm-chunks.js';
import { createWorkspace, type Workspace } from '../../../src/workspace/workspace.js';
import { makeTree } from '../../helpers/tree.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const SOURCES = ['src/rank/topk.ts', 'src/embed/static.ts', 'src/workspace/search/candidates.ts', 'src/embed/kept-scoring.ts', 'docs/agents.md'];
const QUERIES = ['bounded top-k heap', 'how are token rows pooled into a vector', 'zebra migration across the savanna', 'quickSelect'];

let tree: Awaited<ReturnType<typeof makeTree>>;
const built = createSearcher({ concurrency: 0 });
const opened = createSearcher({ concurrency: 0 });
const scan = createSearcher({ concurrency: 0 });
const workspaces: Workspace[] = [];

const resident = (searcher: Searcher): Workspace => {
  const ws = createWorkspace({ dir: path.join(tree.dir, '.ws'), resident: true, searcher });
  workspaces.push(ws);
  return ws;
};
const storeOf = async (searcher: Searcher): Promise<KeptChunks> => (await executorOf(searcher, false)).keptChunks!()!;

beforeAll(async () => {
  tree = await makeTree(Object.fromEntries(SOURCES.map((f) => [f, readFileSync(path.join(repo, f), 'utf8')])));
});
afterAll(async () => {
  for (const ws of workspaces) await ws.close();
  await Promise.all([built.close(), opened.close(), scan.close()]);
  await tree?.cleanup();
});

const exact = async (ws: Workspace, o: Omit<SearchOptions, 'paths'>) => {
  const opts = { ...o, paths: [tree.dir] };
  const [indexed, scanned] = [await ws.search(opts), await scan.search(opts)];
  expect(indexed.stats.index?.workspace).toBeDefined();
  expect(indexed.results).toEqual(scanned.results);
};

it('the build hands every code chunk\'s sum over, the same an index built elsewhere is warmed to', async () => {
  const ws = resident(built);
  await ws.index([tree.dir]);
  const handed = (await storeOf(built)).warmedChunks;
  // The warm-up after publish finds every code chunk's sum kept: it pools none.
  expect(await chunksWarmed(built)).toBe(0);
  expect(handed).toBeGreaterThan(10);
  expect((await storeOf(built)).warmedChunks).toBe(handed);
  // Another resident process opens the index it did not build: its warm-up pools them all.
  const other = resident(opened);
  await other.search({ query: 'warm up', paths: [tree.dir], mode: 'lexical' });
  expect(await chunksWarmed(opened)).toBe(handed);
  expect((await storeOf(opened)).warmedChunks).toBe(handed);
  for (const query of QUERIES) {
    for (const w of [ws, other]) {
      await exact(w, { query, topK: 5 });
      await exact(w, { query, mode: 'semantic', topK: 8, nLines: 0 });
    }
  }
});

it('a file changed again and again: its old sums are dropped, answers stay exact', async () => {
  const ws = workspaces[0];
  const store = await storeOf(built);
  const chunks = store.warmedChunks;
  const file = path.join(tree.dir, 'src/embed/static.ts');
  const text = readFileSync(file, 'utf8');
  for (let round = 1; round <= 4; round++) {
    // The same lines (so the same chunks), other words: another size and hash, so another state.
    writeFileSync(file, text.replace(/rows/g, `cats${round}`).replace(/pooled/g, `petted${round}`));
    await ws.index([tree.dir]);
    await chunksWarmed(built);
    expect(store.warmedChunks).toBe(chunks);
    await exact(ws, { query: `how are token cats${round} petted${round} into a vector`, topK: 5 });
    await exact(ws, { query: 'how are token rows pooled into a vector', mode: 'semantic', topK: 8, nLines: 0 });
  }
});
