// Parity with Python model2vec: every fixture model loads through loadModel, is tokenized with the
// reference tokenizer library, pooled by the static kernel and compared with Python's own output.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { beforeAll, describe, expect, it } from 'vitest';
import { createStaticKernel } from '../../src/embed/static.js';
import { loadModel } from '../../src/model/load.js';
import type { ModelData } from '../../src/types.js';
import { hasShared, model2vecFixtures } from '../helpers/shared.js';

const SHORT = 'hello world';
const LONG = Array(1000).fill('hello').join(' ');

function fixture(name: string): number[] {
  return (JSON.parse(readFileSync(path.join(model2vecFixtures, name), 'utf8')) as number[][])[0];
}

/** model2vec's encode: no special tokens, unknown id dropped, then truncated to maxLength. */
async function embed(model: ModelData, text: string): Promise<number[]> {
  const tokenizer = new Tokenizer(JSON.parse(readFileSync(model.tokenizerPath, 'utf8')), {});
  const ids = tokenizer
    .encode(text, { add_special_tokens: false })
    .ids.filter((id: number) => id !== model.unkId)
    .slice(0, model.maxLength);
  const out = await createStaticKernel(model).embed({ ids: Int32Array.from(ids), lineStarts: Uint32Array.from([0, ids.length]) });
  return Array.from(out);
}

/** The model2vec-rs check: |a - e| <= tol * max(|a|, |e|) per component (plus f32 epsilon). */
function expectClose(actual: number[], expected: number[], relTol: number): void {
  expect(actual).toHaveLength(expected.length);
  const bad = actual
    .map((a, i) => ({ i, a, e: expected[i] }))
    .filter(({ a, e }) => Math.abs(a - e) > relTol * Math.max(Math.abs(a), Math.abs(e)) + 1.2e-7);
  expect(bad).toEqual([]);
}

describe.skipIf(!hasShared)('model2vec parity (../shared/fixtures/model2vec)', () => {
  const models: Record<string, ModelData> = {};
  const names = ['float32', 'float16', 'int8', 'sentence-transformers', 'vocab-quantized'];

  beforeAll(async () => {
    for (const name of names) models[name] = await loadModel(path.join(model2vecFixtures, `test-model-${name}`));
  });

  it('loads every fixture layout and dtype onto SharedArrayBuffers', () => {
    const summary = names.map((name) => {
      const m = models[name];
      return {
        name,
        rows: m.rows,
        dim: m.dim,
        normalize: m.normalize,
        maxLength: m.maxLength,
        unkId: m.unkId,
        shared: [m.table, m.mapping, m.weights].every((a) => a === undefined || a.buffer instanceof SharedArrayBuffer),
        mapping: m.mapping?.length ?? null,
        weights: m.weights?.length ?? null,
      };
    });
    const base = { normalize: true, maxLength: 512, unkId: 1, shared: true, mapping: null, weights: null };
    expect(summary).toEqual([
      { name: 'float32', rows: 29528, dim: 2, ...base },
      { name: 'float16', rows: 29528, dim: 2, ...base },
      { name: 'int8', rows: 29528, dim: 2, ...base },
      { name: 'sentence-transformers', rows: 29528, dim: 2, ...base },
      { name: 'vocab-quantized', rows: 128, dim: 64, ...base, mapping: 29524, weights: 29524 },
    ]);
  });

  it('float32 matches Python for "hello world" and for 1000 x "hello" (truncated to 512 tokens)', async () => {
    expectClose(await embed(models.float32, SHORT), fixture('embeddings_short.json'), 1e-5);
    expectClose(await embed(models.float32, LONG), fixture('embeddings_long.json'), 1e-5);
  });

  it('the sentence-transformers layout (embedding.weight) matches the same Python output', async () => {
    expectClose(await embed(models['sentence-transformers'], SHORT), fixture('embeddings_short.json'), 1e-5);
    expectClose(await embed(models['sentence-transformers'], LONG), fixture('embeddings_long.json'), 1e-5);
  });

  it('vocab-quantized (mapping + F64 weights) matches Python', async () => {
    expectClose(await embed(models['vocab-quantized'], LONG), fixture('embeddings_vocab_quantized.json'), 1e-5);
  });

  it('float16 and int8 tables agree with the float32 output within their precision', async () => {
    // F16 keeps ~3 significant digits; I8 is the F32 table scaled to [-127, 127] and rounded.
    for (const [name, tol] of [['float16', 1e-3], ['int8', 1e-1]] as const) {
      expectClose(await embed(models[name], SHORT), fixture('embeddings_short.json'), tol);
      expectClose(await embed(models[name], LONG), fixture('embeddings_long.json'), tol);
    }
  });

  it('the fixture tokenizer is the published potion-base-8M one (token_order_hash)', () => {
    const baseline = JSON.parse(readFileSync(path.join(model2vecFixtures, 'minishlab___potion-base-8m_baseline.json'), 'utf8'));
    const tokenizer = JSON.parse(readFileSync(models.float32.tokenizerPath, 'utf8')) as { model: { vocab: Record<string, number> } };
    const tokens = Object.entries(tokenizer.model.vocab).sort((a, b) => a[1] - b[1]).map(([t]) => t);
    expect({
      size: tokens.length,
      hash: createHash('sha256').update(tokens.join('\u001f'), 'utf8').digest('hex'),
      unkId: models.float32.unkId,
    }).toEqual({
      size: baseline.metrics.full_vocab_size,
      hash: baseline.metrics.token_order_hash,
      unkId: baseline.metrics.unk_token_id,
    });
  });
});
