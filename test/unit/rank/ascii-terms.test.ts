// countTerms of an ASCII text (issue 30, branch related31: the identifiers that hold a probe found in one
// pass, rank/probe-starts.ts) counts what the words' reading counts (countWordTerms: every word of the
// text, every term compared), term by term: whole words and parts' stems, a key that is two terms' (a
// whole word's and a stem's), repeated parts, leading digits, underscores, case.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countTerms, countWordTerms } from '../../../src/rank/chunk-scorer.js';
import { parseLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan } from '../../../src/rank/plan.js';

describe('countTerms of ASCII text', () => {
  const lexicon = parseLexicon('#docs\t1000\nretry\t20\nupload\t30\nfail\t40\nconfig\t50\n');
  const word = fc.constantFrom('retry', 'Retries', 'RETRY', 'retryRetry', 'upload', 'UPLOADS', 'uploadFile', 'failed', 'config', 'parseConfig', 'retryUpload', 'RetryUpload', '_fail', '9retry', '8_retry', '2025', 'x', 'up', 'upload_file_upload', '');
  const sep = fc.constantFrom(' ', '.', '(', '', '\n', '//', '-');
  const text = fc.array(fc.tuple(word, sep), { maxLength: 10 }).map((ws) => ws.map(([w, s]) => w + s).join(''));
  const queries = ['retry failed uploads', 'retryUpload', 'RetryUpload retry', 'uploadFile upload_file_upload', 'parseConfig config', 'retry retryRetry x', 'fail'];
  it('counts each term as the words reading counts it', () => {
    fc.assert(fc.property(fc.constantFrom(...queries), fc.array(text, { minLength: 1, maxLength: 3 }), (query, texts) => {
      const plan = buildRankPlan(query, 'hybrid', lexicon);
      for (const t of texts) {
        const got = new Float64Array(plan.terms.length);
        const want = new Float64Array(plan.terms.length);
        expect(countTerms(t, plan, got)).toBe(countWordTerms(t, plan, want));
        expect([...got], `${query}: ${JSON.stringify(t)}`).toEqual([...want]);
      }
    }), { numRuns: 1000 });
  });

  it('holds plans whose terms are whole words and stems alike', () => {
    const kinds = queries.map((q) => buildRankPlan(q, 'hybrid', lexicon).terms.map((t) => t.whole));
    expect(kinds.some((k) => k.includes(true) && k.includes(false))).toBe(true);
  });
});
