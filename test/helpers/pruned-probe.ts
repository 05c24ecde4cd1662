// A query the kernel's pruning bound works on (the unit sum of two of the model's rows) and a batch of three
// lines around them: what the pruning-directions tests score to compare kernels with and without directions.
import type { ModelData } from '../../src/types.js';

export function prunedProbe(model: ModelData): { query: Float32Array; batch: { ids: Int32Array; lineStarts: Uint32Array } } {
  const table = model.table as Float32Array;
  const query = new Float32Array(model.dim);
  for (let d = 0; d < model.dim; d++) query[d] = table[(7 * model.dim) + d] + table[(901 * model.dim) + d];
  let n = 0;
  for (let d = 0; d < model.dim; d++) n += query[d] * query[d];
  for (let d = 0; d < model.dim; d++) query[d] /= Math.sqrt(n);
  return { query, batch: { ids: Int32Array.from([7, 901, 55, 12, 3000, 7, 42, 901, 5, 6]), lineStarts: Uint32Array.from([0, 2, 5, 10]) } };
}
