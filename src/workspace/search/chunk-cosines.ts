// The cosine of a unit query with a snapshot's chunk vectors, for the candidate pass (issue 30): a
// small WebAssembly SIMD kernel over a float32 copy of the snapshot's float16 vectors (made once per
// vector array, in a resident process), ~10x the scalar loop (1.3 against 10-20 ms for 25,000 chunks).
import { halfValues } from '../packed/float16.js';
import { align16, compileOnce, instanceWith } from '../../wasm-simd.js';
import { dotsModuleBytes } from './dots-wasm.js';
import { emptyCosineBounds, type CosineBounds } from './cosine-bounds.js';

/**
 * Cosines of a unit query with rows of a snapshot's vectors, as float64: each the sum of the products
 * of the row's float16 values (widened exactly to float32) with the query's float32 values. A product
 * of two float32 values is exact in float64, so a cosine differs from the scalar loop's only by the
 * order of its float64 additions (~1e-16 here, far inside the candidate pass's margin on distances).
 */
export interface CosineKernel {
  /** The query the next `cosines` calls use (dim numbers). */
  setQuery(query: Float32Array): void;
  /** out[r] for rows r in [from, to). */
  cosines(from: number, to: number, out: Float64Array): void;
  /**
   * Upper bounds of those cosines (cosine-bounds.ts), at a fraction of their cost; absent where that
   * kernel does not fit (a dimension that is not a multiple of 16).
   */
  bounds?(from: number, to: number, out: Float64Array): void;
}

/**
 * The kernel of a vector array when it is ready; else null, and with `build` its float32 copy is made
 * in the background, a slice at a time (touching ~4 bytes a dimension of new memory cost 150-250 ms
 * at once for a bench tree's 25,000 chunks, which a search then waited for), for the searches after.
 * A one-shot process passes build false: its one search reads the float16 rows as they are.
 */
export function cosineKernel(halves: Uint16Array, dim: number, build: boolean): CosineKernel | null {
  const k = kernels.get(halves);
  if (k !== undefined || !build) return k ?? null;
  void cosineKernelMade(halves, dim);
  return null;
}

/**
 * Settles once the kernel of a vector array is made, its making started in the background now if it is
 * not under way (as a resident search starts it); at once where none is made (too few values). A resident
 * process starts it as it publishes a snapshot (publish.ts): started by the first search instead, it
 * left the first searches after a build without it (each chunk's cosine read from the float16 rows,
 * ~10 ms a search on the bench tree) while its slices ran inside theirs, for the seconds it took.
 */
export function cosineKernelMade(halves: Uint16Array, dim: number): Promise<void> {
  if (kernels.has(halves) || !(dim > 0 && dim % 4 === 0 && halves.length >= MIN_KERNEL_VALUES)) return Promise.resolve();
  let made = pending.get(halves);
  if (!made) {
    made = widenInBackground(new WeakRef(halves), dim);
    pending.set(halves, made);
  }
  return made;
}

/**
 * Fewer values than this (4,096 chunks of 256 dimensions) are read as they are: the scalar loop takes
 * ~2 ms or less there, not worth a copy in memory (a small tree's resident engine stays as it was).
 */
export const MIN_KERNEL_VALUES = 1 << 20;

/**
 * Values widened and quantized (cosine-bounds.ts) per turn of the event loop (~1 ms): a search that
 * comes meanwhile waits for one slice at most.
 */
const SLICE_VALUES = 1 << 16;

async function widenInBackground(ref: WeakRef<Uint16Array>, dim: number): Promise<void> {
  const first = ref.deref();
  if (!first) return;
  const k = emptyKernel(first.length, dim);
  if (!k) { kernels.set(first, null); return; }
  const total = first.length;
  for (let from = 0; from < total; from += SLICE_VALUES) {
    // A timer that does not keep the process alive: one that is done exits without the copy.
    await new Promise((resolve) => setTimeout(resolve, 0).unref());
    const h = ref.deref();
    if (!h) return; // the snapshot is gone
    widen(h, k.widened, from, Math.min(total, from + SLICE_VALUES));
    k.bounds?.quantize(h, from, Math.min(total, from + SLICE_VALUES));
  }
  const h = ref.deref();
  if (h) kernels.set(h, k.kernel);
}

