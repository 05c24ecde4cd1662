// Semantic mode's plan: the chunk embedding alone (no terms, symbols, path words or priors), cut into
// the same chunks as the lexical modes.
import { describe, expect, it } from 'vitest';
import { parseLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan } from '../../../src/rank/plan.js';
import { chunkBounds, chunkStats } from '../../../src/rank/chunk-scorer.js';
import { relevance, semanticBudget, toDistance } from '../../../src/rank/relevance.js';
import { pathSignals } from '../../../src/rank/path-signals.js';

const lexicon = parseLexicon('#docs\t1000\nretry\t20\nupload\t25\n');

describe('the semantic plan', () => {
  const plan = buildRankPlan('FieldValidator retry the upload in tests/', 'semantic', lexicon);

  it('carries no lexical, symbol, path or prior signal', () => {
    expect({ terms: plan.terms, symbols: plan.symbols, pathWords: plan.pathWords, pathPriors: plan.pathPriors, dataPrior: plan.dataPrior, weights: plan.weights })
      .toEqual({ terms: [], symbols: [], pathWords: [], pathPriors: false, dataPrior: false, weights: { semantic: 1, symbol: 0, path: 0 } });
    const path = pathSignals('tests/retry_upload_test.py', plan);
    expect(path.prior).toBe(1);
    expect(path.pathMatch).toBe(0);
  });

  it('ranks by the cosine alone, and budgets it exactly', () => {
    const path = pathSignals('src/a.py', plan);
    expect(toDistance(relevance(0.6, 0.9, 1, path, plan))).toBeCloseTo(1 / 1.6, 12);
    const bar = toDistance(0.4);
    expect(1 - semanticBudget(bar, 0, 0, path, plan)).toBeCloseTo(0.4, 12);
  });

  it('cuts the chunks chunkStats cuts, at file lines that are multiples of chunkLines', () => {
    const lines = Array.from({ length: 130 }, (_, i) => `line ${i}`);
    for (const firstLine of [0, 5, 47, 48, 100]) {
      const hybrid = buildRankPlan('retry upload', 'hybrid', lexicon);
      const bounds = chunkBounds(lines.length, firstLine, plan).map((c) => [c.from, c.to]);
      expect(bounds).toEqual(chunkStats(lines, firstLine, 'a.py', hybrid).map((c) => [c.from, c.to]));
      expect(bounds.slice(1).every(([from]) => (firstLine + from) % plan.chunkLines === 0)).toBe(true);
    }
  });
});
