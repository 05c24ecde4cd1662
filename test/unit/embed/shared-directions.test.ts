// The static kernel's pruning directions shared by a searcher's threads (src/embed/shared-directions.ts,
// issue 30: each worker thread worked out the same directions on the agent's first search, ~60-100 ms of
// CPU each): the first thread computes them into the slot, another thread then reads the very same floats
// without computing, one that comes while they are computed waits for them, and a kernel fills the slot
// the searcher's other kernels read; a warming searcher (an MCP engine before its agent's first question)
// has them worked out on a worker thread before any search.
import { Worker } from 'node:worker_threads';
import { beforeAll, describe, expect, it } from 'vitest';
import { principalDirections } from '../../../src/embed/prune-basis.js';
import { directionsSlot, sharedDirections } from '../../../src/embed/shared-directions.js';
import { createStaticKernel, withSharedDirections } from '../../../src/embed/static.js';
import { loadModel } from '../../../src/model/load.js';
import { bundledModelDir } from '../../../src/model/default-model.js';
import type { DirectionsSlot, ModelData } from '../../../src/types.js';
import { prunedProbe } from '../../helpers/pruned-probe.js';
import { createPool } from '../../../src/pool.js';
import { createInProcessExecutor } from '../../../src/in-process.js';
import { createSearcher } from '../../../src/searcher.js';
import { executorOf } from '../../../src/searcher/seams.js';

const M = 24;
const DIST = new URL('../../../dist/src/embed/', import.meta.url).href;

/** Runs sharedDirections in a worker thread over the model; answers whether it computed them, and what it got. */
function inThread(model: ModelData, slot: DirectionsSlot, started?: Int32Array): Promise<{ computed: boolean; dirs: Float64Array[] }> {
  const code = `
    const { workerData, parentPort } = require('node:worker_threads');
    (async () => {
      const { sharedDirections } = await import(${JSON.stringify(`${DIST}shared-directions.js`)});
      const { principalDirections } = await import(${JSON.stringify(`${DIST}prune-basis.js`)});
      const { model, slot, started, m } = workerData;
      if (started) { Atomics.store(started, 0, 1); Atomics.notify(started, 0); }
      let computed = false;
      const dirs = sharedDirections(slot, m, model.dim, () => { computed = true; return principalDirections(model, m); });
      parentPort.postMessage({ computed, dirs });
    })();`;
  const w = new Worker(code, { eval: true, workerData: { model, slot, started, m: M } });
  return new Promise((resolve, reject) => { w.once('message', (r) => { void w.terminate(); resolve(r); }); w.once('error', reject); });
}

const bits = (dirs: Float64Array[]) => dirs.map((d) => [...new BigUint64Array(d.buffer, d.byteOffset, d.length)]);

describe('shared pruning directions', () => {
  let model: ModelData;
  let expected: Float64Array[];
  beforeAll(async () => {
    model = await loadModel(bundledModelDir());
    expected = principalDirections(model, M);
  });

  it('are computed by the first thread; another reads the very same floats without computing', async () => {
    const slot = directionsSlot(M, model.dim);
    const first = await inThread(model, slot);
    expect(first.computed).toBe(true);
    let computed = false;
    const here = sharedDirections(slot, M, model.dim, () => { computed = true; return principalDirections(model, M); });
    expect(computed).toBe(false);
    expect(bits(here)).toEqual(bits(expected));
    expect(bits(first.dirs)).toEqual(bits(expected));
  });

  it('a worker that comes while another thread computes them waits for its floats', async () => {
    const slot = directionsSlot(M, model.dim);
    // This thread takes the slot, as a computing thread does, and a worker asks meanwhile.
    expect(sharedDirections(slot, M, model.dim, () => {
      expect(Atomics.compareExchange(slot.state, 0, 1, 1)).toBe(1); // COMPUTING while compute runs
      return expected;
    })).toBe(expected);
    const waiting = directionsSlot(M, model.dim);
    Atomics.store(waiting.state, 0, 1);
    const started = new Int32Array(new SharedArrayBuffer(4));
    const answer = inThread(model, waiting, started);
    while (Atomics.load(started, 0) === 0) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 50));
    expected.forEach((d, j) => waiting.values.set(d, j * model.dim));
    Atomics.store(waiting.state, 1, expected.length);
    Atomics.store(waiting.state, 0, 2);
    Atomics.notify(waiting.state, 0);
    const r = await answer;
    expect(r.computed).toBe(false);
    expect(bits(r.dirs)).toEqual(bits(expected));
  });

  it('a slot made for other sizes, or none, is not used', () => {
    let calls = 0;
    const compute = () => { calls++; return expected; };
    sharedDirections(undefined, M, model.dim, compute);
    sharedDirections(directionsSlot(M - 1, model.dim), M, model.dim, compute);
    expect(calls).toBe(2);
  });

  it("a searcher's kernel fills the slot its other threads read, and scores as a kernel without one", async () => {
    const shared = withSharedDirections(model);
    const { query, batch } = prunedProbe(model);
    const withSlot = await createStaticKernel(shared).score(batch, query, 0.5);
    expect(Atomics.load(shared.pruneDirections!.state, 0)).toBe(2);
    expect(Atomics.load(shared.pruneDirections!.state, 1)).toBe(expected.length);
    let computed = false;
    expect(bits(sharedDirections(shared.pruneDirections, M, model.dim, () => { computed = true; return expected; }))).toEqual(bits(expected));
    expect(computed).toBe(false);
    expect([...withSlot]).toEqual([...await createStaticKernel(model).score(batch, query, 0.5)]);
  });

  it('a warming searcher has a worker thread fill the slot before any search, and its kernels then compute none', async () => {
    const shared = withSharedDirections(model);
    const pool = createPool({ model: shared, kind: 'static', threads: 2 });
    try {
      expect(Atomics.load(shared.pruneDirections!.state, 0)).toBe(0);
      await pool.prepareBound();
      expect(Atomics.load(shared.pruneDirections!.state, 0)).toBe(2);
      let computed = false;
      expect(bits(sharedDirections(shared.pruneDirections, M, model.dim, () => { computed = true; return expected; }))).toEqual(bits(expected));
      expect(computed).toBe(false);
    } finally {
      await pool.close();
    }
    // In process (a searcher with no worker threads), the kernel fills it the same way.
    const local = withSharedDirections(model);
    const inProcess = await createInProcessExecutor(local, 'static');
    await inProcess.prepareBound();
    expect(Atomics.load(local.pruneDirections!.state, 0)).toBe(2);
    expect(bits(sharedDirections(local.pruneDirections, M, model.dim, () => expected))).toEqual(bits(expected));
    await inProcess.close();
  });

  it('a searcher that warms up asks its pool to work them out before its first search', async () => {
    const searcher = createSearcher({ model: bundledModelDir(), concurrency: 1 });
    try {
      // The searcher's own pool (made once), its prepareBound counted and awaited.
      const pool = await executorOf(searcher, true);
      const prepare = pool.prepareBound.bind(pool);
      const asked: Promise<void>[] = [];
      pool.prepareBound = () => { const p = prepare(); asked.push(p); return p; };
      await searcher.warm();
      expect(asked.length).toBe(1);
      await Promise.all(asked);
    } finally {
      await searcher.close();
    }
  });
});