/** Makes the kernel now (tests; a caller that knows it will search this array many times). */
export function cosineKernelNow(halves: Uint16Array, dim: number): CosineKernel | null {
  let k = kernels.get(halves);
  if (k === undefined) {
    const made = dim > 0 && dim % 4 === 0 && halves.length > 0 ? emptyKernel(halves.length, dim) : null;
    if (made) { widen(halves, made.widened, 0, halves.length); made.bounds?.quantize(halves, 0, halves.length); }
    k = made?.kernel ?? null;
    kernels.set(halves, k);
  }
  return k;
}

/** Per vector array (a snapshot patched with touched files only shares its parent's): its kernel (null: none can be made). */
const kernels = new WeakMap<Uint16Array, CosineKernel | null>();
/** Per vector array whose kernel is being made: its making (the promise holds the array only weakly). */
const pending = new WeakMap<Uint16Array, Promise<void>>();
const compiled = compileOnce(dotsModuleBytes);

/**
 * A kernel for `values` float16 values of rows of `dim`, before its rows are copied into `widened` (and
 * quantized into `bounds`): the rows as float32 at byte 0 of a fresh instance's memory, the query
 * (float64) and the output after them.
 */
function emptyKernel(values: number, dim: number): { kernel: CosineKernel; widened: Float32Array; bounds: CosineBounds | null } | null {
  const module = compiled();
  if (!module) return null; // no WebAssembly or no SIMD: the scalar loop
  const n = values / dim;
  const qAt = align16(values * 4);
  const outAt = align16(qAt + dim * 8);
  const { exports, memory } = instanceWith(module, outAt + n * 8);
  const dots = exports.dots as (q: number, m: number, n: number, dim: number, out: number) => void;
  const q = new Float64Array(memory.buffer, qAt, dim);
  const out = new Float64Array(memory.buffer, outAt, n);
  const bounds = emptyCosineBounds(values, dim);
  const kernel: CosineKernel = {
    setQuery: (query) => { q.set(query); bounds?.setQuery(query); },
    cosines(from, to, into) {
      if (to <= from) return;
      dots(qAt, from * dim * 4, to - from, dim, outAt + from * 8);
      // A few rows (the candidate pass asks for one term chunk's, or one file's) copied without a view made per call.
      if (to - from <= FEW_ROWS) for (let c = from; c < to; c++) into[c] = out[c];
      else into.set(out.subarray(from, to), from);
    },
  };
  if (bounds) kernel.bounds = (from, to, into) => bounds.bounds(from, to, into);
  return { kernel, widened: new Float32Array(memory.buffer, 0, values), bounds };
}

/** Rows copied one by one out of the kernel's memory (a view per call and its copy cost more for so few). */
const FEW_ROWS = 64;

function widen(h: Uint16Array, into: Float32Array, from: number, to: number): void {
  const values = halfValues();
  for (let i = from; i < to; i++) into[i] = values[h[i]];
}


/** The cosine of rows [from, to) the scalar way (float16 bits read through the table of their values), into out. */
export function scalarCosines(h: Uint16Array, dim: number, query: Float32Array, from: number, to: number, out: Float64Array): void {
  const values = halfValues();
  for (let c = from; c < to; c++) out[c] = halfCosine(h, values, c * dim, query, dim);
}

/** The dot product of a unit query and the float16 row at `at` of `h` (bits read through `values`). */
export function halfCosine(h: Uint16Array, values: Float32Array, at: number, query: Float32Array, dim: number): number {
  let base = at;
  // Eight lanes into four sums: about a fifth faster than one sum in V8 (the margin covers the order).
  let x0 = 0;
  let x1 = 0;
  let x2 = 0;
  let x3 = 0;
  let d = 0;
  for (; d + 7 < dim; d += 8, base += 8) {
    x0 += values[h[base]] * query[d] + values[h[base + 4]] * query[d + 4];
    x1 += values[h[base + 1]] * query[d + 1] + values[h[base + 5]] * query[d + 5];
    x2 += values[h[base + 2]] * query[d + 2] + values[h[base + 6]] * query[d + 6];
    x3 += values[h[base + 3]] * query[d + 3] + values[h[base + 7]] * query[d + 7];
  }
  for (; d < dim; d++, base++) x0 += values[h[base]] * query[d];
  return (x0 + x1) + (x2 + x3);
}
