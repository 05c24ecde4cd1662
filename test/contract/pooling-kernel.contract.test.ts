// One contract for every PoolingKernel (static, onnx): same synthetic models and batches, checked
// against a float64 reference pooler written here, against each other, and across batch splits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PoolingKernel } from '../../src/embed/embedder.js';
import { createOnnxKernel } from '../../src/embed/onnx.js';
import { createStaticKernel, sumDistance } from '../../src/embed/static.js';
import type { ModelData, TokenizedBatch } from '../../src/types.js';
import { mulberry32 as rng } from '../helpers/seeded.js';

const TOL = 1e-5;

const implementations: Array<{ name: string; create(m: ModelData): Promise<PoolingKernel> }> = [
  { name: 'static', create: async (m) => createStaticKernel(m) },
  { name: 'onnx', create: (m) => createOnnxKernel(m) },
  // Tiny runs and row cache: many padded chunks per batch, constant evictions, a line that outgrows the cache.
  { name: 'onnx (7 cells per run, 8-row cache)', create: (m) => createOnnxKernel(m, { maxCellsPerRun: 7, rowCacheRows: 8 }) },
];

function shared<T extends Float32Array | Int32Array>(Ctor: new (b: SharedArrayBuffer) => T, n: number): T {
  return new Ctor(new SharedArrayBuffer(n * 4));
}

const VOCAB = 1000;
const DIM = 16;

function syntheticModel(opts: { seed: number; normalize: boolean; quantizedRows?: number }): ModelData {
  const rand = rng(opts.seed);
  const rows = opts.quantizedRows ?? VOCAB;
  const table = shared(Float32Array, rows * DIM);
  for (let i = 0; i < table.length; i++) table[i] = rand() * 2 - 1;
  const model: ModelData = {
    id: `synthetic-${opts.seed}`, dir: '/nonexistent', tokenizerPath: '/nonexistent/tokenizer.json',
    table, rows, dim: DIM, normalize: opts.normalize, maxLength: 512, unkId: null,
  };
  if (opts.quantizedRows !== undefined) {
    model.mapping = shared(Int32Array, VOCAB);
    model.weights = shared(Float32Array, VOCAB);
    for (let id = 0; id < VOCAB; id++) {
      model.mapping[id] = Math.floor(rand() * rows);
      model.weights[id] = 0.1 + rand() * 2;
    }
  }
  return model;
}

const models: Array<[string, ModelData]> = [
  ['plain, normalized', syntheticModel({ seed: 1, normalize: true })],
  ['mapping + weights, normalized', syntheticModel({ seed: 2, normalize: true, quantizedRows: 300 })],
  ['plain, not normalized', syntheticModel({ seed: 3, normalize: false })],
  ['mapping + weights, not normalized', syntheticModel({ seed: 4, normalize: false, quantizedRows: 50 })],
];

function toBatch(lines: number[][]): TokenizedBatch {
  const lineStarts = new Uint32Array(lines.length + 1);
  lines.forEach((l, i) => { lineStarts[i + 1] = lineStarts[i] + l.length; });
  return { ids: Int32Array.from(lines.flat()), lineStarts };
}

/** Mixed lengths, empty lines (first, middle, last), repeats, one long line, both vocab ends. */
function syntheticLines(seed: number): number[][] {
  const rand = rng(seed);
  const lines: number[][] = [[]];
  for (let i = 0; i < 60; i++) {
    const len = i % 9 === 4 ? 0 : 1 + Math.floor(rand() * 20);
    lines.push(Array.from({ length: len }, () => Math.floor(rand() * VOCAB)));
  }
  lines.push([7, 7, 7, 7], [0, VOCAB - 1], Array.from({ length: 300 }, (_, t) => (t * 37) % VOCAB), []);
  return lines;
}

function unitQuery(seed: number, inShared = false): Float32Array {
  const rand = rng(seed);
  const q = inShared ? shared(Float32Array, DIM) : new Float32Array(DIM);
  let sq = 0;
  for (let d = 0; d < DIM; d++) { q[d] = rand() * 2 - 1; sq += q[d] * q[d]; }
  for (let d = 0; d < DIM; d++) q[d] /= Math.sqrt(sq);
  return q;
}

