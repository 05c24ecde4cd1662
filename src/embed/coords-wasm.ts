// The static kernel's basis coordinates of a table row (static.ts fillCoords) in WebAssembly SIMD (issue 30:
// a first scan's workers each work out the coordinates of ~2,000-2,500 rows, 25 dot products of `dim` each,
// ~20 us a row in JavaScript once compiled and far more before). Written out opcode by opcode as
// pool-wasm.ts is:
//   fill(row, basis, out, dim): out[j] = sum over d < dim, in order, of f64(row[d]) * basis_j[d]
// row: the table row's byte address (float32); basis: the basis transposed, for each d the pairs
// (basis_2p[d], basis_2p+1[d]) as float64 (a missing last one 0); out: the sums as float64. A lane holds one
// coordinate and adds the same products in the same order as the scalar loop (widen the float32, which is
// exact, multiply, add, each rounded as float64; WebAssembly never fuses them), so each is the very same float.
import { get, mem16, op, s, set, simd, simdModule, sleb, VOID } from '../wasm-simd.js';

/** Coordinate pairs a module is made for at most (the kernel's 24 directions and the query: 25 -> 13). */
export const MAX_COORD_PAIRS = 13;

/** Bytes of a kernel's scratch for the coordinates of a model of `dim`: its transposed basis, then its sums. */
export function coordsScratchBytes(dim: number): number {
  return MAX_COORD_PAIRS * 16 * (dim + 1);
}

// Locals: the 4 parameters, then d (i32), then t and the pairs' sums (v128).
const ROW = 0; const BASIS = 1; const OUT = 2; const DIM = 3;
const D = 4; const T = 5; const SUM = 6;

function body(pairs: number): number[] {
  const code = [
    op.i32Const, 0, ...set(D),
    op.block, VOID,
    op.loop, VOID,
    ...get(D), ...get(DIM), op.i32GeU, op.brIf, 1,
    // t = f64(row[d]) in both lanes
    ...get(ROW), op.f32Load, 2, 0, op.f64PromoteF32, ...s(simd.f64x2Splat), ...set(T),
  ];
  // sum_p += t * basis[d][p]
  for (let p = 0; p < pairs; p++) {
    code.push(...get(SUM + p), ...get(T), ...get(BASIS), ...s(simd.load), ...mem16(p * 16), ...s(simd.f64x2Mul), ...s(simd.f64x2Add), ...set(SUM + p));
  }
  code.push(
    ...get(ROW), op.i32Const, 4, op.i32Add, ...set(ROW),
    // basis += pairs * 16 (at most 208: two bytes of signed LEB128)
    ...get(BASIS), op.i32Const, ...sleb(pairs * 16), op.i32Add, ...set(BASIS),
    ...get(D), op.i32Const, 1, op.i32Add, ...set(D),
    op.br, 0,
    op.end, op.end,
  );
  for (let p = 0; p < pairs; p++) code.push(...get(OUT), ...get(SUM + p), ...s(simd.store), ...mem16(p * 16));
  code.push(op.end);
  return code;
}

/** The module for `pairs` coordinate pairs, over a shared memory it imports (pool-memory.ts). */
export function coordsModuleBytes(pairs: number): Uint8Array<ArrayBuffer> {
  return simdModule('fill', 4, { i32s: 1, v128s: 1 + pairs }, body(pairs), true);
}

const modules = new Map<number, WebAssembly.Module | null>();
function moduleFor(pairs: number): WebAssembly.Module | null {
  let m = modules.get(pairs);
  if (m === undefined) {
    try { m = new WebAssembly.Module(coordsModuleBytes(pairs)); } catch { m = null; }
    modules.set(pairs, m);
  }
  return m;
}

/** Fills rows' basis coordinates from a table at byte 0 of a shared memory. */
export interface CoordsFiller {
  /**
   * Takes the basis of the coordinates filled next (k vectors of dim); false (fill is then not to be called)
   * where k is more than it can hold, a vector is not of length dim, or the module for k will not compile.
   */
  setBasis(basis: Float64Array[]): boolean;
  /** coords[at + j] = row `row`'s coordinate j, as float32, for each of the basis' k vectors. */
  fill(row: number, coords: Float32Array, at: number): void;
}

/**
 * A filler over `memory` (the table's float32 rows of `dim` at byte 0) with its scratch at `scratchAt`
 * (coordsScratchBytes(dim) bytes that are this thread's alone); null where WebAssembly SIMD is missing.
 */
export function sharedCoordsFiller(memory: WebAssembly.Memory, scratchAt: number, dim: number): CoordsFiller | null {
  if (moduleFor(1) === null) return null;
  const fns = new Map<number, FillFn>();
  let fn: FillFn | null = null;
  let k = 0;
  let pairs = 0;
  const outAt = scratchAt + MAX_COORD_PAIRS * 16 * dim;
  const out = new Float64Array(memory.buffer, outAt, MAX_COORD_PAIRS * 2);
  const rowBytes = dim * 4;
  return {
    setBasis(basis) {
      if (basis.length > MAX_COORD_PAIRS * 2 || basis.some((b) => b.length !== dim)) return false;
      k = basis.length;
      pairs = Math.max(1, Math.ceil(k / 2));
      const t = new Float64Array(memory.buffer, scratchAt, pairs * 2 * dim);
      for (let d = 0; d < dim; d++) {
        for (let j = 0; j < pairs * 2; j++) t[d * pairs * 2 + j] = j < k ? basis[j][d] : 0;
      }
      fn = fns.get(pairs) ?? null;
      if (fn === null) {
        const module = moduleFor(pairs);
        if (module === null) return false;
        fn = new WebAssembly.Instance(module, { env: { memory } }).exports.fill as FillFn;
        fns.set(pairs, fn);
      }
      return true;
    },
    fill(row, coords, at) {
      filled++;
      fn!(row * rowBytes, scratchAt, outAt, dim);
      for (let j = 0; j < k; j++) coords[at + j] = out[j];
    },
  };
}

/** Rows this thread's fillers have filled (tests). */
let filled = 0;
export function coordsFilledRows(): number {
  return filled;
}

type FillFn = (row: number, basis: number, out: number, dim: number) => void;
