// A long query's path terms (issue 30): with many terms, the candidate pass finds the terms whose probe
// a path holds by the substrings of the path's parts, not by trying each term on each path; the terms
// found must be the ones the one-by-one test finds (a term missed here is a chunk's bound too low).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RankPlan } from '../../../src/rank/plan.js';
import { pathProbes } from '../../../src/workspace/search/candidates.js';

const key = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '_', '1', 'é'), minLength: 1, maxLength: 6 });
const path = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '_', '1', 'é', '/', '.', '-', ' '), maxLength: 30 });

describe('pathProbes', () => {
  it('finds, for many terms, exactly the terms whose probe the path holds', () => {
    fc.assert(fc.property(fc.uniqueArray(fc.record({ key, whole: fc.boolean() }), { minLength: 33, maxLength: 80, selector: (t) => `${t.whole}:${t.key}` }), fc.array(path, { maxLength: 8 }), (terms, paths) => {
      const plan = { terms: terms.map((t) => ({ ...t, idf: 1 })) } as unknown as RankPlan;
      const probe = (t: { key: string; whole: boolean }) => (t.whole || t.key.length < 4 ? t.key : t.key.slice(0, -1));
      const find = pathProbes(plan);
      for (const p of paths) {
        const lower = p.toLowerCase();
        expect(find(lower, false)).toEqual(terms.flatMap((t, i) => (lower.includes(probe(t)) ? [i] : [])));
        expect(find(lower, true)).toEqual(terms.map((_, i) => i));
      }
    }), { numRuns: 200 });
  });
});
