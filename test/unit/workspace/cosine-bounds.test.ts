// The candidate pass's cosine bounds (issue 30): every bound is at least the cosine the kernel works
// out for its row (the candidate pass passes a chunk over on its bound, so a bound below the cosine
// could drop a result), for random rows and queries and for rows and queries made to break it; and
// within a few hundredths of it, so that the bound passes most chunks over.
import { describe, expect, it } from 'vitest';
import { halfValues, toFloat16 } from '../../../src/workspace/packed/float16.js';
import { cosineKernelNow, scalarCosines } from '../../../src/workspace/search/chunk-cosines.js';
import { emptyCosineBounds } from '../../../src/workspace/search/cosine-bounds.js';
import { mulberry32 } from '../../helpers/seeded.js';

function unit(v: Float32Array): Float32Array {
  let norm = 0;
  for (const x of v) norm += x * x;
  return norm > 0 ? v.map((x) => x / Math.sqrt(norm)) : v;
}

/** Rows as the snapshot keeps them (float16) and the float32 values the kernel reads. */
function rowsOf(vectors: Float32Array[]): { halves: Uint16Array; dim: number } {
  const dim = vectors[0].length;
  const flat = new Float32Array(vectors.length * dim);
  vectors.forEach((v, r) => flat.set(v, r * dim));
  return { halves: toFloat16(flat), dim };
}

/** Each row's bound and its cosine from the kernel and from the scalar loop. */
function boundsAndCosines(halves: Uint16Array, dim: number, query: Float32Array): { bound: Float64Array; kernel: Float64Array; scalar: Float64Array } {
  const n = halves.length / dim;
  const k = cosineKernelNow(halves, dim)!;
  expect(k.bounds, 'the kernel has bounds for a dimension that is a multiple of 16').toBeDefined();
  const bound = new Float64Array(n);
  const kernel = new Float64Array(n);
  const scalar = new Float64Array(n);
  k.setQuery(query);
  k.bounds!(0, n, bound);
  k.cosines(0, n, kernel);
  scalarCosines(halves, dim, query, 0, n, scalar);
  return { bound, kernel, scalar };
}

function expectBounds(halves: Uint16Array, dim: number, query: Float32Array, what: string, tight = 0.05): void {
  const { bound, kernel, scalar } = boundsAndCosines(halves, dim, query);
  for (let r = 0; r < bound.length; r++) {
    expect(bound[r], `${what}: row ${r} bounds the kernel's cosine`).toBeGreaterThanOrEqual(kernel[r]);
    expect(bound[r], `${what}: row ${r} bounds the scalar cosine`).toBeGreaterThanOrEqual(scalar[r]);
    if (Number.isFinite(kernel[r])) expect(bound[r] - kernel[r], `${what}: row ${r} is tight`).toBeLessThan(tight);
  }
}

