// A model whose numbers are not finite (NaN or Infinity rows, from a broken conversion or a damaged
// download) scores every line as nothing; it is refused with the first bad place named, not used.
import type { EmbeddingTable } from '../types.js';

/** Where the first non-finite value is: "table row 12" or "weights[3]"; null when all are finite. Int8 tables cannot hold one. */
export function firstNonFinite(table: EmbeddingTable, dim: number, weights?: Float32Array): string | null {
  if (table instanceof Float32Array) {
    for (let i = 0; i < table.length; i++) {
      const v = table[i];
      if (v - v !== 0) return `table row ${Math.floor(i / dim)} (${v})`;
    }
  }
  if (weights) {
    for (let i = 0; i < weights.length; i++) {
      const v = weights[i];
      if (v - v !== 0) return `weights[${i}] (${v})`;
    }
  }
  return null;
}
