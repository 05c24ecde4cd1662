// No query term is empty (mend37b): a lone presentation selector (U+FE0F, U+FE0E) after a separator is a word
// of marks alone (`x \ufe0f- y` is `x`, `\ufe0f`, `y`), which folds to '' (fold drops the selectors). Its key ''
// was a term, and counting it in an ASCII line (chunk-scorer.ts identStarts: `indexOf('', p + 0)`) never moved
// on: a list grew until the heap ran out (the CLI exited 134 on `x \ufe0f- y` over a file `const k0 = 1;`).
import { describe, expect, it } from 'vitest';
import { countTerms } from '../../../src/rank/chunk-scorer.js';
import { bundledLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan } from '../../../src/rank/plan.js';
import { lineTerms } from '../../../src/rank/prose.js';
import { queryTerms } from '../../../src/rank/query-terms.js';

/** What joins or marks another character, alone: none is a word by itself. */
const LONE_MARKS = [
  '\ufe0f', '\ufe0e', '\u200d', '\u0301', '\u{1f3fb}', '\u{1f3ff}', '\u20e3', '\u{e0100}', '\u{e01ef}', '\u{e0020}', '\u{e007f}',
];

/** Each mark alone and after a separator, between words and at a query's end (the reviewer's shapes, and more). */
const ODD_QUERIES = LONE_MARKS.flatMap((m) => [`x ${m}- y`, `-${m}`, m, `${m}${m}`, `retry ${m} handler`, `a.${m}.b`, `k0 ${m}`]);

describe('no empty query term', () => {
  it('the reviewer\'s queries: `x \\ufe0f- y` plans the terms of `x y`, `-\\ufe0f` none', () => {
    const lexicon = bundledLexicon();
    const keys = (q: string) => queryTerms(q, lexicon, 24).terms.map((t) => t.key);
    expect(keys('x \ufe0f- y')).toEqual(keys('x y'));
    expect(keys('-\ufe0f')).toEqual([]);
    expect(queryTerms('x \ufe0f- y', lexicon, 24).idents).toEqual(['x', 'y']);
  });

  it('a lone selector, joiner, combining mark, skin tone, keycap mark, variation selector or tag char makes no empty term, and counting the plan ends', () => {
    const lexicon = bundledLexicon();
    const lines = ['const k0 = 1;', 'x = retry(handler) - y', 'a.b', 'caf\u00e9 \ufe0f x', ''];
    for (const q of ODD_QUERIES) {
      for (const mode of ['hybrid', 'lexical'] as const) {
        const plan = buildRankPlan(q, mode, lexicon);
        expect(plan.terms.filter((t) => t.key === ''), JSON.stringify(q)).toEqual([]);
        const tf = new Float64Array(plan.terms.length);
        for (const line of lines) {
          countTerms(line, plan, tf, []);
          lineTerms(line, plan, new Float64Array(plan.terms.length + plan.prose!.grams.length + plan.prose!.numbers.length), []);
        }
      }
    }
  });

  it('an empty term that came another way is counted nowhere, and counting it ends (ASCII and other text)', () => {
    const plan = buildRankPlan('x y', 'hybrid', bundledLexicon());
    const odd = { ...plan, terms: [...plan.terms, { key: '', whole: false, idf: 1 }] };
    const tf = new Float64Array(odd.terms.length);
    const touched: number[] = [];
    countTerms('const k0 = 1;', odd, tf, touched);
    countTerms('const k0 = 1; x', odd, tf, touched);
    countTerms('caf\u00e9 x y', odd, tf, touched);
    expect(tf[odd.terms.length - 1]).toBe(0);
    expect(tf[0]).toBeGreaterThan(0);
  });
});