/** The model2vec definition, spelled out in float64. */
function referenceEmbed(m: ModelData, line: number[]): number[] {
  const v = new Array<number>(m.dim).fill(0);
  if (line.length === 0) return v;
  for (const id of line) {
    const row = m.mapping ? m.mapping[id] : id;
    const w = m.weights ? m.weights[id] : 1;
    for (let d = 0; d < m.dim; d++) v[d] += (w * m.table[row * m.dim + d]) / line.length;
  }
  if (!m.normalize) return v;
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

function referenceScore(m: ModelData, line: number[], q: Float32Array): number {
  if (line.length === 0) return NaN;
  const v = referenceEmbed(m, line);
  const dot = v.reduce((s, x, d) => s + x * q[d], 0);
  return 1 - dot / (Math.hypot(...v) * Math.hypot(...q));
}

function expectClose(actual: Float32Array, expected: ArrayLike<number>, what: string): void {
  expect(actual.length, `${what}: length`).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) {
    const e = expected[i];
    if (Number.isNaN(e)) expect(actual[i], `${what}[${i}]`).toBeNaN();
    else expect(Math.abs(actual[i] - e), `${what}[${i}] = ${actual[i]}, expected ${e}`).toBeLessThanOrEqual(TOL);
  }
}

/** Runs `fn` on consecutive slices of the lines and concatenates the per-line results. */
async function inSlices(lines: number[][], sizes: number[], width: number,
  fn: (b: TokenizedBatch) => Promise<Float32Array>): Promise<Float32Array> {
  const out = new Float32Array(lines.length * width);
  let at = 0;
  for (let k = 0; at < lines.length; k++) {
    const part = lines.slice(at, at + sizes[k % sizes.length]);
    out.set(await fn(toBatch(part)), at * width);
    at += part.length;
  }
  return out;
}

