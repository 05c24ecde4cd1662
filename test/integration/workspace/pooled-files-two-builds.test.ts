// Two index builds of one resident searcher (two workspaces over the same files, as one engine serving two
// roots that overlap) register the same files for the scans meanwhile (src/pipeline/pooled-files.ts). One
// build's publish lets go of its own entries only: before, it deleted every entry of the same state, the
// other build's included, so the scans while that one still built lost the reuse of its sums.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSearcher } from '../../../src/searcher.js';
import { pooledFilesOf, pooledSumsUsed } from '../../../src/searcher/seams.js';
import { updateIndex, type IndexReport } from '../../../src/workspace/build/indexer.js';
import { createWorkspace, type Workspace } from '../../../src/workspace/workspace.js';
import { makeTree } from '../../helpers/tree.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const SOURCES = ['src/rank/topk.ts', 'src/embed/static.ts', 'src/workspace/search/candidates.ts', 'docs/agents.md'];

let tree: Awaited<ReturnType<typeof makeTree>>;
const searcher = createSearcher({ concurrency: 0 });
const workspaces: Workspace[] = [];

beforeAll(async () => {
  tree = await makeTree(Object.fromEntries(SOURCES.map((f) => [f, readFileSync(path.join(repo, f), 'utf8')])));
});
afterAll(async () => {
  for (const ws of workspaces) await ws.close();
  await searcher.close();
  await tree?.cleanup();
});

it('one build\'s publish leaves the entries of another build of the same searcher', async () => {
  // Build B runs the real local update, through the cluster seam only to hold it before it publishes.
  let updated!: () => void;
  const isUpdated = new Promise<void>((r) => { updated = r; });
  let go!: () => void;
  const held = new Promise<void>((r) => { go = r; });
  const b = createWorkspace({
    dir: path.join(tree.dir, '.ws-b'), resident: true, searcher,
    clusterIndex: async () => async (ctx): Promise<IndexReport> => { const r = await updateIndex(ctx); updated(); await held; return r; },
  });
  const a = createWorkspace({ dir: path.join(tree.dir, '.ws-a'), resident: true, searcher });
  workspaces.push(a, b);
  const pooled = pooledFilesOf(searcher);
  const buildB = b.index([tree.dir], { cluster: 'held' });
  await isUpdated;
  const registeredByB = [...pooled.keys()].sort();
  expect(registeredByB).toEqual(SOURCES.map((f) => path.join(tree.dir, f)).sort());

  // Build A of the same files runs start to end, and publishes.
  await a.index([tree.dir]);
  expect([...pooled.keys()].sort()).toEqual(registeredByB);
  // A scan while B still builds scores their chunks from the sums B kept.
  const used = pooledSumsUsed(searcher);
  await searcher.search({ query: 'bounded top-k heap', paths: [tree.dir] });
  expect(pooledSumsUsed(searcher)).toBeGreaterThan(used);

  go();
  await buildB;
  expect(pooled.size).toBe(0);
});
