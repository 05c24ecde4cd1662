// The candidate pass's two heaps (threshold.ts): the threshold it passes chunks over against (`limitOf`)
// and the term chunks' seeds (`leastOf`). Each is offered ~20,000 values a find_related call from the
// pass's loop, so (branch warm36) each is of one class whose `offer` is one function for every query: a
// closure made per query was a new call target each query, which V8 compiled for the first and dropped at
// the next ("wrong call target"), and passed its doubles boxed where the loop did not inline it. And a
// full heap passes over a value past its top with one comparison: the values it gives are a sort's.
import { describe, expect, it } from 'vitest';
import { bundledLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan } from '../../../src/rank/plan.js';
import type { CandidateQuery } from '../../../src/workspace/search/candidate-query.js';
import { leastOf, limitOf } from '../../../src/workspace/search/threshold.js';
import { mulberry32 } from '../../helpers/seeded.js';

const lexicon = bundledLexicon();
const query = (heapSize: number, maxDistance?: number, mode: 'hybrid' | 'lexical' = 'hybrid'): CandidateQuery =>
  ({ plan: buildRankPlan('where is the request handler registered', mode, lexicon), query: new Float32Array(4), display: [], heapSize, maxDistance });

/** Seeded values: mostly in (0, 1), some at 1 and past it, some equal, some Infinity and NaN. */
function values(seed: number, n: number): number[] {
  const rnd = mulberry32(seed);
  return Array.from({ length: n }, () => {
    const r = rnd();
    return r < 0.03 ? 1 : r < 0.05 ? 1.5 : r < 0.06 ? Infinity : r < 0.065 ? NaN : r < 0.2 ? Math.round(rnd() * 20) / 20 : rnd();
  });
}

/** x put in its place in the ascending list xs (a sort's order, as each value comes). */
function insert(xs: number[], x: number): void {
  let i = xs.length;
  while (i > 0 && xs[i - 1] > x) i--;
  xs.splice(i, 0, x);
}

describe('the candidate pass heaps', () => {
  it('offer through one function for every query: the threshold of each kind and the seeds', () => {
    const limits = [limitOf(query(10)), limitOf(query(70, undefined, 'lexical')), limitOf(query(Infinity, 0.4)), limitOf(query(Infinity)), limitOf(query(3))];
    for (const l of limits) expect(l.offer).toBe(limits[0].offer);
    const seeds = [leastOf(10), leastOf(70), leastOf(0)];
    for (const s of seeds) expect(s.offer).toBe(seeds[0].offer);
  });

  it("give a sort's k-th least worst case (plus one margin) as the threshold, the values past the top passed over", () => {
    for (const [seed, k] of [[1, 1], [2, 5], [3, 70], [4, 200], [5, 11]] as const) {
      const lo = values(seed, 3000);
      const hi = lo.map((x, i) => (i % 3 === 0 ? x : x + 0.01 * (i % 7)));
      const l = limitOf(query(k));
      const taken: number[] = [];
      let margin: number | null = null;
      for (let i = 0; i < lo.length; i++) {
        l.offer(lo[i], hi[i]);
        if (lo[i] < 1) insert(taken, hi[i]);
        if (taken.length <= k) { expect(l.value).toBe(Infinity); continue; }
        const want = taken[k - 1];
        margin ??= l.value - want;
        // The same margin on the k-th least every time (the floats of want + margin may round otherwise).
        expect(l.value - want).toBeCloseTo(margin, 12);
      }
      expect(margin).toBeGreaterThan(0);
      expect(margin).toBeLessThan(1e-3);
    }
  });

  it('give the least worst case or --max-distance, if larger, with --max-distance alone; Infinity with neither', () => {
    const l = limitOf(query(Infinity, 0.3));
    const none = limitOf(query(Infinity));
    const lo = values(7, 500);
    let least = Infinity;
    for (const x of lo) {
      l.offer(x, x + 0.05);
      none.offer(x, x + 0.05);
      if (x < 1 && x + 0.05 < least) least = x + 0.05;
      if (least === Infinity) expect(l.value).toBe(Infinity);
      else expect(l.value - Math.max(0.3, least)).toBeLessThan(1e-3);
      expect(none.value).toBe(Infinity);
    }
  });

  it("give a sort's k-th least offered as the seeds' largest, Infinity before any", () => {
    for (const [seed, k] of [[11, 1], [12, 5], [13, 70], [14, 3000]] as const) {
      const xs = values(seed, 2000).filter((x) => !Number.isNaN(x));
      const s = leastOf(k);
      expect(s.largest()).toBe(Infinity);
      const seen: number[] = [];
      for (const x of xs) {
        s.offer(x);
        insert(seen, x);
        expect(s.largest()).toBe(seen[Math.min(k, seen.length) - 1]);
      }
    }
  });
});
