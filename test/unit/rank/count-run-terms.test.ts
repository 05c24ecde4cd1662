// A long plan's terms counted run by run (countRunTerms, issue 30: find_related's pasted chunk) give
// what counting them probe by probe (the scan's ASCII path until now) gives: the same counts, the same
// terms touched, the same answer on whether any matched. (Not always what the general path gives:
// "flies" stems to the part term "fly", whose probe "fly" it does not hold, so both ASCII counts miss it.)
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { countProbedTerms, countRunTerms, countTerms, RUN_COUNTED_TERMS } from '../../../src/rank/chunk-scorer.js';
import { bundledLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan, type RankPlan } from '../../../src/rank/plan.js';
import { repoRoot } from '../../helpers/shared.js';

const lexicon = bundledLexicon();
const EXTRA = ['retryUpload', 'parse_http_request', 'HTTPServer', 'uploads', 'configs', 'flies', 'happy', 'validate', 'settings', 'x8_8', 'v25', 'streamEntries', 'timeout'];

function counts(fn: typeof countTerms, text: string, plan: RankPlan): { matched: boolean; tf: number[]; touched: number[] } {
  const tf = new Float64Array(plan.terms.length);
  const touched: number[] = [];
  const matched = fn(text, plan, tf, touched);
  return { matched, tf: [...tf], touched: touched.sort((a, b) => a - b) };
}

describe('countRunTerms', () => {
  it('counts what countProbedTerms counts, on random ASCII text with plans of many terms', () => {
    const text = fc.array(fc.oneof(fc.stringMatching(/^[A-Za-z0-9_]{1,14}$/), fc.constantFrom(...EXTRA), fc.stringMatching(/^[ .,:;()\-/'"=<>{}\t]{1,3}$/)), { maxLength: 40 }).map((xs) => xs.join(''));
    const pair = text.chain((t) => fc.tuple(fc.constant(t), fc.subarray(t.split(/[^A-Za-z0-9_]+/).filter(Boolean).concat(EXTRA), { minLength: 8 })));
    let long = 0;
    fc.assert(fc.property(pair, ([t, words]) => {
      const plan = buildRankPlan(words.join(' '), 'lexical', lexicon);
      if (plan.terms.length >= RUN_COUNTED_TERMS) long++;
      const byRuns = counts(countRunTerms, t, plan);
      expect(byRuns).toEqual(counts(countProbedTerms, t, plan));
    }), { numRuns: 1500 });
    expect(long).toBeGreaterThan(500);
  });

  it('counts a pasted chunk\'s terms in this repository\'s source lines as the probes do, and countTerms takes it for such a plan', () => {
    const source = readFileSync(path.join(repoRoot, 'src/pipeline.ts'), 'utf8').split('\n');
    const plan = buildRankPlan(source.slice(20, 68).join('\n'), 'hybrid', lexicon);
    expect(plan.terms.length).toBeGreaterThanOrEqual(RUN_COUNTED_TERMS);
    let matched = 0;
    for (const line of readFileSync(path.join(repoRoot, 'src/searcher.ts'), 'utf8').split('\n').concat(source)) {
      const byRuns = counts(countRunTerms, line, plan);
      expect(byRuns, line).toEqual(counts(countProbedTerms, line, plan));
      expect(counts(countTerms, line, plan)).toEqual(byRuns);
      if (byRuns.matched) matched++;
    }
    expect(matched).toBeGreaterThan(100);
  });
});
