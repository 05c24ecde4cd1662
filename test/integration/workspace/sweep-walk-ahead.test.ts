// A resident search hands its prose sweep's walk to an idle worker of the pool (rank/prose-sweep.ts
// walkAhead, workspace/search-run.ts): the worker's walk gives the floats this thread's walk gives, a
// search's whole answer is the one it gives with the walk on its own thread, for many queries, and with
// no pool alive nothing is handed (the search walks it itself, the same answer).
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearcher } from '../../../src/searcher.js';
import { type SearchOptions, type SearchResponse } from '../../../src/searcher/api.js';
import { executorOf, releaseWorkersOf, workersStarted } from '../../../src/searcher/seams.js';
import { bundledLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan } from '../../../src/rank/plan.js';
import { forgetSweptBests, prepareSweep, setHandedWaitMs, setSweepLimitBytes, sweepHeld, sweepWalksHanded, walkAhead } from '../../../src/rank/prose-sweep.js';
import { BLOCK_LINES, SWEEP_BYTES } from '../../../src/rank/prose-sweep-bound.js';
import { ABANDONED, DONE, HANDED, setSweepBlockLines, WALKING, walkHanded, type HandedWalk } from '../../../src/rank/prose-sweep-walk.js';
import { keptLinesCounted } from '../../../src/workspace/search/kept-documents.js';
import { setWalksAhead } from '../../../src/workspace/search-run.js';
import { createWorkspace, type Workspace } from '../../../src/workspace/workspace.js';
import { makeTree } from '../../helpers/tree.js';

const WORDS = ['garden', 'tomato', 'soil', 'water', 'sunlight', 'compost', 'seed', 'harvest', 'weed', 'mulch', 'orchard', 'pruning', 'blossom', 'meadow', 'upload', 'retry', 'lantern', 'zephyr'];
const doc = (n: number) => Array.from({ length: 20 + (n % 21) }, (_, i) =>
  `The ${WORDS[(n + i) % WORDS.length]} needs ${WORDS[(n * 3 + i) % WORDS.length]} and ${WORDS[(n * 7 + 2 * i) % WORDS.length]} in spring ${n}.${i % 5 === 0 ? ` Failed ${WORDS[(n + 5 * i) % WORDS.length]}s are retried.` : ''}`).join('\n');
const code = (n: number) => Array.from({ length: 30 + (n % 40) }, (_, i) =>
  `export function ${WORDS[(n + i) % WORDS.length]}${i}(${WORDS[(n * 5 + i) % WORDS.length]}: number) { return retry${WORDS[(n * 3 + i) % WORDS.length]}(${i}); }`).join('\n');
const FILES: Record<string, string> = {};
for (let n = 0; n < 40; n++) FILES[`docs/note-${String(n).padStart(2, '0')}.md`] = doc(n);
for (let n = 0; n < 30; n++) FILES[`src/part-${String(n).padStart(2, '0')}.ts`] = code(n);
FILES['docs/uploads.md'] = ['# Uploads', '', 'Failed uploads are retried three times.', 'Retry after a failed upload waits a second.'].join('\n');

/** Many queries: word pairs and sentences, in the modes that rank prose files line by line, with a few options. */
const QUERIES: Omit<SearchOptions, 'paths'>[] = [];
for (let i = 0; i < WORDS.length; i++) {
  QUERIES.push({ query: `${WORDS[i]} ${WORDS[(i * 7 + 3) % WORDS.length]}`, topK: 3 + (i % 8), mode: i % 3 === 0 ? 'lexical' : 'hybrid' });
}
QUERIES.push({ query: 'retry failed uploads', topK: 10 }, { query: 'how does the compost help the tomato garden in spring', topK: 5 },
  { query: 'pruning the orchard blossom', topK: 4, nLines: 4, merge: false }, { query: 'seed harvest', perFile: 1, topK: 6 });

let tree: { dir: string; cleanup: () => Promise<void> };
const searcher = createSearcher({ concurrency: 2 });
let ws: Workspace;

beforeAll(async () => {
  tree = await makeTree(FILES);
  ws = createWorkspace({ dir: path.join(tree.dir, '.ws'), concurrency: 2, resident: true, searcher });
  await ws.index([tree.dir]);
  await keptLinesCounted();
  // As the MCP engine: its pool started (warm()), idle between searches.
  await searcher.warm();
}, 120_000);
afterAll(async () => {
  setWalksAhead(true);
  setHandedWaitMs(3);
  await ws?.close();
  await searcher.close();
  await tree?.cleanup();
});

/** A search's whole answer but its timings. */
const whole = (r: SearchResponse) => JSON.stringify({ results: r.results, warnings: r.warnings, closestMiss: r.closestMiss, more: r.more });

/** Each query's answer with the walk handed (`ahead`) or walked on this thread, every plan walked again first. */
async function answers(ahead: boolean): Promise<string[]> {
  setWalksAhead(ahead);
  const out: string[] = [];
  for (const o of QUERIES) {
    forgetSweptBests();
    const r = await ws.search({ ...o, paths: [tree.dir] });
    expect(r.stats.index?.workspace, o.query).toBeDefined();
    out.push(whole(r));
  }
  return out;
}

