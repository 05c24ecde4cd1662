// A scan's Markdown files counted by their probed lines once the heap is full (pipeline.ts: ProseFile made
// `probed` where the top-k's floor may skip, and skipped on ProseFile.outOfReach before end(); branch
// first37): most lines of the files out of reach are never looked into for terms, and the answers are the
// index's (which counts every document's lines).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proseTermLines } from '../../../src/rank/prose-counter.js';
import { createSearcher } from '../../../src/searcher.js';
import { type SearchOptions } from '../../../src/searcher/api.js';
import { createWorkspace } from '../../../src/workspace/workspace.js';
import { indexedTree } from '../../helpers/indexed-tree.js';
import { rounded } from '../../helpers/rounded.js';

/** Strong documents, listed first: three lines of 60 hold the query's three words, so they fill the top-k's candidates. */
const strong = (n: number) => Array.from({ length: 60 }, (_, i) => i % 20 === 10 ? `Retry the failed uploads of batch ${n}.` : `The field of farm ${n} had a row of ${i} oaks by the road.`).join('\n');
/** Weak documents after them: 200 lines of plain ASCII prose, one of the query's words in one line only. */
const weak = (n: number) => Array.from({ length: 200 }, (_, i) => i === 100 ? `An upload was seen in note ${n}.` : `The garden of house ${n} had a row of ${i} trees by the wall.`).join('\n');

const STRONG = 6;
const WEAK = 30;
const LINES = STRONG * 60 + WEAK * 200;
const FILES: Record<string, string> = {};
for (let n = 0; n < STRONG; n++) FILES[`a-strong-${n}.md`] = strong(n);
for (let n = 0; n < WEAK; n++) FILES[`z-weak-${String(n).padStart(2, '0')}.md`] = weak(n);

let tree: { dir: string; cleanup: () => Promise<void> };
let dir = '';
const scan = createSearcher({ concurrency: 1 });

beforeAll(async () => {
  ({ tree, dir } = await indexedTree(FILES));
});
afterAll(async () => {
  await scan.close();
  await tree?.cleanup();
});

describe('a scan with a full heap counts its Markdown files by their probed lines', () => {
  it('looks into few of the weak files\' lines for terms, and answers as the index', async () => {
    for (const mode of ['lexical', 'hybrid'] as const) {
      const opts: SearchOptions = { query: 'retry failed uploads', mode, topK: 1, nLines: 1, paths: [tree.dir] };
      const at = proseTermLines();
      // Batches of a few lines: the strong files scored (the heap full) before the weak ones are read.
      const r = await scan.search({ ...opts, batchLines: 12 });
      const counted = proseTermLines() - at;
      // The files read while the heap was not yet full are counted whole (8 read at once), the others by
      // their probed lines: about one each. Counted whole, all of them: LINES (6,360).
      expect(counted, mode).toBeLessThan(LINES / 3);
      expect(r.results.every((x) => /a-strong-\d\.md$/.test(x.filename)), mode).toBe(true);
      const ws = createWorkspace({ dir, concurrency: 0, oneShot: true });
      try {
        const indexed = await ws.search(opts);
        expect(indexed.stats.index?.workspace).toBeDefined();
        expect({ mode, r: rounded(r) }).toEqual({ mode, r: rounded(indexed) });
      } finally {
        await ws.close();
      }
    }
  });
});
