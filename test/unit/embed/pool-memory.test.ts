// A searcher's float32 table in one shared WebAssembly memory (src/embed/pool-memory.ts, issue 30: a cold
// scan's worker threads pool the surviving chunks' rows, ~45% of the kernel's CPU, and a pooler per
// thread would copy the table once per thread): every kernel made from the model, on this thread or a
// worker thread, pools in WebAssembly from that one copy, in a slot of its own, and gives the very
// floats of the scalar loop over the original table.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { poolTable, withPoolMemory } from '../../../src/embed/pool-memory.js';
import { loadModel } from '../../../src/model/load.js';
import { isSimgrepError } from '../../../src/errors.js';
import { encode, tempDir, VOCAB_SIZE, writeModelDir } from '../model/model-files.js';
import { createStaticKernel } from '../../../src/embed/static.js';
import type { ModelData, TokenizedBatch } from '../../../src/types.js';
import { mulberry32 as rng, seededModel } from '../../helpers/seeded.js';

const VOCAB = 700;
const DIST = new URL('../../../dist/src/embed/', import.meta.url).href;

const model = (seed: number, dim: number, o: { rows?: number; normalize: boolean }): ModelData => seededModel('pool-memory', seed, dim, VOCAB, o);

/** Short texts (token by token), long ones (per distinct token), one past the pooler's queue, empty ones. */
function batch(seed: number): TokenizedBatch {
  const rand = rng(seed);
  const texts: number[][] = [[]];
  for (let i = 0; i < 30; i++) texts.push(Array.from({ length: Math.floor(rand() * (i % 3 === 0 ? 600 : 31)) }, () => Math.floor(rand() * VOCAB)));
  texts.push([5, 5, 5], Array.from({ length: 5000 }, () => Math.floor(rand() * VOCAB)), []);
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

const slotsTaken = (m: ModelData) => Atomics.load(new Int32Array(m.poolMemory!.memory.buffer, m.poolMemory!.counterAt, 1), 0);

/** Scores in a worker thread with a kernel made from `m` (as a pool's worker makes it); answers its distances and the slots then taken. */
function scoreInThread(m: ModelData, b: TokenizedBatch, q: Float32Array, floors: Float32Array): Promise<{ distances: Float32Array; floored: Float32Array }> {
  const code = `
    const { workerData, parentPort } = require('node:worker_threads');
    (async () => {
      const { createStaticKernel } = await import(${JSON.stringify(`${DIST}static.js`)});
      const { m, b, q, floors } = workerData;
      const k = createStaticKernel(m);
      parentPort.postMessage({ distances: await k.score(b, q), floored: await k.score(b, q, floors) });
    })();`;
  const w = new Worker(code, { eval: true, workerData: { m, b, q, floors } });
  return new Promise((resolve, reject) => { w.once('message', (r) => { void w.terminate(); resolve(r); }); w.once('error', reject); });
}

describe("a searcher's table in a shared WebAssembly memory", () => {
  it('holds the same floats, and every kernel made from it pools there, in a slot of its own, as the scalar loop does', async () => {
    for (const [name, m] of [
      ['plain, normalized', model(1, 32, { normalize: true })],
      ['mapping + weights', model(2, 256, { rows: 300, normalize: true })],
      ['not normalized', model(3, 8, { normalize: false })],
    ] as const) {
      const shared = withPoolMemory(m);
      expect(shared.poolMemory, name).toBeDefined();
      expect(shared.table.buffer).toBe(shared.poolMemory!.memory.buffer);
      expect(Array.from(shared.table), `${name}: table`).toEqual(Array.from(m.table));
      expect(withPoolMemory(shared)).toBe(shared);

      const scalar = createStaticKernel(m);
      const here = createStaticKernel(shared);
      expect(slotsTaken(shared), `${name}: one slot per kernel`).toBe(1);
      const b = batch(11);
      const n = b.lineStarts.length - 1;
      expect(Array.from(await here.embed(b)), `${name}: embed`).toEqual(Array.from(await scalar.embed(b)));
      const q = unitQuery(5, m.dim);
      const floors = Float32Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 0.6 : 2));
      const sumsA = new Float64Array(n * m.dim).fill(NaN);
      const sumsB = new Float64Array(n * m.dim).fill(NaN);
      const want = await scalar.score(b, q, undefined, sumsB);
      expect(Array.from(await here.score(b, q, undefined, sumsA)), `${name}: distances`).toEqual(Array.from(want));
      expect(Array.from(sumsA), `${name}: kept sums`).toEqual(Array.from(sumsB));
      const wantFloored = await scalar.score(b, q, floors);
      expect(Array.from(await here.score(b, q, floors)), `${name}: with floors`).toEqual(Array.from(wantFloored));

      // A worker thread's kernel: the same memory (no copy), the next slot, the same floats.
      const there = await scoreInThread(shared, b, q, floors);
      expect(slotsTaken(shared), `${name}: the thread's slot`).toBe(2);
      expect(Array.from(there.distances), `${name}: distances in a thread`).toEqual(Array.from(want));
      expect(Array.from(there.floored), `${name}: with floors in a thread`).toEqual(Array.from(wantFloored));
    }
  });

  it('with every slot taken, a kernel pools in JavaScript: the same floats', async () => {
    const m = model(6, 64, { normalize: true });
    const shared = withPoolMemory(m);
    Atomics.store(new Int32Array(shared.poolMemory!.memory.buffer, shared.poolMemory!.counterAt, 1), 0, shared.poolMemory!.slots);
    const b = batch(7);
    const q = unitQuery(8, m.dim);
    expect(Array.from(await createStaticKernel(shared).score(b, q))).toEqual(Array.from(await createStaticKernel(m).score(b, q)));
  });

  it('leaves an int8 table, or one whose rows the module cannot step through, as it is', () => {
    const int8 = model(4, 16, { normalize: true });
    int8.table = Int8Array.from({ length: int8.rows * int8.dim }, (_, i) => (i % 200) - 100);
    expect(withPoolMemory(int8)).toBe(int8);
    const odd = model(5, 6, { normalize: true });
    expect(withPoolMemory(odd)).toBe(odd);
  });

  it('a table loadModel reads into poolTable\'s view is pooled where it was read: no copy, the same floats (F32, F16, BF16)', async () => {
    const root = await tempDir('simgrep-pool-table-');
    try {
      const rows = Array.from({ length: VOCAB_SIZE * 8 }, (_, i) => ((i * 37) % 19) / 8 - 1);
      for (const dtype of ['F32', 'F16', 'BF16']) {
        const dir = await writeModelDir(path.join(root, dtype), { tensors: { embeddings: { dtype, shape: [VOCAB_SIZE, 8], data: encode(dtype, rows) } } });
        const plain = await loadModel(dir);
        const read = await loadModel(dir, { floatTable: poolTable });
        const pooled = withPoolMemory(read);
        expect(pooled.poolMemory, dtype).toBeDefined();
        // The very array the table was read into (withPoolMemory copied it into a memory of its own before).
        expect(pooled.table, dtype).toBe(read.table);
        expect(pooled.table.buffer, dtype).toBe(pooled.poolMemory!.memory.buffer);
        expect(Array.from(pooled.table), dtype).toEqual(Array.from(plain.table));
        const b = { ids: Int32Array.from({ length: 40 }, (_, i) => (i * 5) % VOCAB_SIZE), lineStarts: Uint32Array.from([0, 3, 3, 17, 40]) };
        const q = unitQuery(9, 8);
        expect(Array.from(await createStaticKernel(pooled).score(b, q)), dtype).toEqual(Array.from(await createStaticKernel(plain).score(b, q)));
      }
      // A table that cannot be pooled (rows of 3 floats) is read as before, into a buffer of its own.
      const odd = await loadModel(await writeModelDir(path.join(root, 'odd')), { floatTable: poolTable });
      expect(odd.table.buffer).toBeInstanceOf(SharedArrayBuffer);
      expect(withPoolMemory(odd)).toBe(odd);
      // A view of the wrong length is refused, not read past.
      const wrong = await loadModel(path.join(root, 'F32'), { floatTable: () => new Float32Array(new SharedArrayBuffer(16)) }).catch((e: unknown) => e);
      expect(isSimgrepError(wrong) && wrong.code).toBe('INTERNAL');
      // So is one of the right length the worker threads could not share.
      const unshared = await loadModel(path.join(root, 'F32'), { floatTable: (n) => new Float32Array(n) }).catch((e: unknown) => e);
      expect(isSimgrepError(unshared) && unshared.code).toBe('INTERNAL');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
