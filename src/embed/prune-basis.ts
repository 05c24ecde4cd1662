// Exact pruning support: an orthonormal basis {q, v1..vm} in which a line's coordinates are cheap
// (m+1 multiply-adds per token instead of dim). Since |x| >= |projection of x|, the cosine computed
// from the projection is an upper bound of the true cosine: lines whose bound cannot reach the
// current top-k floor are skipped without ever summing their full vectors. Exact, not approximate.
import type { ModelData } from '../types.js';

const SAMPLE_ROWS = 2048;

/**
 * Approximate top principal directions of the table (randomized range finder: X^T X Omega, then
 * Gram-Schmidt). Any orthonormal set keeps the bound exact; a better one only makes it tighter.
 */
export function principalDirections(model: ModelData, m: number, seed = 1): Float64Array[] {
  const { table, rows, dim } = model;
  let s = seed >>> 0;
  const rand = () => { s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0; return s / 4294967296 - 0.5; };
  const omega = Array.from({ length: m }, () => Float64Array.from({ length: dim }, rand));
  const z = Array.from({ length: m }, () => new Float64Array(dim));
  for (const r of sampledRows(rows)) {
    const base = r * dim;
    for (let j = 0; j < m; j++) {
      const o = omega[j];
      let y = 0;
      for (let d = 0; d < dim; d++) y += table[base + d] * o[d];
      const zj = z[j];
      for (let d = 0; d < dim; d++) zj[d] += table[base + d] * y;
    }
  }
  return orthonormalize(z);
}

/** The rows principalDirections reads, in its order (directions-cache.ts names an entry by their bytes). */
export function* sampledRows(rows: number): Generator<number> {
  const step = Math.max(1, Math.floor(rows / SAMPLE_ROWS));
  for (let r = 0; r < rows; r += step) yield r;
}

/** The query first, then the directions made orthogonal to it and to each other. */
export function queryBasis(query: Float32Array, directions: Float64Array[]): Float64Array[] {
  return orthonormalize([Float64Array.from(query), ...directions.map((v) => Float64Array.from(v))]);
}

/** Modified Gram-Schmidt (twice, for stability); drops vectors that become negligible. */
function orthonormalize(vectors: Float64Array[]): Float64Array[] {
  const out: Float64Array[] = [];
  for (const v of vectors) {
    const w = Float64Array.from(v);
    const before = Math.sqrt(dot(w, w));
    for (let pass = 0; pass < 2; pass++) {
      for (const u of out) {
        const c = dot(w, u);
        for (let d = 0; d < w.length; d++) w[d] -= c * u[d];
      }
    }
    const n = Math.sqrt(dot(w, w));
    if (!(n > 1e-6 * Math.max(before, 1e-30))) continue;
    for (let d = 0; d < w.length; d++) w[d] /= n;
    out.push(w);
  }
  return out;
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}
