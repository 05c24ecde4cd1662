// The bytes of a tiny WebAssembly module (SIMD) that adds weighted float32 rows into a float64 sum, as
// the static kernel pools a text (static.ts addRow), written out opcode by opcode (no toolchain needed):
//   pool(pairs, n, dim, acc): for j < n, acc[d] += f64(row_j[d]) * w_j for every d < dim
// pairs: n records of 16 bytes (the row's byte address at +0 as an i32, its weight at +8 as an f64);
// acc: dim float64 at byte acc; dim a multiple of 4. Each lane does what the scalar loop does: widen the
// float32 (exact), multiply by the weight and add to the sum, rounded as float64 each, rows in order, so
// the sums are the very same floats.

import { get, high, mem16, op, s, set, simd, simdModule, VOID } from '../wasm-simd.js';

// Locals: the 4 parameters, then j, m, a, d (i32) and w, v (v128).
const PAIRS = 0; const N = 1; const DIM = 2; const ACC = 3;
const J = 4; const M = 5; const A = 6; const D = 7; const W = 8; const V = 9;

function body(): number[] {
  const hi = high();
  /** The address of pair j's record: pairs + j * 16. */
  const pair = [...get(PAIRS), ...get(J), op.i32Const, 4, op.i32Shl, op.i32Add];
  const code = [
    op.i32Const, 0, ...set(J),
    op.block, VOID,
    op.loop, VOID,
    ...get(J), ...get(N), op.i32GeU, op.brIf, 1,
    // m = the row's address; w = its weight in both lanes
    ...pair, op.i32Load, 2, 0, ...set(M),
    ...pair, op.f64Load, 3, 8, ...s(simd.f64x2Splat), ...set(W),
    ...get(ACC), ...set(A),
    op.i32Const, 0, ...set(D),
    op.block, VOID,
    op.loop, VOID,
    ...get(D), ...get(DIM), op.i32GeU, op.brIf, 1,
    // v = row[d..d+4)
    ...get(M), ...s(simd.load), ...mem16(0), ...set(V),
    // acc[d..d+2) += promote(v[0..2)) * w
    ...get(A), ...get(A), ...s(simd.load), ...mem16(0),
    ...get(V), ...s(simd.f64x2PromoteLowF32x4), ...get(W), ...s(simd.f64x2Mul), ...s(simd.f64x2Add),
    ...s(simd.store), ...mem16(0),
    // acc[d+2..d+4) += promote(v[2..4)) * w
    ...get(A), ...get(A), ...s(simd.load), ...mem16(16),
    ...get(V), ...get(V), ...hi, ...s(simd.f64x2PromoteLowF32x4), ...get(W), ...s(simd.f64x2Mul), ...s(simd.f64x2Add),
    ...s(simd.store), ...mem16(16),
    ...get(M), op.i32Const, 16, op.i32Add, ...set(M),
    ...get(A), op.i32Const, 32, op.i32Add, ...set(A),
    ...get(D), op.i32Const, 4, op.i32Add, ...set(D),
    op.br, 0,
    op.end, op.end,
    ...get(J), op.i32Const, 1, op.i32Add, ...set(J),
    op.br, 0,
    op.end, op.end,
    op.end,
  ];
  return code;
}

let bytes: Uint8Array<ArrayBuffer> | null = null;
let sharedBytes: Uint8Array<ArrayBuffer> | null = null;

export function poolModuleBytes(): Uint8Array<ArrayBuffer> {
  return (bytes ??= simdModule('pool', 4, { i32s: 4, v128s: 2 }, body()));
}

/** The same function over a shared memory it imports (embed/pool-memory.ts). */
export function sharedPoolModuleBytes(): Uint8Array<ArrayBuffer> {
  return (sharedBytes ??= simdModule('pool', 4, { i32s: 4, v128s: 2 }, body(), true));
}
