// The pruning directions of a model (prune-basis.ts principalDirections), worked out once for all the
// threads of a search: a SharedArrayBuffer slot travels with the model to the worker threads (ModelData
// .pruneDirections); the first thread that needs the directions computes them into it, and a worker that
// comes while it does waits for its floats (tens of ms) rather than compute the same ones again. Every
// thread reads the very floats one computation gave, as each computed them before: exact.
import { isMainThread } from 'node:worker_threads';
import type { DirectionsSlot } from '../types.js';

const EMPTY = 0;
const COMPUTING = 1;
const READY = 2;
/** A thread that computes them and dies leaves the slot COMPUTING: its waiters compute their own after this long. */
const WAIT_MS = 2000;

/** An empty slot for up to `m` directions of `dim` coordinates. */
export function directionsSlot(m: number, dim: number): DirectionsSlot {
  return {
    // [state, how many directions]
    state: new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT)),
    values: new Float64Array(new SharedArrayBuffer(Math.max(1, m * dim) * Float64Array.BYTES_PER_ELEMENT)),
    m,
    dim,
  };
}

/**
 * The directions `compute` gives, from the slot when a thread already put them there; else computed
 * here (and put there for the others, when this thread is the first). Without a slot, or one made for
 * other sizes, `compute` runs. The main thread never blocks its event loop waiting: it computes its own.
 */
export function sharedDirections(slot: DirectionsSlot | undefined, m: number, dim: number, compute: () => Float64Array[]): Float64Array[] {
  if (!slot || slot.m !== m || slot.dim !== dim) return compute();
  const { state } = slot;
  if (Atomics.compareExchange(state, 0, EMPTY, COMPUTING) === EMPTY) {
    let out: Float64Array[] | null = null;
    try {
      out = compute();
      for (let j = 0; j < out.length; j++) slot.values.set(out[j], j * dim);
      Atomics.store(state, 1, out.length);
      return out;
    } finally {
      // A failed computation leaves the slot empty for the next thread to try.
      Atomics.store(state, 0, out ? READY : EMPTY);
      Atomics.notify(state, 0);
    }
  }
  if (Atomics.load(state, 0) === COMPUTING && !isMainThread) Atomics.wait(state, 0, COMPUTING, WAIT_MS);
  if (Atomics.load(state, 0) !== READY) return compute();
  const n = Atomics.load(state, 1);
  return Array.from({ length: n }, (_, j) => slot.values.slice(j * dim, (j + 1) * dim));
}
