// One copy of a float32 model table for every thread of a searcher to pool from in WebAssembly SIMD
// (wasm-pooler.ts): the table is moved into a shared WebAssembly memory, which the worker threads get with
// the model, and each thread's static kernel claims a scratch slot there for its sum and queue. Summing a
// scan's surviving chunks' rows was ~45% of the kernel's CPU in a cold scan of the bench tree (issue 30);
// a pooler per thread would copy the table once per thread (+30 MB each for the bench model).
import type { ModelData, PoolMemory } from '../types.js';
import { align16 } from '../wasm-simd.js';
import { MAX_TABLE_BYTES, poolSlotBytes, sharedPoolingAvailable } from './wasm-pooler.js';

/** Kernels that can claim a slot (a searcher's in-process one and its worker threads', pools started again included); later ones pool in JavaScript. */
const SLOTS = 64;

/** The pool memories made for tables read straight into them (poolTable), by the view handed out. */
const prepared = new WeakMap<Float32Array, PoolMemory>();

/** A shared memory laid out for a float32 table of `length` floats in rows of `dim`, and slots for the threads' poolers; null where it cannot be (as withPoolMemory decides). */
function poolMemoryFor(length: number, dim: number): PoolMemory | null {
  if (!(dim > 0 && dim % 4 === 0) || length * 4 > MAX_TABLE_BYTES) return null;
  if (!sharedPoolingAvailable()) return null;
  const counterAt = align16(length * 4);
  const slotsAt = counterAt + 16;
  const slotBytes = poolSlotBytes(dim);
  const pages = Math.ceil((slotsAt + SLOTS * slotBytes) / 65536);
  try {
    return { memory: new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true }), counterAt, slotsAt, slotBytes, slots: SLOTS };
  } catch {
    return null;
  }
}

/**
 * Where loadModel reads a float32 table of `length` floats in rows of `dim` (its `floatTable` option): a view
 * of a pool memory laid out for it, so withPoolMemory then copies nothing; undefined where it could not be
 * pooled (a SharedArrayBuffer of its own then, as before). The memory is fresh: writing the table there is
 * the only time its ~7,400 pages (the bench model's 30 MB) are faulted in, where the copy touched them a
 * second time after the read's buffer (~0.1 s of the first answer's main thread, issue 30).
 */
export function poolTable(length: number, dim: number): Float32Array | undefined {
  const pool = poolMemoryFor(length, dim);
  if (!pool) return undefined;
  const view = new Float32Array(pool.memory.buffer, 0, length);
  prepared.set(view, pool);
  return view;
}

/**
 * The model with its float32 table in a shared WebAssembly memory (`table` a view of it: the same floats,
 * no second copy once the old buffer is dropped) and slots for the threads' poolers; the model as it is
 * where that cannot be (an int8 table, dim not a multiple of 4, no WebAssembly SIMD or threads). A table
 * read into poolTable's view is already there: only the memory is named.
 */
export function withPoolMemory(model: ModelData): ModelData {
  const { table, dim } = model;
  if (model.poolMemory || !(table instanceof Float32Array)) return model;
  const ready = prepared.get(table);
  if (ready && table.length * 4 <= ready.counterAt && dim > 0 && dim % 4 === 0) return { ...model, poolMemory: ready };
  const pool = poolMemoryFor(table.length, dim);
  if (!pool) return model;
  const view = new Float32Array(pool.memory.buffer, 0, table.length);
  view.set(table);
  return { ...model, table: view, poolMemory: pool };
}