describe('cosine bounds', () => {
  it('bound every row of random unit rows for random queries, within 0.05, in every dimension a multiple of 16', () => {
    const rnd = mulberry32(30);
    for (const dim of [16, 32, 64, 256, 512]) {
      const rows = Array.from({ length: 300 }, () => unit(Float32Array.from({ length: dim }, () => rnd() - 0.5)));
      const { halves } = rowsOf(rows);
      for (let q = 0; q < 8; q++) {
        // Random queries, and queries near a row (large cosines, where a bound matters most).
        const near = rows[Math.floor(rnd() * rows.length)];
        const query = q % 2 === 0 ? unit(Float32Array.from({ length: dim }, () => rnd() - 0.5)) : unit(near.map((x) => x + 0.1 * (rnd() - 0.5)));
        expectBounds(halves, dim, query, `dim ${dim} query ${q}`);
      }
    }
  });

  it('bound rows and queries made to break them: peaked, flat, rounding ties, the query along a row\'s quantization error', () => {
    const dim = 64;
    const rnd = mulberry32(7);
    const rows: Float32Array[] = [];
    // One large value and the rest small: a coarse scale, so the codes miss most of the row.
    rows.push(unit(Float32Array.from({ length: dim }, (_, d) => (d === 3 ? 1 : 0.01 * (rnd() - 0.5)))));
    // Every value of one magnitude, signs alternating.
    rows.push(unit(Float32Array.from({ length: dim }, (_, d) => (d % 2 === 0 ? 1 : -1))));
    // Values halfway between two codes (ties in the rounding) and the largest value 127 steps.
    rows.push(unit(Float32Array.from({ length: dim }, (_, d) => (d === 0 ? 127 : (d % 127) + 0.5))));
    // Tiny values (float16 subnormals) with one normal value; a zero row.
    rows.push(Float32Array.from({ length: dim }, (_, d) => (d === 5 ? 0.5 : 3e-6 * (d % 3))));
    rows.push(new Float32Array(dim));
    // Random rows.
    for (let r = 0; r < 40; r++) rows.push(unit(Float32Array.from({ length: dim }, () => rnd() - 0.5)));
    const { halves } = rowsOf(rows);
    const values = halfValues();
    const widened = (r: number) => Float32Array.from(halves.subarray(r * dim, (r + 1) * dim), (h) => values[h]);
    const queries: [string, Float32Array][] = [];
    for (let r = 0; r < rows.length; r++) {
      const x = widened(r);
      queries.push([`row ${r} itself`, x], [`minus row ${r}`, x.map((v) => -v)]);
      // Along what the int8 codes of the row miss: the part of q.x that only the Cauchy-Schwarz term bounds.
      let most = 0;
      for (const v of x) most = Math.max(most, Math.abs(v));
      const s = most / 127;
      const miss = x.map((v) => (s > 0 ? v - s * Math.max(-127, Math.min(127, Math.round(v / s))) : 0));
      if (miss.some((v) => v !== 0)) queries.push([`row ${r}'s quantization error`, unit(miss)], [`row ${r} plus its error`, unit(x.map((v, d) => v + 10 * miss[d]))]);
    }
    // A query with one large value, one of many equal values, and one that is not unit length.
    queries.push(['peaked query', unit(Float32Array.from({ length: dim }, (_, d) => (d === 3 ? 1 : 1e-4 * d)))]);
    queries.push(['flat query', unit(Float32Array.from({ length: dim }, () => 1))]);
    queries.push(['query of norm 3', Float32Array.from({ length: dim }, (_, d) => 3 * widened(7)[d])]);
    for (const [what, query] of queries) expectBounds(halves, dim, query, what, 0.2);
  });

  it('have no bound below the cosine for a row with a value that is not finite or a zero query', () => {
    const dim = 16;
    const rows = [Float32Array.from({ length: dim }, (_, d) => (d === 2 ? Infinity : 0.1)), unit(Float32Array.from({ length: dim }, (_, d) => d + 1))];
    const { halves } = rowsOf(rows);
    const { bound } = boundsAndCosines(halves, dim, unit(Float32Array.from({ length: dim }, () => 1)));
    expect(bound[0]).toBe(Infinity);
    expect(bound[1]).toBeGreaterThan(0.8);
    const zero = boundsAndCosines(halves, dim, new Float32Array(dim));
    expect(zero.bound[0]).toBe(Infinity);
    expect(zero.bound[1]).toBeGreaterThanOrEqual(0);
  });

  it('are the formula\'s floats, summed in its order: s t (j.k) + |δ| s |k| + |q| |e| + slack, row by row, over any run of rows', () => {
    // The kernel sums each row's bound itself (bound-dots-wasm.ts): worked out here from the codes' definition
    // (each value's nearest of 127 steps of its row's largest, the query's of qMax steps of its largest).
    const rnd = mulberry32(31);
    for (const dim of [16, 64, 256]) {
      const rows = Array.from({ length: 90 }, (_, r) => (r % 9 === 4 ? Float32Array.from({ length: dim }, (_, d) => (d === 1 ? 0.9 : 1e-5 * d)) : unit(Float32Array.from({ length: dim }, () => rnd() - 0.5))));
      const { halves } = rowsOf(rows);
      const values = halfValues();
      const n = rows.length;
      const bounds = emptyCosineBounds(halves.length, dim)!;
      bounds.quantize(halves, 0, halves.length);
      const qMax = Math.min(32767, Math.floor(0x7fffffff / (dim * 127)));
      for (let k = 0; k < 4; k++) {
        const query = k === 3 ? Float32Array.from({ length: dim }, (_, d) => 2 * Math.sin(d)) : unit(Float32Array.from({ length: dim }, () => rnd() - 0.5));
        let most = 0;
        let qq = 0;
        for (const x of query) { most = Math.max(most, Math.abs(x)); qq += x * x; }
        const t = most / qMax;
        const j = Array.from(query, (x) => Math.max(-qMax, Math.min(qMax, Math.round(x / t))));
        let dd = 0;
        query.forEach((x, d) => { dd += (x - t * j[d]) ** 2; });
        const expected = rows.map((_, r) => {
          const x = Array.from(halves.subarray(r * dim, (r + 1) * dim), (h) => values[h]);
          let big = 0;
          for (const v of x) big = Math.max(big, Math.abs(v));
          const s = big / 127;
          const inverse = s > 0 ? 1 / s : 0;
          let kk = 0;
          let ee = 0;
          let dot = 0;
          x.forEach((v, d) => { const c = Math.max(-127, Math.min(127, Math.round(v * inverse))); kk += c * c; ee += (v - s * c) ** 2; dot += c * j[d]; });
          return s * t * dot + Math.sqrt(dd) * (s * Math.sqrt(kk)) + Math.sqrt(qq) * Math.sqrt(ee) + 1e-9;
        });
        bounds.setQuery(query);
        // The whole matrix, then runs that start and end anywhere (each row's bound is its own).
        const all = new Float64Array(n);
        bounds.bounds(0, n, all);
        expect(Array.from(all), `dim ${dim} query ${k}`).toEqual(expected);
        const runs = new Float64Array(n).fill(-1);
        for (let from = 0; from < n; ) { const to = Math.min(n, from + 1 + Math.floor(rnd() * 17)); bounds.bounds(from, to, runs); from = to; }
        expect(Array.from(runs), `dim ${dim} query ${k}, in runs`).toEqual(expected);
      }
    }
  });

  it('are absent where the kernel does not fit (a dimension that is not a multiple of 16)', () => {
    expect(emptyCosineBounds(8 * 24, 24)).toBeNull();
    expect(emptyCosineBounds(8 * 32, 32)).not.toBeNull();
    const rnd = mulberry32(3);
    const { halves } = rowsOf([unit(Float32Array.from({ length: 24 }, () => rnd() - 0.5))]);
    expect(cosineKernelNow(halves, 24)!.bounds).toBeUndefined();
  });
});
