// The product path (fast tokenizer + model2vec truncation + kernel, as run in workers) against Python
// model2vec's own outputs: what users get must match the reference library, not just the kernel.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLineScorer } from '../../src/embed/line-scorer.js';
import { loadModel } from '../../src/model/load.js';
import { hasShared, model2vecFixtures } from '../helpers/shared.js';

const LONG = Array(1000).fill('hello').join(' ');
const fixture = (name: string) => (JSON.parse(readFileSync(path.join(model2vecFixtures, name), 'utf8')) as number[][])[0];

function relErrors(actual: Float32Array, expected: number[]): number[] {
  return expected.map((e, i) => Math.abs(actual[i] - e) / Math.max(Math.abs(e), 1e-12));
}

describe.skipIf(!hasShared)('line scorer parity with Python model2vec', () => {
  it.each([
    ['float32', 'hello world', 'embeddings_short.json'],
    ['float32', LONG, 'embeddings_long.json'],
    ['vocab-quantized', LONG, 'embeddings_vocab_quantized.json'],
  ])('%s model, %#', async (name, text, reference) => {
    const model = await loadModel(path.join(model2vecFixtures, `test-model-${name}`));
    for (const kind of ['static', 'onnx'] as const) {
      const scorer = await createLineScorer(model, kind);
      try {
        const v = await scorer.embedTexts([text]);
        expect(Math.max(...relErrors(v, fixture(reference)))).toBeLessThanOrEqual(1e-5);
      } finally {
        await scorer.close();
      }
    }
  });
});
