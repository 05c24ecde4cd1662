// The candidate pass's SIMD cosines (issue 30) against its scalar loop: the same float64 sums of the same
// exact products, up to the order of the additions, for any rows and ranges; no kernel where none fits.
import { describe, expect, it } from 'vitest';
import { toFloat16 } from '../../../src/workspace/packed/float16.js';
import { cosineKernel, cosineKernelMade, cosineKernelNow, MIN_KERNEL_VALUES, scalarCosines } from '../../../src/workspace/search/chunk-cosines.js';

/** A seeded generator (mulberry32): the same rows every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function unitRows(n: number, dim: number, next: () => number): Float32Array {
  const v = new Float32Array(n * dim);
  for (let r = 0; r < n; r++) {
    let norm = 0;
    for (let d = 0; d < dim; d++) { const x = next() - 0.5; v[r * dim + d] = x; norm += x * x; }
    for (let d = 0; d < dim; d++) v[r * dim + d] /= Math.sqrt(norm) || 1;
  }
  return v;
}

describe('chunk cosines (SIMD kernel)', () => {
  it('equals the scalar loop within 1e-12 for every row, range and dimension a multiple of 4', () => {
    const next = random(7);
    for (const dim of [4, 8, 12, 64, 256]) {
      const n = 97;
      const halves = toFloat16(unitRows(n, dim, next));
      const kernel = cosineKernelNow(halves, dim)!;
      expect(kernel, `dim ${dim}`).not.toBeNull();
      for (let q = 0; q < 5; q++) {
        const query = unitRows(1, dim, next);
        kernel.setQuery(query);
        for (const [from, to] of [[0, n], [0, 1], [13, 14], [40, 97], [5, 5]]) {
          const got = new Float64Array(n).fill(NaN);
          const want = new Float64Array(n).fill(NaN);
          kernel.cosines(from, to, got);
          scalarCosines(halves, dim, query, from, to, want);
          for (let r = 0; r < n; r++) {
            if (r < from || r >= to) { expect(got[r], 'outside the range: untouched').toBeNaN(); continue; }
            expect(Math.abs(got[r] - want[r]), `dim ${dim} row ${r}`).toBeLessThan(1e-12);
          }
        }
      }
    }
  });

  it('has no kernel for a dimension that is not a multiple of 4, nor an empty array; in a one-shot process none is made', () => {
    expect(cosineKernelNow(toFloat16(unitRows(3, 6, random(1))), 6)).toBeNull();
    expect(cosineKernelNow(new Uint16Array(0), 8)).toBeNull();
    const halves = toFloat16(unitRows(3, 8, random(2)));
    expect(cosineKernel(halves, 8, false)).toBeNull();
    expect(cosineKernel(halves, 8, false)).toBeNull();
  });

  it('is not made for a small array (under MIN_KERNEL_VALUES values): the scalar loop is cheap there', async () => {
    const halves = toFloat16(unitRows(100, 256, random(5)));
    expect(halves.length).toBeLessThan(MIN_KERNEL_VALUES);
    expect(cosineKernel(halves, 256, true)).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(cosineKernel(halves, 256, true)).toBeNull();
  });

  it('is made in the background after the first ask of a resident process, a slice at a time, then answers as the scalar loop', async () => {
    // Enough values for a kernel (MIN_KERNEL_VALUES), more than one slice (2^16): the copy takes several turns.
    const n = 4100;
    const dim = 256;
    const halves = toFloat16(unitRows(n, dim, random(3)));
    expect(cosineKernel(halves, dim, true)).toBeNull();
    let turns = 0;
    while (!cosineKernel(halves, dim, true)) { await new Promise((resolve) => setTimeout(resolve, 1)); turns++; }
    expect(turns).toBeGreaterThan(1);
    const query = unitRows(1, dim, random(4));
    const got = new Float64Array(n);
    const want = new Float64Array(n);
    const kernel = cosineKernel(halves, dim, true)!;
    kernel.setQuery(query);
    kernel.cosines(0, n, got);
    scalarCosines(halves, dim, query, 0, n, want);
    for (let r = 0; r < n; r++) expect(Math.abs(got[r] - want[r])).toBeLessThan(1e-12);
  });

  it('is made when waited for (cosineKernelMade: one making however many ask), and the wait settles at once where none is made', async () => {
    const dim = 256;
    const halves = toFloat16(unitRows(4100, dim, random(6)));
    const made = cosineKernelMade(halves, dim);
    expect(cosineKernelMade(halves, dim)).toBe(made);
    expect(cosineKernel(halves, dim, false)).toBeNull();
    await made;
    expect(cosineKernel(halves, dim, false)).not.toBeNull();
    const small = toFloat16(unitRows(100, dim, random(8)));
    await cosineKernelMade(small, dim);
    expect(cosineKernel(small, dim, false)).toBeNull();
  });
});
