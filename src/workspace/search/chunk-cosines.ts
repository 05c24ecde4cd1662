// The cosine of a unit query with a snapshot's chunk vectors, for the candidate pass (issue 30): a
// small WebAssembly SIMD kernel over a float32 copy of the snapshot's float16 vectors (made once per
// vector array, in a resident process), ~10x the scalar loop (1.3 against 10-20 ms for 25,000 chunks).
import { halfValues } from '../packed/float16.js';
import { dotsModuleBytes } from './dots-wasm.js';

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
}

/**
 * The kernel of a vector array when it is ready; else null, and with `build` its float32 copy is made
 * soon after (a timer, off this search's path: touching ~4 bytes a dimension of new memory costs
 * ~100-250 ms on a bench tree's 25,000 chunks), for the searches after. A one-shot process passes
 * build false: its one search reads the float16 rows as they are.
 */
export function cosineKernel(halves: Uint16Array, dim: number, build: boolean): CosineKernel | null {
  const k = kernels.get(halves);
  if (k !== undefined || !build) return k ?? null;
  if (!(dim > 0 && dim % 4 === 0 && halves.length > 0) || pending.has(halves)) return null;
  pending.add(halves);
  const ref = new WeakRef(halves);
  setTimeout(() => {
    const h = ref.deref();
    if (!h) return;
    pending.delete(h);
    kernels.set(h, makeKernel(h, dim));
  }, 0).unref();
  return null;
}

/** Makes the kernel now (tests; a caller that knows it will search this array many times). */
export function cosineKernelNow(halves: Uint16Array, dim: number): CosineKernel | null {
  let k = kernels.get(halves);
  if (k === undefined) { k = dim > 0 && dim % 4 === 0 && halves.length > 0 ? makeKernel(halves, dim) : null; kernels.set(halves, k); }
  return k;
}

/** Per vector array (a snapshot patched with touched files only shares its parent's): its kernel (null: none can be made). */
const kernels = new WeakMap<Uint16Array, CosineKernel | null>();
const pending = new WeakSet<Uint16Array>();
let compiled: WebAssembly.Module | null | undefined;

/** The rows widened to float32 at byte 0 of a fresh instance's memory, the query (float64) and the output after them. */
function makeKernel(halves: Uint16Array, dim: number): CosineKernel | null {
  if (compiled === undefined) {
    try {
      compiled = new WebAssembly.Module(dotsModuleBytes());
    } catch {
      compiled = null; // no WebAssembly or no SIMD (--jitless, an old engine): the scalar loop
    }
  }
  if (!compiled) return null;
  const n = halves.length / dim;
  const qAt = align16(halves.length * 4);
  const outAt = align16(qAt + dim * 8);
  const bytes = outAt + n * 8;
  const instance = new WebAssembly.Instance(compiled, {});
  const memory = instance.exports.memory as WebAssembly.Memory;
  const have = memory.buffer.byteLength;
  if (bytes > have) memory.grow(Math.ceil((bytes - have) / 65536));
  widen(halves, new Float32Array(memory.buffer, 0, halves.length));
  const dots = instance.exports.dots as (q: number, m: number, n: number, dim: number, out: number) => void;
  const q = new Float64Array(memory.buffer, qAt, dim);
  const out = new Float64Array(memory.buffer, outAt, n);
  return {
    setQuery: (query) => q.set(query),
    cosines(from, to, into) {
      if (to <= from) return;
      dots(qAt, from * dim * 4, to - from, dim, outAt + from * 8);
      into.set(out.subarray(from, to), from);
    },
  };
}

function widen(h: Uint16Array, into: Float32Array): void {
  const values = halfValues();
  for (let i = 0; i < h.length; i++) into[i] = values[h[i]];
}

const align16 = (x: number) => Math.ceil(x / 16) * 16;

/** The cosine of rows [from, to) the scalar way (float16 bits read through the table of their values), into out. */
export function scalarCosines(h: Uint16Array, dim: number, query: Float32Array, from: number, to: number, out: Float64Array): void {
  const values = halfValues();
  for (let c = from, base = from * dim; c < to; c++) {
    // Eight lanes into four sums: about a fifth faster than one sum in V8.
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
    out[c] = (x0 + x1) + (x2 + x3);
  }
}
