// One copy of a float32 model table for every thread of a searcher to pool from in WebAssembly SIMD
// (wasm-pooler.ts): the table is moved into a shared WebAssembly memory, which the worker threads get with
// the model, and each thread's static kernel claims a scratch slot there for its sum and queue. Summing a
// scan's surviving chunks' rows was ~45% of the kernel's CPU in a cold scan of the bench tree (issue 30);
// a pooler per thread would copy the table once per thread (+30 MB each for the bench model).
import type { ModelData } from '../types.js';
import { align16 } from '../wasm-simd.js';
import { MAX_TABLE_BYTES, poolSlotBytes, sharedPoolingAvailable } from './wasm-pooler.js';

/** Kernels that can claim a slot (a searcher's in-process one and its worker threads', pools started again included); later ones pool in JavaScript. */
const SLOTS = 64;

/**
 * The model with its float32 table in a shared WebAssembly memory (`table` a view of it: the same floats,
 * no second copy once the old buffer is dropped) and slots for the threads' poolers; the model as it is
 * where that cannot be (an int8 table, dim not a multiple of 4, no WebAssembly SIMD or threads).
 */
export function withPoolMemory(model: ModelData): ModelData {
  const { table, dim } = model;
  if (model.poolMemory || !(table instanceof Float32Array) || !(dim > 0 && dim % 4 === 0) || table.length * 4 > MAX_TABLE_BYTES) return model;
  if (!sharedPoolingAvailable()) return model;
  const counterAt = align16(table.length * 4);
  const slotsAt = counterAt + 16;
  const slotBytes = poolSlotBytes(dim);
  const pages = Math.ceil((slotsAt + SLOTS * slotBytes) / 65536);
  let memory: WebAssembly.Memory;
  try {
    memory = new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true });
  } catch {
    return model;
  }
  const view = new Float32Array(memory.buffer, 0, table.length);
  view.set(table);
  return { ...model, table: view, poolMemory: { memory, counterAt, slotsAt, slotBytes, slots: SLOTS } };
}
