// A resident process's index run returns with the prose documents it read counted and swept (issue 30):
// counted in slices between the build's own turns of the event loop, the MCP harness's 1,387 documents
// were counted 4-13 s after its build published (load 6), and every warm search meanwhile read or bounded
// them one by one. The run finishes the count under way, and the sweep's making, at its publish.
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSearcher } from '../../../src/searcher.js';
import { sweepHeld } from '../../../src/rank/prose-sweep.js';
import { indexRun } from '../../../src/workspace/index-run.js';
import { openWorkspace, type OpenWorkspace } from '../../../src/workspace/open.js';
import { keptLinesCounted } from '../../../src/workspace/search/kept-documents.js';
import { makeTree } from '../../helpers/tree.js';

const WORDS = ['garden', 'tomato', 'soil', 'water', 'sunlight', 'compost', 'seed', 'harvest', 'weed', 'mulch', 'orchard', 'pruning'];
/** Enough documents that their count takes many slices (time-slice.ts). */
const DOCS = 1500;

let tree: Awaited<ReturnType<typeof makeTree>>;
const searcher = createSearcher({ concurrency: 0 });
let ws: OpenWorkspace;

beforeAll(async () => {
  tree = await makeTree(Object.fromEntries(Array.from({ length: DOCS }, (_, n) => [`docs/d${n % 30}/note-${n}.md`,
    Array.from({ length: 40 }, (_, i) => `The ${WORDS[(n + i) % 12]} needs ${WORDS[(n * 3 + i) % 12]} and ${WORDS[(n * 7 + 2 * i) % 12]} in spring ${n} line ${i}.`).join('\n')])));
});
afterAll(async () => {
  await ws?.close();
  await searcher.close();
  await tree?.cleanup();
});

it('a resident workspace\'s index run returns with the prose documents it read counted and swept, no turn of the event loop asked', async () => {
  ws = openWorkspace({ dir: path.join(tree.dir, '.ws'), resident: true, searcher });
  const before = sweepHeld().made;
  await indexRun(ws, [tree.dir]);
  expect(sweepHeld().documents).toBe(DOCS);
  await keptLinesCounted();
  expect(sweepHeld().documents).toBe(DOCS);
  // Made once, at the publish (kept-documents.test.ts: not each time the count catches up with the build).
  expect(sweepHeld().made - before).toBe(1);
}, 120_000);
