// A long query's path words are counted from the names' side (issue 30: trying thousands of words
// against each file's names cost seconds per search); the count must be the word-by-word loop's.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RankPlan } from '../../../src/rank/plan.js';
import { pathWordHits } from '../../../src/rank/path-word-hits.js';

/** pathSignals' rule, word by word: the shorter of word and name, 3 characters at least, starts the longer. */
function reference(words: string[], names: string[]): number {
  let hits = 0;
  for (const word of words) {
    for (const name of names) {
      const short = word.length <= name.length ? word : name;
      if (short.length >= 3 && (word.length <= name.length ? name : word).startsWith(short)) { hits++; break; }
    }
  }
  return hits;
}

const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd'), minLength: 1, maxLength: 7 });
/** Names also start with what no word starts with (a tree's numbered names: `file-6935`'s 6935). */
const name = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd', 'e', '1'), minLength: 1, maxLength: 7 });

describe('pathWordHits', () => {
  it('counts what the word-by-word loop counts, for few and for many path words', () => {
    fc.assert(fc.property(fc.uniqueArray(word, { maxLength: 120 }), fc.array(name, { maxLength: 6 }), (words, names) => {
      const plan = { pathWords: words } as unknown as RankPlan;
      expect(pathWordHits(plan, names)).toBe(reference(words, names));
    }), { numRuns: 300 });
  });

  it('counts what the loop counts for path after path of one plan (what each name matches is kept per plan)', () => {
    fc.assert(fc.property(fc.uniqueArray(word, { minLength: 40, maxLength: 120 }), fc.array(fc.array(name, { maxLength: 6 }), { maxLength: 20 }), (words, paths) => {
      const plan = { pathWords: words } as unknown as RankPlan;
      for (const names of [...paths, ...paths]) expect(pathWordHits(plan, names)).toBe(reference(words, names));
    }), { numRuns: 100 });
  });
});
