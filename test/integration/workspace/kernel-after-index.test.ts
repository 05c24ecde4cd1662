// A resident process's index run makes the cosine kernel of the snapshot it publishes before it returns
// (issue 30): started by the first search instead, in the background, it left the first searches after a
// build (the MCP harness's warm searches right after `index: fresh`) reading each chunk's cosine from the
// float16 rows while its slices ran inside theirs. A process that does not live on makes none unasked.
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSearcher } from '../../../src/searcher.js';
import { indexRun } from '../../../src/workspace/index-run.js';
import { openWorkspace, type OpenWorkspace } from '../../../src/workspace/open.js';
import { cosineKernel, MIN_KERNEL_VALUES } from '../../../src/workspace/search/chunk-cosines.js';
import { makeTree } from '../../helpers/tree.js';

// One chunk a file: enough chunks of the bundled model's vectors for a kernel (MIN_KERNEL_VALUES values).
const FILES = 2100;

let tree: Awaited<ReturnType<typeof makeTree>>;
const searcher = createSearcher({ concurrency: 0 });
const opened: OpenWorkspace[] = [];

beforeAll(async () => {
  tree = await makeTree(Object.fromEntries(Array.from({ length: FILES }, (_, i) => [`d${i % 20}/f${i}.ts`, `export const retry${i} = upload(${i}); // attempt ${i}\n`])));
});
afterAll(async () => {
  for (const ws of opened) await ws.close();
  await searcher.close();
  await tree?.cleanup();
});

const indexed = async (resident: boolean, dir: string) => {
  const ws = openWorkspace({ dir: path.join(tree.dir, dir), resident, searcher });
  opened.push(ws);
  await indexRun(ws, [tree.dir]);
  const snap = ws.snapshot!;
  expect(snap.halves.length).toBeGreaterThanOrEqual(MIN_KERNEL_VALUES);
  return snap;
};

/** Turns of the event loop (1 ms timers) until the snapshot's kernel is made, asking for none; -1 when not made after `most`. */
async function turnsUntilMade(snap: { halves: Uint16Array; dim: number }, most: number): Promise<number> {
  for (let turns = 0; turns < most; turns++) {
    if (cosineKernel(snap.halves, snap.dim, false)) return turns;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return -1;
}

it('a resident workspace\'s index run returns with its snapshot\'s cosine kernel made, no search asked; a non-resident one\'s makes none', async () => {
  const oneOff = await indexed(false, '.ws-one-off');
  const resident = await indexed(true, '.ws-resident');
  expect(await turnsUntilMade(resident, 10_000)).toBe(0);
  // As many turns as the resident one's making took, and more: still none.
  expect(await turnsUntilMade(oneOff, 500)).toBe(-1);
}, 120_000);
