// A prose sweep's walk handed to another thread (rank/prose-sweep.ts walkAhead): here the other thread's
// side (walkHanded) runs on this one, at the moment each case picks. Walked there, the bests a search
// takes are those it walks itself, bit for bit; not begun, it is taken back and walked here (the other
// side then walks nothing); failed, or still under way past the wait, it is walked here too.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan } from '../../../src/rank/plan.js';
import { ProseLinesBuilder, releaseProseLines, sweepProseLines } from '../../../src/rank/prose-lines.js';
import { forgetSweptBests, prepareSweep, setHandedWaitMs, sweepWalksHanded, sweptLexical, walkAhead } from '../../../src/rank/prose-sweep.js';
import { ABANDONED, DONE, FAILED, HANDED, TAKEN_BACK, WALKING, walkHanded, walkLists, type HandedWalk } from '../../../src/rank/prose-sweep-walk.js';
import type { PackedProseLines } from '../../../src/rank/prose-lines-build.js';

const lexicon = parseLexicon('#docs\t1000\ncastle\t10\nthe\t900\nindex\t100\n');
const root = fileURLToPath(new URL('../../../', import.meta.url));
const texts = [
  ...['workspace.md', 'models.md', 'agents.md'].map((f) => readFileSync(path.join(root, 'docs', f), 'utf8')),
  'castle\ncastle king\n\n\nking',
  'Run parseConfig on 2025 and 25px, then retry_failed uploads.\n\nUploadS of RETRIES\ncafé 25 uploads',
];
const queries = ['retry failed uploads', 'the index format version', 'castle king', 'which mode should I use to search a document',
  readFileSync(path.join(root, 'docs/workspace.md'), 'utf8').slice(2000, 2600)];

let docs: PackedProseLines[] = [];
beforeAll(async () => {
  docs = texts.map((text) => {
    const b = new ProseLinesBuilder();
    for (const line of text.split('\n')) b.add(line);
    return b.done() as PackedProseLines;
  });
  for (const t of docs) sweepProseLines(t);
  await prepareSweep();
});
afterAll(() => {
  setHandedWaitMs(3);
  for (const t of docs) releaseProseLines(t);
});

/** Every document's swept score for the plan, each plan walked again (no bests kept from before). */
function swept(plan: ReturnType<typeof buildRankPlan>): (number | undefined)[] {
  return docs.map((t) => sweptLexical(t, plan));
}

/** The walk walkAhead hands over for the plan (its bests forgotten first, so that it hands one). */
function handed(plan: ReturnType<typeof buildRankPlan>): HandedWalk {
  forgetSweptBests();
  let walk: HandedWalk | null = null;
  walkAhead(plan, (w) => { walk = w; });
  expect(walk).not.toBeNull();
  return walk!;
}

describe('a prose sweep\'s walk handed to another thread', () => {
  it('walked there: the search takes its bests, the same floats as its own walk, for every query', () => {
    for (const query of queries) {
      for (const mode of ['hybrid', 'lexical'] as const) {
        const plan = buildRankPlan(query, mode, lexicon);
        forgetSweptBests();
        const here = swept(plan);
        expect(here.some((x) => x! > 0), query).toBe(true);
        const w = handed(plan);
        const before = sweepWalksHanded();
        walkHanded(w);
        expect(Atomics.load(w.state, 0)).toBe(DONE);
        expect(swept(plan), `${query.slice(0, 30)} / ${mode}`).toEqual(here);
        expect(sweepWalksHanded().walkedThere).toBe(before.walkedThere + 1);
        // Handed once per plan and sweep: known bests are not handed again.
        let again = false;
        walkAhead(plan, () => { again = true; });
        expect(again).toBe(false);
      }
    }
  });

  it('not begun: the search takes it back and walks it itself; the other thread then walks nothing', () => {
    const plan = buildRankPlan('castle king', 'lexical', lexicon);
    forgetSweptBests();
    const here = swept(plan);
    const w = handed(plan);
    const before = sweepWalksHanded();
    expect(swept(plan)).toEqual(here);
    expect(Atomics.load(w.state, 0)).toBe(TAKEN_BACK);
    expect(sweepWalksHanded().takenBack).toBe(before.takenBack + 1);
    walkHanded(w);
    expect(Atomics.load(w.state, 0)).toBe(TAKEN_BACK);
    expect(w.best.every((x) => x === 0)).toBe(true);
  });

  it('failed there, or still under way past the wait (a thread that lost its core or stopped): the search walks it itself', () => {
    const plan = buildRankPlan('retry failed uploads', 'hybrid', lexicon);
    forgetSweptBests();
    const here = swept(plan);
    for (const state of [FAILED, WALKING]) {
      const w = handed(plan);
      Atomics.store(w.state, 0, state);
      setHandedWaitMs(20);
      const before = sweepWalksHanded();
      const t0 = performance.now();
      expect(swept(plan)).toEqual(here);
      if (state === WALKING) expect(performance.now() - t0).toBeGreaterThanOrEqual(15);
      const after = sweepWalksHanded();
      // Counted as what it was: failed there, or given up on (and told so: the other thread stops at its next block).
      expect([after.failed - before.failed, after.gaveUp - before.gaveUp]).toEqual(state === FAILED ? [1, 0] : [0, 1]);
      expect(after.waited - before.waited).toBe(state === WALKING ? 1 : 0);
      expect(Atomics.load(w.state, 0)).toBe(state === WALKING ? ABANDONED : FAILED);
    }
    expect(HANDED).toBe(0);
  });

  it('given up on (ABANDONED) mid-walk: the other thread stops at its next block and writes nothing more; a walk begun after walks on', () => {
    const plan = buildRankPlan('retry failed uploads', 'hybrid', lexicon);
    const w = handed(plan);
    Atomics.store(w.state, 0, ABANDONED);
    expect(walkLists(w, w.best, w.state)).toBeNull();
    expect(w.best.every((x) => x === 0)).toBe(true);
    walkHanded(w);
    expect(Atomics.load(w.state, 0)).toBe(ABANDONED);
    forgetSweptBests();
    const here = swept(plan);
    const again = handed(plan);
    walkHanded(again);
    expect(Atomics.load(again.state, 0)).toBe(DONE);
    expect(swept(plan)).toEqual(here);
  });

  it('a walk that throws partway there leaves its scratch zero: the next walk there gives the same floats', () => {
    const plan = buildRankPlan('retry failed uploads', 'hybrid', lexicon);
    forgetSweptBests();
    const here = swept(plan);
    const w = handed(plan);
    // Throws once the block's lines' sums are added (the documents' norms are read after).
    w.lists = { ...w.lists, none: new Proxy(w.lists.none, { get: (t, k) => (typeof k === 'string' && /^\d+$/.test(k) ? (() => { throw new Error('partway'); })() : Reflect.get(t, k)) }) };
    expect(() => walkHanded(w)).toThrow('partway');
    expect(Atomics.load(w.state, 0)).toBe(FAILED);
    const again = handed(plan);
    walkHanded(again);
    expect(Atomics.load(again.state, 0)).toBe(DONE);
    expect(swept(plan)).toEqual(here);
  });
});
