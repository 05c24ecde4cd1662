// The ONNX graphs load in onnxruntime-node, and the runtime facts the kernel's design rests on.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { buildEmbedGraph, buildScoreGraph } from '../../../src/embed/onnx-graph.js';

const ort = createRequire(import.meta.url)('onnxruntime-node') as typeof import('onnxruntime-node');
const options = { intraOpNumThreads: 1, interOpNumThreads: 1, logSeverityLevel: 3 as const };

describe('pooling graphs', () => {
  it('load with the documented inputs and outputs', async () => {
    const embed = await ort.InferenceSession.create(buildEmbedGraph({ dim: 8, normalize: true }), options);
    const score = await ort.InferenceSession.create(buildScoreGraph({ dim: 8 }), options);
    expect([embed.inputNames, embed.outputNames]).toEqual([['row_table', 'row_ids', 'weights'], ['embeddings']]);
    expect([score.inputNames, score.outputNames]).toEqual([['row_table', 'row_ids', 'weights', 'query'], ['scores']]);
    await embed.release();
    await score.release();
  });

  it('onnxruntime-node rejects tensors over a SharedArrayBuffer (why rows are copied to a cache)', async () => {
    // If this starts passing, a new onnxruntime-node reads shared memory and the table could be fed as is.
    const session = await ort.InferenceSession.create(buildScoreGraph({ dim: 2 }), options);
    const run = (table: Float32Array) => session.run({
      row_table: new ort.Tensor('float32', table, [1, 2]),
      row_ids: new ort.Tensor('int32', new Int32Array([0]), [1, 1]),
      weights: new ort.Tensor('float32', new Float32Array([1]), [1, 1]),
      query: new ort.Tensor('float32', new Float32Array([1, 0]), [2]),
    });
    const plain = await run(new Float32Array([3, 4]));
    expect((plain.scores.data as Float32Array)[0]).toBeCloseTo(1 - 3 / 5, 6);
    await expect(run(new Float32Array(new SharedArrayBuffer(8)))).rejects.toThrow(/Invalid argument/);
    await session.release();
  });
});
