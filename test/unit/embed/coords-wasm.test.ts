// The static kernel's basis coordinates in WebAssembly SIMD (coords-wasm.ts, issue 30: a first scan's workers
// each fill ~2,000 rows' 25 coordinates) against its scalar loop: the very same float32 coordinates, bit for
// bit, so the pruning bound skips the very same texts and every distance and kept sum is the same.
import { describe, expect, it } from 'vitest';
import { coordsFilledRows, coordsScratchBytes, sharedCoordsFiller } from '../../../src/embed/coords-wasm.js';
import { withPoolMemory } from '../../../src/embed/pool-memory.js';
import { createStaticKernel } from '../../../src/embed/static.js';
import type { ModelData, TokenizedBatch } from '../../../src/types.js';
import { mulberry32 as rng, seededModel } from '../../helpers/seeded.js';

const VOCAB = 700;

/** The scalar loop of static.ts fillCoords: each coordinate summed over d in order, stored as float32. */
function scalarCoords(table: Float32Array, dim: number, row: number, basis: Float64Array[]): Float32Array {
  const out = new Float32Array(basis.length);
  for (let j = 0; j < basis.length; j++) {
    let c = 0;
    for (let d = 0; d < dim; d++) c += table[row * dim + d] * basis[j][d];
    out[j] = c;
  }
  return out;
}

const bits = (a: Float32Array) => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length));

function unitQuery(seed: number, dim: number): Float32Array {
  const rand = rng(seed);
  const q = Float32Array.from({ length: dim }, () => rand() * 2 - 1);
  const n = Math.sqrt(q.reduce((s, x) => s + x * x, 0));
  return q.map((x) => x / n);
}

function batch(seed: number, vocab = VOCAB, n = 60): TokenizedBatch {
  const rand = rng(seed);
  const texts: number[][] = [[]];
  for (let i = 0; i < n; i++) texts.push(Array.from({ length: 1 + Math.floor(rand() * (i % 3 === 0 ? 300 : 31)) }, () => Math.floor(rand() * vocab)));
  const lineStarts = new Uint32Array(texts.length + 1);
  texts.forEach((t, i) => { lineStarts[i + 1] = lineStarts[i] + t.length; });
  return { ids: Int32Array.from(texts.flat()), lineStarts };
}

