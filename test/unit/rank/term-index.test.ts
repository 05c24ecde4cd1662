// A long query's part probes are looked for in each identifier run with one regular expression
// (rank/term-index.ts anyOf; issue 30: ~20 includes per run of every prose document read): it must
// say what some(includes) says, for any needles, regular-expression characters and other scripts included.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyOf } from '../../../src/rank/term-index.js';

const unit = fc.constantFrom('a', 'b', '_', '1', '.', '*', '\\', '[', ']', '(', '|', '^', '$', '-', '/', '?', '+', '{', 'é', '城', '\uD83D', '\uDE00');
const text = fc.string({ unit, maxLength: 12 });

describe('anyOf', () => {
  it('says whether a text holds one of the needles, as some(includes) does', () => {
    fc.assert(fc.property(fc.array(fc.string({ unit, minLength: 1, maxLength: 4 }), { maxLength: 8 }), fc.array(text, { maxLength: 20 }), (needles, texts) => {
      const holds = anyOf(needles);
      for (const t of texts) expect(holds(t), `${JSON.stringify(needles)} in ${JSON.stringify(t)}`).toBe(needles.some((n) => t.includes(n)));
    }), { numRuns: 500 });
    expect(anyOf([])('abc')).toBe(false);
    expect(anyOf(['', 'x'])('abc')).toBe(true);
    expect(anyOf(['a.c'])('abc')).toBe(false);
  });
});
