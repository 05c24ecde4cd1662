// A long query's part probes are looked for in each identifier run with one regular expression
// (rank/term-index.ts anyOf; issue 30: ~20 includes per run of every prose document read): it must
// say what some(includes) says, for any needles, regular-expression characters and other scripts included.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyOf, asciiLinesWithProbes, probeOf } from '../../../src/rank/term-index.js';
import { stem } from '../../../src/rank/lexical/terms.js';
import { parseLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan, type RankPlan } from '../../../src/rank/plan.js';
import { countTerms } from '../../../src/rank/chunk-scorer.js';

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

// A 3-letter stem from an -ies word (`tries` -> `try`) was its own probe, which `tries` does not hold,
// so a query for "tries" never counted the lines that say "tries" (hot30's report, session 22).
describe('probeOf', () => {
  it('is held by every word that stems to the term', () => {
    const letter = fc.constantFrom(...'abcdefilnoprstuy');
    fc.assert(fc.property(fc.string({ unit: letter, minLength: 1, maxLength: 9 }), (word) => {
      const key = stem(word);
      expect(word.includes(probeOf({ key, whole: false } as RankPlan['terms'][number])), `${word} -> ${key}`).toBe(true);
    }), { numRuns: 2000 });
    for (const word of ['tries', 'flies', 'skies', 'handling', 'stopped', 'routes']) {
      expect(word.includes(probeOf({ key: stem(word), whole: false } as RankPlan['terms'][number])), word).toBe(true);
    }
  });

  it('lets a query for "tries" count the lines that say it', () => {
    const plan = buildRankPlan('tries again', 'lexical', parseLexicon('#docs\t1000\ntry\t20\n'));
    const tf = new Float64Array(plan.terms.length);
    expect(countTerms('the client tries to reconnect', plan, tf)).toBe(true);
  });
});

// chunkStats skips countTerms for the lines asciiLinesWithProbes says hold no probe (issue 30: one
// lower-casing and one search per probe for a scored range, not per line): every line countTerms
// counts anything in must be marked, whatever the lines, the plan, blank lines and line ends.
describe('asciiLinesWithProbes', () => {
  const lexicon = parseLexicon('#docs\t1000\nretry\t20\nupload\t30\nfail\t40\nconfig\t50\n');
  const word = fc.constantFrom('retry', 'Retries', 'upload', 'UPLOADS', 'failed', 'config', 'x', 'parseConfig', 'retryUpload', '_fail', '9retry', 'up', '');
  const sep = fc.constantFrom(' ', '.', '(', '_', '', '\t', '//');
  const line = fc.array(fc.tuple(word, sep), { maxLength: 6 }).map((ws) => ws.map(([w, s]) => w + s).join(''));
  it('marks every line countTerms finds a term in', () => {
    fc.assert(fc.property(fc.constantFrom('retry failed uploads', 'parse the config', 'retryUpload', 'fail'), fc.array(line, { maxLength: 30 }), (query, lines) => {
      const plan = buildRankPlan(query, 'hybrid', lexicon);
      const holds = asciiLinesWithProbes(lines, plan);
      expect(holds).not.toBeNull();
      const tf = new Float64Array(plan.terms.length);
      lines.forEach((l, i) => {
        if (countTerms(l, plan, tf)) expect(holds![i], `${query}: ${JSON.stringify(l)}`).toBe(1);
        tf.fill(0);
      });
    }), { numRuns: 500 });
  });

  it('leaves lines that are not all ASCII to countTerms', () => {
    const plan = buildRankPlan('retry failed uploads', 'hybrid', lexicon);
    expect(asciiLinesWithProbes(['retry', 'réessayer'], plan)).toBeNull();
    expect([...asciiLinesWithProbes(['', 'no', 'a retry', 'x', 'uploads'], plan)!]).toEqual([0, 0, 1, 0, 1]);
  });
});