describe('basis coordinates in WebAssembly (static kernel)', () => {
  it('fills the same float32 coordinates as the scalar loop, for any count of basis vectors', () => {
    for (const dim of [4, 64, 256]) {
      const m = withPoolMemory(seededModel('coords', dim, dim, VOCAB, { normalize: true }));
      expect(m.poolMemory, 'a shared WebAssembly memory in Node').toBeDefined();
      const table = m.table as Float32Array;
      const pm = m.poolMemory!;
      const scratchAt = pm.slotsAt + pm.slotBytes - coordsScratchBytes(dim);
      const filler = sharedCoordsFiller(pm.memory, scratchAt, dim);
      expect(filler).not.toBeNull();
      // Rows of float32 denormals (the smallest, the largest, negative), of infinities and of a NaN among
      // ordinary floats: widened to float64 exactly, their products and sums are the loop's too (Inf * 0: NaN).
      const special: number[][] = [
        [1.4e-45, -1.4e-45, 1.1754942e-38, -5.9e-39],
        [Infinity, 0.25, -Infinity, 0.5],
        [0.125, NaN, -0.75, 0.3],
      ];
      special.forEach((vals, r) => { for (let d = 0; d < dim; d++) table[(2 + r) * dim + d] = vals[d % 4]; });
      const rand = rng(dim);
      // Products that round differently in another order, a tiny and a huge coordinate, a zero vector.
      for (const k of [1, 2, 3, 8, 24, 25, 26]) {
        const basis = Array.from({ length: k }, (_, j) => Float64Array.from({ length: dim }, () => (j === 2 ? 0 : (rand() * 2 - 1) * (j === 1 ? 1e-30 : j === 3 ? 1e30 : 1))));
        expect(filler!.setBasis(basis), `k ${k}`).toBe(true);
        const coords = new Float32Array(m.rows * k);
        for (const row of [0, 1, m.rows - 1, 123, 456, 2, 3, 4]) {
          filler!.fill(row, coords, row * k);
          expect(bits(coords.subarray(row * k, row * k + k)), `dim ${dim}, k ${k}, row ${row}`).toEqual(bits(scalarCoords(table, dim, row, basis)));
        }
      }
      expect(filler!.setBasis(Array.from({ length: 27 }, () => new Float64Array(dim))), 'more than 26 vectors').toBe(false);
    }
  });

  it('is what a kernel over a pool memory fills with: every distance and kept sum as the loop gives them', async () => {
    // The last meets thousands of rows (their coordinates packed in the order met).
    for (const [name, plain, vocab] of [
      ['plain', seededModel('kernel', 1, 64, VOCAB, { normalize: true }), VOCAB],
      ['mapping + weights', seededModel('kernel', 2, 256, VOCAB, { rows: 300, normalize: true }), VOCAB],
      ['5,000 rows', seededModel('kernel', 3, 16, 5000, { normalize: true }), 5000],
    ] as const) {
      const scalar = createStaticKernel(plain);
      const pooled = createStaticKernel(withPoolMemory(plain));
      const b = batch(7, vocab, vocab === VOCAB ? 60 : 400);
      const n = b.lineStarts.length - 1;
      const before = coordsFilledRows();
      for (const seed of [1, 2, 3]) {
        const q = unitQuery(seed, plain.dim);
        for (const floor of [0.3, 0.6, 0.9]) {
          const floors = Float32Array.from({ length: n }, (_, i) => (i % 3 === 0 ? 2 : floor));
          const sumsA = new Float64Array(n * plain.dim).fill(NaN);
          const sumsB = new Float64Array(n * plain.dim).fill(NaN);
          expect(Array.from(await pooled.score(b, q, floors, sumsA)), `${name}: distances`).toEqual(Array.from(await scalar.score(b, q, floors, sumsB)));
          expect(Array.from(sumsA), `${name}: kept sums`).toEqual(Array.from(sumsB));
          expect(Array.from(await pooled.score(b, q, 1 - floor)), `${name}: one floor`).toEqual(Array.from(await scalar.score(b, q, 1 - floor)));
        }
      }
      expect(coordsFilledRows() - before, `${name}: rows filled in WebAssembly`).toBeGreaterThan(100);
    }
  });

  // Each kernel keeps its query's basis in its slot's scratch (wasm-pooler.ts poolSlotBytes) from one score
  // call to the next and fills the rows it meets later with it: a scratch that spilt into the next slot would
  // be overwritten by the next kernel's sum and queue, and the rows filled after that would be wrong.
  it("keeps each kernel's scratch in its own slot: 4 kernels on one pool memory, their queries interleaved", async () => {
    const plain = seededModel('slots', 4, 64, 5000, { normalize: true });
    const m = withPoolMemory(plain);
    const table = Array.from(new Uint32Array((m.table as Float32Array).slice().buffer));
    const pooled = Array.from({ length: 4 }, () => createStaticKernel(m));
    const scalar = Array.from({ length: 4 }, () => createStaticKernel(plain));
    const before = coordsFilledRows();
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 4; i++) {
        // Each kernel keeps its query; each round's batch meets rows not met before.
        const q = unitQuery(10 + i, plain.dim);
        const b = batch(100 * round + i, 5000, 80);
        const n = b.lineStarts.length - 1;
        const floors = Float32Array.from({ length: n }, (_, t) => (t % 4 === 0 ? 2 : [0.3, 0.6, 0.9][(t + round + i) % 3]));
        const sumsA = new Float64Array(n * plain.dim).fill(NaN);
        const sumsB = new Float64Array(n * plain.dim).fill(NaN);
        const at = `round ${round}, kernel ${i}`;
        expect(Array.from(await pooled[i].score(b, q, floors, sumsA)), `${at}: distances`).toEqual(Array.from(await scalar[i].score(b, q, floors, sumsB)));
        expect(Array.from(sumsA), `${at}: kept sums`).toEqual(Array.from(sumsB));
      }
    }
    expect(coordsFilledRows() - before, 'rows filled in WebAssembly').toBeGreaterThan(1000);
    expect(Array.from(new Uint32Array((m.table as Float32Array).slice().buffer)), "the table's bytes").toEqual(table);
  });
});