for (const impl of implementations) {
  describe.each(models)(`PoolingKernel contract: ${impl.name}, %s model`, (_label, model) => {
    let kernel: PoolingKernel;
    const lines = syntheticLines(11);
    const batch = toBatch(lines);
    const query = unitQuery(5);
    beforeAll(async () => { kernel = await impl.create(model); });
    afterAll(async () => { await kernel.close?.(); });

    it('reports the model dimension', () => {
      expect(kernel.dim).toBe(DIM);
      expect(kernel.id).toMatch(/\S/);
    });

    it('embed() matches the reference mean, with zero rows for empty lines', async () => {
      const out = await kernel.embed(batch);
      expectClose(out, lines.flatMap((l) => referenceEmbed(model, l)), 'embed');
      lines.forEach((l, i) => {
        if (l.length === 0) expect(Array.from(out.subarray(i * DIM, (i + 1) * DIM))).toEqual(new Array(DIM).fill(0));
      });
    });

    it('score() is 1 - cos to the query, NaN exactly for empty lines', async () => {
      const out = await kernel.score(batch, query);
      expectClose(out, lines.map((l) => referenceScore(model, l, query)), 'score');
      expect(lines.map((_, i) => Number.isNaN(out[i]))).toEqual(lines.map((l) => l.length === 0));
    });

    it('score() agrees with 1 - cos of its own embed()', async () => {
      const vecs = await kernel.embed(batch);
      const expected = lines.map((l, i) => {
        if (l.length === 0) return NaN;
        const v = vecs.subarray(i * DIM, (i + 1) * DIM);
        return 1 - v.reduce((s, x, d) => s + x * query[d], 0) / Math.hypot(...v);
      });
      expectClose(await kernel.score(batch, query), expected, 'score vs embed');
    });

    it('gives identical numbers however the lines are batched', async () => {
      const whole = await kernel.score(batch, query);
      for (const sizes of [[1], [7], [3, 17, 2]]) {
        expect(await inSlices(lines, sizes, 1, (b) => kernel.score(b, query))).toEqual(whole);
      }
      const wholeVecs = await kernel.embed(batch);
      expect(await inSlices(lines, [5, 1, 13], DIM, (b) => kernel.embed(b))).toEqual(wholeVecs);
    });

    it('with maxDistance, returns each line exactly or +Infinity only when it is provably farther', async () => {
      const exact = await kernel.score(batch, query);
      const finite = Array.from(exact).filter((d) => !Number.isNaN(d)).sort((x, y) => x - y);
      for (const maxDistance of [finite[Math.floor(finite.length / 2)], finite[2], 0.01, 2]) {
        const pruned = await kernel.score(batch, query, maxDistance);
        exact.forEach((d, i) => {
          if (pruned[i] === Infinity) expect(d, `line ${i} pruned at ${maxDistance}`).toBeGreaterThan(maxDistance);
          else expect(Object.is(pruned[i], d), `line ${i}: ${pruned[i]} vs exact ${d}`).toBe(true);
        });
      }
    });

    it('with sums, writes only rows it scored exactly, each giving that distance again (sumDistance)', async () => {
      const exact = await kernel.score(batch, query);
      const finite = Array.from(exact).filter((d) => !Number.isNaN(d)).sort((x, y) => x - y);
      const sums = new Float64Array(lines.length * DIM).fill(NaN);
      const pruned = await kernel.score(batch, query, finite[Math.floor(finite.length / 2)], sums);
      lines.forEach((_, i) => {
        const written = !Number.isNaN(sums[i * DIM]);
        // A kernel that does not pool by sums (onnx) writes none; one that does writes each exact row.
        if (written) expect(Object.is(Math.fround(sumDistance(sums, i * DIM, query)), pruned[i]), `line ${i}`).toBe(true);
        else if (impl.name === 'static') expect(Number.isNaN(pruned[i]) || pruned[i] === Infinity, `line ${i} scored but its sum not written`).toBe(true);
      });
    });

    it('with a floor per text just past or just short of its distance, never prunes a text that reaches it', async () => {
      // Chunk-like texts (48 lines' worth of tokens, repeated ids: the distinct-token path) and the lines.
      const chunks = Array.from({ length: 24 }, (_, c) => lines.slice(c % 5, (c % 5) + 6 + (c % 7)).flat());
      const texts = [...lines, ...chunks];
      const all = toBatch(texts);
      const exact = await kernel.score(all, query);
      for (const nudge of [1e-3, -1e-3, 0.05, -0.05]) {
        const floors = Float32Array.from(exact, (d) => (Number.isNaN(d) ? 0 : d + nudge));
        const pruned = await kernel.score(all, query, floors);
        exact.forEach((d, i) => {
          if (pruned[i] === Infinity) expect(d, `text ${i} pruned at ${floors[i]}`).toBeGreaterThan(floors[i]);
          else expect(Object.is(pruned[i], d), `text ${i}: ${pruned[i]} vs exact ${d}`).toBe(true);
        });
      }
    });

    it('accepts a query in a SharedArrayBuffer', async () => {
      const q = unitQuery(5, true);
      expect(await kernel.score(batch, q)).toEqual(await kernel.score(batch, query));
    });

    it('handles an empty batch and a batch of only empty lines', async () => {
      expect(await kernel.score(toBatch([]), query)).toEqual(new Float32Array(0));
      expect(await kernel.embed(toBatch([]))).toEqual(new Float32Array(0));
      expect(Array.from(await kernel.score(toBatch([[], []]), query))).toEqual([NaN, NaN]);
      expect(await kernel.embed(toBatch([[], []]))).toEqual(new Float32Array(2 * DIM));
    });
  });
}

describe.each(models)('PoolingKernel implementations agree with each other: %s model', (_label, model) => {
  const lines = syntheticLines(23);
  const batch = toBatch(lines);
  const query = unitQuery(9);

  it(`${implementations.map((i) => i.name).join(' / ')} match to ${TOL}`, async () => {
    const results = [];
    for (const impl of implementations) {
      const kernel = await impl.create(model);
      results.push({ name: impl.name, vecs: await kernel.embed(batch), scores: await kernel.score(batch, query) });
      await kernel.close?.();
    }
    const [first, ...rest] = results;
    for (const r of rest) {
      expectClose(r.vecs, first.vecs, `${r.name} vs ${first.name} embed`);
      expectClose(r.scores, first.scores, `${r.name} vs ${first.name} score`);
    }
  });
});