describe('the prose sweep\'s walk on an idle worker of the pool', () => {
  it('a worker\'s walk gives the floats this thread\'s walk gives, for every plan', async () => {
    expect(sweepHeld().documents).toBe(41);
    expect(workersStarted(searcher)).toBe(true);
    const pool = await executorOf(searcher, true);
    for (const o of QUERIES) {
      const plan = buildRankPlan(o.query, o.mode ?? 'hybrid', bundledLexicon());
      const handed = (): HandedWalk => {
        forgetSweptBests();
        let w: HandedWalk | null = null;
        walkAhead(plan, (x) => { w = x; });
        return w!;
      };
      const there = handed();
      await pool.walkSweep!(there);
      expect(Atomics.load(there.state, 0), o.query).toBe(DONE);
      const here = handed();
      walkHanded(here);
      expect(Array.from(there.best), o.query).toEqual(Array.from(here.best));
      expect(there.best.some((x) => x > 0), o.query).toBe(true);
    }
    forgetSweptBests();
  }, 60_000);

  it('a search that hands its walk answers as one that walks it itself, for many queries; every walk handed is taken (walked there or taken back), none failed', async () => {
    const own = await answers(false);
    // Waited for however long the worker takes (a loaded machine may take its core mid-walk): a walk counted failed then failed on the worker.
    setHandedWaitMs(60_000);
    const before = sweepWalksHanded();
    const handed = await answers(true);
    const after = sweepWalksHanded();
    expect(handed).toEqual(own);
    expect(after.handed - before.handed).toBe(QUERIES.length);
    expect(after.walkedThere - before.walkedThere + after.takenBack - before.takenBack).toBe(QUERIES.length);
    // Walked on the worker, not all taken back (a pool idle between searches begins them at once).
    expect(after.walkedThere - before.walkedThere).toBeGreaterThan(0);
    expect(after.failed).toBe(before.failed);
    setHandedWaitMs(3);
  }, 120_000);

  it('a search that waits for no walk under way gives up on it (the worker stops at its next block): the same answers, and the worker\'s next walks give the same floats', async () => {
    const own = await answers(false);
    setHandedWaitMs(0);
    const before = sweepWalksHanded();
    expect(await answers(true)).toEqual(own);
    const after = sweepWalksHanded();
    setHandedWaitMs(3);
    expect(after.handed - before.handed).toBe(QUERIES.length);
    expect(after.walkedThere - before.walkedThere + after.takenBack - before.takenBack + after.gaveUp - before.gaveUp).toBe(QUERIES.length);
    expect(after.failed).toBe(before.failed);
    // Whatever walks were stopped midway, the worker's scratch is zero for the next.
    const pool = await executorOf(searcher, true);
    for (const o of QUERIES) {
      const plan = buildRankPlan(o.query, o.mode ?? 'hybrid', bundledLexicon());
      forgetSweptBests();
      let there: HandedWalk | null = null;
      walkAhead(plan, (x) => { there = x; });
      await pool.walkSweep!(there!);
      expect(Atomics.load(there!.state, 0), o.query).toBe(DONE);
      forgetSweptBests();
      let here: HandedWalk | null = null;
      walkAhead(plan, (x) => { here = x; });
      walkHanded(here!);
      expect(Array.from(there!.best), o.query).toEqual(Array.from(here!.best));
    }
    forgetSweptBests();
  }, 120_000);

  it('a walk given up on mid-walk on the worker stops there (its bests short of a whole walk), and the worker\'s next walk gives the same floats', async () => {
    // Blocks of 1 line (the sweep made again under another bound takes them): ~1,200 blocks a walk, a state check before each.
    setSweepBlockLines(1);
    setSweepLimitBytes(SWEEP_BYTES - 8);
    await prepareSweep();
    const pool = await executorOf(searcher, true);
    // A pasted paragraph (as find_related's): many words' and grams' lists a block, so a walk takes a while.
    const plan = buildRankPlan(doc(3).slice(0, 800), 'hybrid', bundledLexicon());
    const walk = (): HandedWalk => {
      forgetSweptBests();
      let w: HandedWalk | null = null;
      walkAhead(plan, (x) => { w = x; });
      return w!;
    };
    const whole = walk();
    walkHanded(whole);
    const slots = whole.best.filter((x) => x > 0).length;
    let stopped = 0;
    for (let i = 0; i < 100 && stopped < 3; i++) {
      const w = walk();
      const done = pool.walkSweep!(w);
      // Given up on as soon as the worker has begun it (spun for here: piscina posts the task at once).
      const t0 = performance.now();
      while (Atomics.load(w.state, 0) === HANDED && performance.now() - t0 < 500);
      const caught = Atomics.compareExchange(w.state, 0, WALKING, ABANDONED) === WALKING;
      await done;
      if (!caught) continue;
      expect(Atomics.load(w.state, 0)).toBe(ABANDONED);
      if (w.best.filter((x) => x > 0).length < slots) stopped++;
    }
    expect(stopped).toBeGreaterThan(0);
    const there = walk();
    await pool.walkSweep!(there);
    expect(Atomics.load(there.state, 0)).toBe(DONE);
    expect(Array.from(there.best)).toEqual(Array.from(whole.best));
    forgetSweptBests();
    setSweepBlockLines(BLOCK_LINES);
    setSweepLimitBytes(SWEEP_BYTES);
    await prepareSweep();
  }, 60_000);

  it('with no pool alive nothing is handed: the search walks it itself, the same answers', async () => {
    const own = await answers(false);
    await releaseWorkersOf(searcher);
    expect(workersStarted(searcher)).toBe(false);
    const before = sweepWalksHanded();
    expect(await answers(true)).toEqual(own);
    expect(sweepWalksHanded().handed).toBe(before.handed);
  }, 120_000);
});
