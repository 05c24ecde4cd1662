// A scan while a resident build runs scores the chunks of the files the build pooled from their kept sums
// (src/pipeline/kept-files.ts), sent along with its batches. pooledSumsUsed counted the sums sent; a chunk
// the worker drops by its lexical bound before pooling never needs its sum. It now counts what the scorer
// used: all of them when nothing is pruned, fewer once the top-k's floor prunes.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSearcher } from '../../../src/searcher.js';
import { executorOf, pooledFilesOf, pooledSumsUsed } from '../../../src/searcher/seams.js';
import { updateIndex, type IndexReport } from '../../../src/workspace/build/indexer.js';
import { createWorkspace, type Workspace } from '../../../src/workspace/workspace.js';
import { makeTree } from '../../helpers/tree.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
/** The ranker's sources (25 files, 93 chunks): enough for the top-k's floor to prune. */
const SOURCES = readdirSync(path.join(repo, 'src/rank')).filter((f) => f.endsWith('.ts')).map((f) => `src/rank/${f}`);

let tree: Awaited<ReturnType<typeof makeTree>>;
const searcher = createSearcher({ concurrency: 0 });
let ws: Workspace;
let go!: () => void;
let build: Promise<unknown>;

beforeAll(async () => {
  tree = await makeTree(Object.fromEntries(SOURCES.map((f) => [f, readFileSync(path.join(repo, f), 'utf8')])));
  // The real local build, held before it publishes (through the cluster seam): its files stay registered.
  let updated!: () => void;
  const isUpdated = new Promise<void>((r) => { updated = r; });
  const held = new Promise<void>((r) => { go = r; });
  ws = createWorkspace({
    dir: path.join(tree.dir, '.ws'), resident: true, searcher,
    clusterIndex: async () => async (ctx): Promise<IndexReport> => { const r = await updateIndex(ctx); updated(); await held; return r; },
  });
  build = ws.index([tree.dir], { cluster: 'held' });
  await isUpdated;
});
afterAll(async () => {
  go?.();
  await build;
  await ws?.close();
  await searcher.close();
  await tree?.cleanup();
});

it('counts the kept sums the scorer used, not those sent', async () => {
  expect(pooledFilesOf(searcher).size).toBe(SOURCES.length);
  const kept = (await executorOf(searcher, false)).keptChunks!()!.warmedChunks;
  const usedBy = async (o: { topK?: number; batchLines?: number; maxDistance?: number }) => {
    const before = pooledSumsUsed(searcher);
    const r = await searcher.search({ query: 'the bounded top-k heap and its floor', paths: [tree.dir], ...o });
    expect(r.results.length).toBeGreaterThan(0);
    return pooledSumsUsed(searcher) - before;
  };
  // A top-k never full prunes nothing: every chunk kept is scored from its sum.
  expect(await usedBy({ topK: 1000 })).toBe(kept);
  // One chunk a batch, and a distance only chunks with the query's words reach: once a line is within it,
  // the chunks without them are dropped by their lexical bound, unpooled. (maxDistance alone: since score45 one
  // beside topK applies to the hits shown, after the file spreading, and bounds no line scored.)
  const pruned = await usedBy({ batchLines: 48, maxDistance: 0.7 });
  expect(pruned).toBeGreaterThan(0);
  expect(pruned).toBeLessThan(kept);
});
