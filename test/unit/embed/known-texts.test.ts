// LineScorer.knownTexts (a word's tokens alone) against the embedding it replaces in knownShareOf
// (issue 30: a pasted file's thousands of distinct words were embedded to see which the model knows):
// the same word-by-word decisions, so the same share and the same search mode, on real models.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLineScorer } from '../../../src/embed/line-scorer.js';
import { loadModel } from '../../../src/model/load.js';
import { bundledModelDir } from '../../../src/model/default-model.js';
import { knownByEmbedding, knownShareOf, queryMode } from '../../../src/rank/query-mode.js';
import { bundledLexicon } from '../../../src/rank/lexical/lexicon.js';
import { textWords } from '../../../src/rank/lexical/words.js';
import type { ModelData } from '../../../src/types.js';
import { hasShared, model2vecFixtures, repoRoot } from '../../helpers/shared.js';

/** Code as an agent pastes it, and words of scripts and symbols a Latin-script vocabulary lacks. */
const CODE = ['src/searcher.ts', 'src/embed/line-scorer.ts'].map((f) => readFileSync(path.join(repoRoot, f), 'utf8')).join('\n');
const OTHER = 'castle 城堡 ไทย العربية Ελληνικά हिन्दी 日本語 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ℌ x_y _ __init__ ß Straße naïve 🙂 ü';
const QUERIES = [CODE, OTHER, `${OTHER} ${CODE.slice(0, 2000)}`, '城堡 ไทย', 'retry failed uploads'];

/** A copy of a model whose tables say some tokens add nothing: every third table row zeroed, or every third weight. */
function withSilentTokens(m: ModelData, what: 'rows' | 'weights'): ModelData {
  if (what === 'rows') {
    const table = Float32Array.from(m.table as ArrayLike<number>);
    for (let r = 0; r < m.rows; r += 3) table.fill(0, r * m.dim, (r + 1) * m.dim);
    return { ...m, table };
  }
  const weights = m.weights ? Float32Array.from(m.weights) : new Float32Array(m.mapping ? m.mapping.length : m.rows).fill(1);
  for (let i = 1; i < weights.length; i += 3) weights[i] = 0;
  return { ...m, weights };
}

async function expectSameDecisions(model: ModelData): Promise<number> {
  const scorer = await createLineScorer(model, 'static');
  try {
    const words = [...new Set(QUERIES.flatMap((q) => textWords(q)))];
    const byTokens = scorer.knownTexts(words);
    const byVectors = await knownByEmbedding((t) => scorer.embedTexts(t))(words);
    expect([...byTokens]).toEqual([...byVectors]);
    for (const q of QUERIES) {
      const byTokenShare = await knownShareOf(q, async (t) => scorer.knownTexts(t));
      const byVectorShare = await knownShareOf(q, knownByEmbedding((t) => scorer.embedTexts(t)));
      expect(byTokenShare).toBe(byVectorShare);
      const known = (await scorer.embedTexts([q])).some((x) => x !== 0);
      expect(queryMode(q, 'hybrid', known, bundledLexicon(), byTokenShare)).toEqual(queryMode(q, 'hybrid', known, bundledLexicon(), byVectorShare));
    }
    return byTokens.reduce((s, x) => s + x, 0) / words.length;
  } finally {
    await scorer.close();
  }
}

describe('knownTexts: which words the model knows, from their tokens (issue 30)', () => {
  it('decides every word as its embedding does, on the bundled model and with tokens that add nothing', async () => {
    const model = await loadModel(bundledModelDir(), { offline: true });
    // The bundled tokenizer falls back to bytes: it has a token for every word. With some tokens
    // silenced, both kinds of word occur, so the comparison is not vacuous.
    expect(await expectSameDecisions(model)).toBe(1);
    for (const what of ['rows', 'weights'] as const) {
      const share = await expectSameDecisions(withSilentTokens(model, what));
      expect(share).toBeGreaterThan(0);
      expect(share).toBeLessThan(1);
    }
  });

  it.skipIf(!hasShared)('decides every word as its embedding does on a vocab-quantized model (mapping and weights)', async () => {
    const model = await loadModel(path.join(model2vecFixtures, 'test-model-vocab-quantized'));
    expect(model.mapping ?? model.weights).toBeDefined();
    await expectSameDecisions(model);
    const share = await expectSameDecisions(withSilentTokens(model, 'weights'));
    expect(share).toBeGreaterThan(0);
    expect(share).toBeLessThan(1);
  });
});
