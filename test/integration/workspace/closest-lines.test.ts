// The closest line of a candidate chunk that holds no query term (embed/chunk-scoring.ts pickClosestLines):
// a resident search scores its first pass of chunks' lines exactly, without the floors' bound a scan runs
// (which pays for each token row's basis coordinates the first time a query meets it: a scan's many
// batches and a search's later passes pay it back, a warm search's one batch does not). The same lines
// either way: the scan's answer.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { chunkScoringWork } from '../../../src/embed/chunk-scoring.js';
import { createSearcher } from '../../../src/searcher.js';
import { type SearchOptions } from '../../../src/searcher/api.js';
import { chunksWarmed } from '../../../src/workspace/search/warm-chunks.js';
import { createWorkspace } from '../../../src/workspace/workspace.js';
import { makeTree } from '../../helpers/tree.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const SOURCES = ['src/rank/topk.ts', 'src/embed/static.ts', 'src/workspace/search/candidates.ts', 'src/embed/kept-scoring.ts', 'src/rank/diversify.ts', 'src/embed/chunk-scoring.ts', 'src/pipeline.ts', 'src/rank/chunk-scorer.ts',
  'src/embed/onnx.ts', 'src/embed/prose-scoring.ts', 'src/rank/prose.ts', 'src/rank/prose-lines.ts', 'src/rank/plan.ts', 'src/embed/line-cosines.ts', 'src/rank/prose-sweep.ts', 'src/rank/windows.ts',
  // A prose document: the search is then pruned (a source without candidate pieces), as on a real tree.
  'docs/architecture.md'];
// Words none of the sources holds: every candidate chunk is termless, and its shown line is its closest.
const QUERIES = ['castle moat drawbridge', 'sailor harbour lighthouse dusk'];

const scan = createSearcher({ concurrency: 0 });
const trees: Awaited<ReturnType<typeof makeTree>>[] = [];
afterAll(async () => {
  await scan.close();
  for (const t of trees) await t.cleanup();
});

it('a resident search picks termless chunks\' closest lines with no floor pass, and answers as the scan does', async () => {
  const tree = await makeTree(Object.fromEntries(SOURCES.map((f) => [f, readFileSync(path.join(repo, f), 'utf8')])));
  trees.push(tree);
  const dir = path.join(tree.dir, '.ws');
  const builder = createWorkspace({ dir, concurrency: 0 });
  await builder.index([tree.dir]);
  await builder.close();
  const searcher = createSearcher({ concurrency: 0 });
  const ws = createWorkspace({ dir, resident: true, searcher });
  try {
    await ws.search({ query: 'warm up', paths: [tree.dir], mode: 'lexical' });
    await chunksWarmed(searcher);
    for (const query of QUERIES) {
      for (const word of query.split(' ')) expect(SOURCES.some((f) => readFileSync(path.join(repo, f), 'utf8').toLowerCase().includes(word))).toBe(false);
      const o: SearchOptions = { query, paths: [tree.dir], topK: 100, nLines: 1 };
      let before = chunkScoringWork();
      const scanned = await scan.search(o);
      // The scan has enough termless lines for its floor pass (FLOOR_PASS_LINES): the case the resident search differs in.
      const scanPasses = chunkScoringWork().floorPasses - before.floorPasses;
      expect(scanPasses).toBeGreaterThan(0);
      before = chunkScoringWork();
      const indexed = await ws.search(o);
      const after = chunkScoringWork();
      expect(indexed.stats.index?.workspace).toBeDefined();
      // Its first closest-line pass is exact, its later ones (this top-k of 100 makes two) run the floors.
      expect([scanPasses, after.floorPasses - before.floorPasses]).toEqual([scanPasses, scanPasses - 1]);
      expect(indexed.results.length).toBeGreaterThan(20);
      expect(indexed.results).toEqual(scanned.results);
    }
  } finally {
    await ws.close();
    await searcher.close();
  }
}, 120_000);
