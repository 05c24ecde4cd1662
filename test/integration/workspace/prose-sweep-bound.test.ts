// The prose sweep's memory bound (rank/prose-sweep-bound.ts): a resident index whose kept documents' lists
// pass the bound sweeps only the oldest that fit and bounds the rest on their own; its answers are the
// unbounded index's and the scan's, and the bytes the sweep holds never pass the bound.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearcher } from '../../../src/searcher.js';
import { type SearchOptions, type SearchResponse } from '../../../src/searcher/api.js';
import { prepareSweep } from '../../../src/rank/prose-lines.js';
import { setSweepLimitBytes, sweepHeld } from '../../../src/rank/prose-sweep.js';
import { SWEEP_BYTES } from '../../../src/rank/prose-sweep-bound.js';
import { keptLinesCounted } from '../../../src/workspace/search/kept-documents.js';
import { createWorkspace, type Workspace } from '../../../src/workspace/workspace.js';
import { makeTree } from '../../helpers/tree.js';
import { rounded } from '../../helpers/rounded.js';

const WORDS = ['garden', 'tomato', 'soil', 'water', 'sunlight', 'compost', 'seed', 'harvest', 'weed', 'mulch', 'orchard', 'pruning', 'blossom', 'meadow', 'upload', 'retry', 'lantern', 'zephyr'];
/** A document of 20-40 lines over the words, each its own mix. */
const doc = (n: number) => Array.from({ length: 20 + (n % 21) }, (_, i) =>
  `The ${WORDS[(n + i) % WORDS.length]} needs ${WORDS[(n * 3 + i) % WORDS.length]} and ${WORDS[(n * 7 + 2 * i) % WORDS.length]} in spring ${n}.${i % 5 === 0 ? ` Failed ${WORDS[(n + 5 * i) % WORDS.length]}s are retried.` : ''}`).join('\n');
const FILES: Record<string, string> = {};
for (let n = 0; n < 40; n++) FILES[`docs/note-${String(n).padStart(2, '0')}.md`] = doc(n);
FILES['docs/uploads.md'] = ['# Uploads', '', 'Failed uploads are retried three times.', 'Retry after a failed upload waits a second.'].join('\n');

const QUERIES: Omit<SearchOptions, 'paths'>[] = [
  { query: 'retry failed uploads', topK: 3 },
  { query: 'zephyr lantern', topK: 5 },
  { query: 'compost the tomato garden in spring', topK: 10, mode: 'lexical' },
  { query: 'pruning the orchard blossom', topK: 4, nLines: 4, merge: false },
  { query: 'seed harvest', perFile: 1, topK: 6 },
];

let tree: { dir: string; cleanup: () => Promise<void> };
let ws: Workspace;
const scan = createSearcher({ concurrency: 0 });

beforeAll(async () => {
  tree = await makeTree(FILES);
  ws = createWorkspace({ dir: path.join(tree.dir, '.ws'), concurrency: 0, resident: true });
  await ws.index([tree.dir]);
  await keptLinesCounted();
});
afterAll(async () => {
  setSweepLimitBytes(SWEEP_BYTES);
  await ws?.close();
  await scan.close();
  await tree?.cleanup();
});

const shape = (r: SearchResponse) => JSON.stringify(rounded(r));

/** The index's answers to the queries, each checked against the scan's. */
async function answers(): Promise<string[]> {
  const out: string[] = [];
  for (const o of QUERIES) {
    const opts = { ...o, paths: [tree.dir] };
    const r = await ws.search(opts);
    expect(r.stats.index?.workspace).toBeDefined();
    expect(shape(r), o.query).toBe(shape(await scan.search(opts)));
    out.push(shape(r));
  }
  return out;
}

describe('the prose sweep\'s bound (SWEEP_BYTES)', () => {
  it('past the bound the oldest documents that fit are swept, the rest bounded on their own: the same answers as unbounded and as the scan; the bytes held never pass the bound', async () => {
    const all = sweepHeld();
    expect(all.documents).toBe(Object.keys(FILES).length);
    const unbounded = await answers();
    const limit = Math.floor(all.bytes / 2);
    setSweepLimitBytes(limit);
    try {
      await prepareSweep();
      const some = sweepHeld();
      expect(some.bytes).toBeLessThanOrEqual(limit);
      expect(some.documents).toBeGreaterThan(0);
      expect(some.documents).toBeLessThan(all.documents);
      expect(await answers()).toEqual(unbounded);
      // Documents change (dropped and counted again): the bound holds as the lists are made again.
      for (let n = 0; n < 12; n++) writeFileSync(path.join(tree.dir, `docs/note-${String(n).padStart(2, '0')}.md`), `${doc(n + 100)}\nThe zephyr lantern upload is retried (${n}).`);
      await ws.index([tree.dir]);
      await ws.search({ ...QUERIES[1], paths: [tree.dir] });
      await keptLinesCounted();
      expect(sweepHeld().bytes).toBeLessThanOrEqual(limit);
      expect(sweepHeld().documents).toBeGreaterThan(0);
      const changed = await answers();
      // Nothing fits: nothing held, every document bounded on its own, the same answers.
      setSweepLimitBytes(1);
      await prepareSweep();
      expect(sweepHeld()).toMatchObject({ bytes: 0, documents: 0 });
      expect(await answers()).toEqual(changed);
    } finally {
      setSweepLimitBytes(SWEEP_BYTES);
      for (let n = 0; n < 12; n++) writeFileSync(path.join(tree.dir, `docs/note-${String(n).padStart(2, '0')}.md`), doc(n));
    }
  });
});
