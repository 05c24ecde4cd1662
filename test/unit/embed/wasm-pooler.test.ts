// The static kernel's pooling in WebAssembly SIMD (issue 30, a resident scorer's warm searches) against
// its scalar loop: the very same float64 sums, bit for bit, so every distance, kept sum and embedding
// is the same whichever pooled it.
import { describe, expect, it } from 'vitest';
import { createStaticKernel } from '../../../src/embed/static.js';
import { makeWasmPooler } from '../../../src/embed/wasm-pooler.js';
import type { ModelData, TokenizedBatch } from '../../../src/types.js';
import { mulberry32 as rng, seededModel } from '../../helpers/seeded.js';

const VOCAB = 700;

const model = (seed: number, dim: number, o: { rows?: number; normalize: boolean }): ModelData => seededModel('pool', seed, dim, VOCAB, o);

/** Short texts (summed token by token), long ones (per distinct token), repeats, empty ones, one past the pooler's queue. */
function batch(seed: number): TokenizedBatch {
  const rand = rng(seed);
  const texts: number[][] = [[]];
  for (let i = 0; i < 40; i++) texts.push(Array.from({ length: Math.floor(rand() * (i % 3 === 0 ? 600 : 31)) }, () => Math.floor(rand() * VOCAB)));
  texts.push([5, 5, 5, 5, 5], Array.from({ length: 9000 }, (_, t) => (t * 13) % VOCAB), Array.from({ length: 5000 }, () => Math.floor(rand() * VOCAB)), []);
  const lineStarts = new Uint32Array(texts.length + 1);
  texts.forEach((t, i) => { lineStarts[i + 1] = lineStarts[i] + t.length; });
  return { ids: Int32Array.from(texts.flat()), lineStarts };
}

function unitQuery(seed: number, dim: number): Float32Array {
  const rand = rng(seed);
  const q = Float32Array.from({ length: dim }, () => rand() * 2 - 1);
  const n = Math.sqrt(q.reduce((s, x) => s + x * x, 0));
  return q.map((x) => x / n);
}

describe('pooling in WebAssembly (static kernel, resident scorer)', () => {
  it('adds weighted rows into the same float64 sums as the scalar loop, past a full queue', async () => {
    const dim = 64;
    const table = model(9, dim, { normalize: true }).table as Float32Array;
    const pooler = await makeWasmPooler(table, dim);
    expect(pooler, 'WebAssembly SIMD is there in Node').not.toBeNull();
    const rand = rng(3);
    for (const n of [1, 7, 4096, 4097, 10_000]) {
      const rows = Array.from({ length: n }, () => Math.floor(rand() * VOCAB));
      const w = rows.map(() => rand() * 4 - 1);
      const want = new Float64Array(dim);
      for (let j = 0; j < n; j++) for (let d = 0; d < dim; d++) want[d] += w[j] * table[rows[j] * dim + d];
      pooler!.acc.fill(0);
      rows.forEach((r, j) => pooler!.push(r, w[j]));
      pooler!.flush();
      expect(Array.from(pooler!.acc), `${n} rows`).toEqual(Array.from(want));
    }
  });

  it('leaves every distance, sum and embedding of the kernel as the scalar loop gives them', async () => {
    for (const [name, m] of [
      ['plain, normalized', model(1, 32, { normalize: true })],
      ['mapping + weights', model(2, 256, { rows: 300, normalize: true })],
      ['not normalized', model(3, 8, { normalize: false })],
    ] as const) {
      const scalar = createStaticKernel(m);
      const fast = createStaticKernel(m);
      expect(await fast.prepare!(), name).toBe(true);
      const b = batch(11);
      const n = b.lineStarts.length - 1;
      expect(Array.from(await fast.embed(b)), `${name}: embed`).toEqual(Array.from(await scalar.embed(b)));
      for (const seed of [1, 2, 3]) {
        const q = unitQuery(seed, m.dim);
        const sumsA = new Float64Array(n * m.dim).fill(NaN);
        const sumsB = new Float64Array(n * m.dim).fill(NaN);
        expect(Array.from(await fast.score(b, q, undefined, sumsA)), `${name}: distances`).toEqual(Array.from(await scalar.score(b, q, undefined, sumsB)));
        expect(Array.from(sumsA), `${name}: kept sums`).toEqual(Array.from(sumsB));
        // With per-text floors (the pruning bound, then exact sums for the rest).
        const floors = Float32Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 0.6 : 2));
        expect(Array.from(await fast.score(b, q, floors)), `${name}: with floors`).toEqual(Array.from(await scalar.score(b, q, floors)));
      }
    }
  });

  it('is not made for an int8 table (summed by the loop)', async () => {
    const m = model(4, 16, { normalize: true });
    m.table = Int8Array.from({ length: m.rows * m.dim }, (_, i) => (i % 200) - 100);
    expect(await createStaticKernel(m).prepare!()).toBe(false);
  });
});
