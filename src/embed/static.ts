// Pure-TypeScript pooling kernel: mean of (weighted) token rows read straight from the shared table.
import type { ModelData, TokenizedBatch } from '../types.js';
import type { PoolingKernel } from './embedder.js';

export function createStaticKernel(model: ModelData): PoolingKernel {
  const { table, dim, mapping, weights, normalize } = model;
  const acc = new Float64Array(dim);

  /** Sums the weighted rows of line i into acc; returns the token count. */
  function accumulate(batch: TokenizedBatch, i: number): number {
    acc.fill(0);
    const from = batch.lineStarts[i];
    const to = batch.lineStarts[i + 1];
    for (let t = from; t < to; t++) {
      const id = batch.ids[t];
      const row = mapping ? mapping[id] : id;
      const w = weights ? weights[id] : 1;
      const base = row * dim;
      for (let d = 0; d < dim; d++) acc[d] += w * table[base + d];
    }
    return to - from;
  }

  return {
    id: `static:${model.id}`,
    dim,
    async embed(batch) {
      const n = batch.lineStarts.length - 1;
      const out = new Float32Array(n * dim);
      for (let i = 0; i < n; i++) {
        const count = accumulate(batch, i);
        if (count === 0) continue;
        let scale = 1 / count;
        if (normalize) {
          let sq = 0;
          for (let d = 0; d < dim; d++) sq += acc[d] * acc[d];
          scale = sq > 0 ? 1 / Math.sqrt(sq) : 0;
        }
        const base = i * dim;
        for (let d = 0; d < dim; d++) out[base + d] = acc[d] * scale;
      }
      return out;
    },
    async score(batch, query) {
      const n = batch.lineStarts.length - 1;
      const out = new Float32Array(n);
      for (let i = 0; i < n; i++) {
        if (accumulate(batch, i) === 0) { out[i] = NaN; continue; }
        let dot = 0;
        let sq = 0;
        for (let d = 0; d < dim; d++) { const a = acc[d]; dot += a * query[d]; sq += a * a; }
        out[i] = sq > 0 ? 1 - dot / Math.sqrt(sq) : NaN;
      }
      return out;
    },
  };
}
