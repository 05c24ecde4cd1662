// The static kernel's pooling (a text's weighted row sum) in WebAssembly SIMD (pool-wasm.ts) (issue 30:
// summing the rows of a warm search's ~60 new candidate chunks was ~12 ms of a resident process's main
// thread, and of a cold scan's surviving chunks ~45% of its kernel's CPU). A searcher's threads pool over
// one shared memory holding the table (pool-memory.ts, sharedWasmPooler); a kernel made without it copies
// the table into its own instance's memory in the background, a slice per turn of the event loop (until
// then, and where WebAssembly SIMD is missing, the scalar loop pools). All give the same floats (pool-wasm.ts).
import type { PoolMemory } from '../types.js';
import { align16, compileOnce, instanceWith } from '../wasm-simd.js';
import { poolModuleBytes, sharedPoolModuleBytes } from './pool-wasm.js';
import { coordsScratchBytes } from './coords-wasm.js';

/** Adds weighted table rows into `acc`, in the order pushed (flush() before reading `acc`). */
export interface WasmPooler {
  /** dim float64 in the instance's memory: the sum. */
  readonly acc: Float64Array;
  /** Queues row `row` of the table (after the model's mapping) with weight `w`. */
  push(row: number, w: number): void;
  /** Adds the queued rows to `acc`. */
  flush(): void;
  /** A pooler in a shared memory's slot: where the rest of its slot begins (coordsScratchBytes(dim), its thread's alone: coords-wasm.ts). */
  readonly scratchAt?: number;
}

/** Rows queued before they are added (16 bytes each). */
const PAIRS = 4096;
/** Floats of the table copied per turn of the event loop (4 MB, ~1 ms). */
const SLICE_FLOATS = 1 << 20;
/** A table bigger than this is not copied (32-bit memory, and the copy would cost more than it saves). */
export const MAX_TABLE_BYTES = 1 << 30;

const compiled = compileOnce(poolModuleBytes);
const compiledShared = compileOnce(sharedPoolModuleBytes);

/** Whether a pooler can work over a shared memory here (WebAssembly SIMD and threads). */
export function sharedPoolingAvailable(): boolean {
  return compiledShared() !== null;
}

/** Bytes of one thread's scratch in a shared memory: its sum, then its queued rows, then its kernel's coordinates scratch (coords-wasm.ts). */
export function poolSlotBytes(dim: number): number {
  return align16(dim * 8) + PAIRS * 16 + coordsScratchBytes(dim);
}

/**
 * A pooler over a searcher's shared memory (pool-memory.ts: the table at byte 0), in a scratch slot of
 * its own: no copy of the table. Null where it cannot be made (no SIMD, dim not a multiple of 4, every
 * slot taken): the scalar loop then pools.
 */
export function sharedWasmPooler(pm: PoolMemory, dim: number): WasmPooler | null {
  if (!(dim > 0 && dim % 4 === 0)) return null;
  const module = compiledShared();
  if (!module) return null;
  const slot = Atomics.add(new Int32Array(pm.memory.buffer, pm.counterAt, 1), 0, 1);
  if (slot >= pm.slots) return null;
  const accAt = pm.slotsAt + slot * pm.slotBytes;
  const instance = new WebAssembly.Instance(module, { env: { memory: pm.memory } });
  const pairsAt = accAt + align16(dim * 8);
  return poolerOn(instance.exports.pool as PoolFn, pm.memory, accAt, pairsAt, dim, pairsAt + PAIRS * 16);
}

type PoolFn = (pairs: number, n: number, dim: number, acc: number) => void;

/** The pooler of an instance's `pool` over `memory`: its sum at accAt (dim float64), its queue at pairsAt. */
function poolerOn(pool: PoolFn, memory: WebAssembly.Memory, accAt: number, pairsAt: number, dim: number, scratchAt?: number): WasmPooler {
  const acc = new Float64Array(memory.buffer, accAt, dim);
  const pairInts = new Int32Array(memory.buffer, pairsAt, PAIRS * 4);
  const pairWeights = new Float64Array(memory.buffer, pairsAt, PAIRS * 2);
  const rowBytes = dim * 4;
  let count = 0;
  return {
    acc,
    scratchAt,
    push(row, w) {
      if (count === PAIRS) this.flush();
      pairInts[count * 4] = row * rowBytes;
      pairWeights[count * 2 + 1] = w;
      count++;
    },
    flush() {
      if (count > 0) pool(pairsAt, count, dim, accAt);
      count = 0;
    },
  };
}

/**
 * A pooler for `table` (rows of `dim` float32), made in the background; null when it cannot be made (no
 * SIMD, dim not a multiple of 4, a table too big). The timers do not keep the process alive.
 */
export async function makeWasmPooler(table: Float32Array, dim: number): Promise<WasmPooler | null> {
  if (!(dim > 0 && dim % 4 === 0) || table.length * 4 > MAX_TABLE_BYTES) return null;
  const module = compiled();
  if (!module) return null; // no WebAssembly or no SIMD: the scalar loop
  const accAt = align16(table.length * 4);
  const pairsAt = align16(accAt + dim * 8);
  const { exports, memory } = instanceWith(module, pairsAt + PAIRS * 16);
  const copy = new Float32Array(memory.buffer, 0, table.length);
  const pooler = poolerOn(exports.pool as PoolFn, memory, accAt, pairsAt, dim);
  for (let from = 0; from < table.length; from += SLICE_FLOATS) {
    await new Promise((resolve) => setTimeout(resolve, 0).unref());
    copy.set(table.subarray(from, Math.min(table.length, from + SLICE_FLOATS)), from);
  }
  return pooler;
}
