// The bytes of a tiny WebAssembly module (SIMD) that takes the dot product of a float64 vector with
// each row of a float32 matrix, written out opcode by opcode (no toolchain needed to build it):
//   dots(q, m, n, dim, out): out[r] = sum over d of f64(m[r * dim + d]) * q[d], for r < n
// q: dim float64 at byte q; m: n * dim float32 at byte m; out: n float64 at byte out; dim a multiple
// of 4. Each step widens four float32 lanes to float64 (exact) and multiplies them by the query's
// float64 lanes (exact: a product of float32 values fits in a float64), into two float64x2 sums.

import { get, high, mem16, op, s, set, simd, simdModule, VOID } from '../../wasm-simd.js';

// Locals: the 5 parameters, then row, d (i32) and acc0, acc1, v (v128).
const Q = 0; const M = 1; const N = 2; const DIM = 3; const OUT = 4;
const ROW = 5; const D = 6; const ACC0 = 7; const ACC1 = 8; const V = 9;

function body(): number[] {
  const zero = [...s(simd.const), ...new Array(16).fill(0)];
  const hi = high();
  const code = [
    op.i32Const, 0, ...set(ROW),
    op.block, VOID,
    op.loop, VOID,
    ...get(ROW), ...get(N), op.i32GeU, op.brIf, 1,
    ...zero, ...set(ACC0), ...zero, ...set(ACC1),
    op.i32Const, 0, ...set(D),
    op.block, VOID,
    op.loop, VOID,
    ...get(D), ...get(DIM), op.i32GeU, op.brIf, 1,
    // v = m[0..4); m += 16
    ...get(M), ...s(simd.load), ...mem16(0), ...set(V),
    // acc0 += promote(v[0..2)) * q[d..d+2)
    ...get(ACC0), ...get(V), ...s(simd.f64x2PromoteLowF32x4),
    ...get(Q), ...get(D), op.i32Const, 3, op.i32Shl, op.i32Add, ...s(simd.load), ...mem16(0),
    ...s(simd.f64x2Mul), ...s(simd.f64x2Add), ...set(ACC0),
    // acc1 += promote(v[2..4)) * q[d+2..d+4)
    ...get(ACC1), ...get(V), ...get(V), ...hi, ...s(simd.f64x2PromoteLowF32x4),
    ...get(Q), ...get(D), op.i32Const, 3, op.i32Shl, op.i32Add, ...s(simd.load), ...mem16(16),
    ...s(simd.f64x2Mul), ...s(simd.f64x2Add), ...set(ACC1),
    ...get(M), op.i32Const, 16, op.i32Add, ...set(M),
    ...get(D), op.i32Const, 4, op.i32Add, ...set(D),
    op.br, 0,
    op.end, op.end,
    // out[row] = (acc0 + acc1) summed over its two lanes
    ...get(OUT), ...get(ROW), op.i32Const, 3, op.i32Shl, op.i32Add,
    ...get(ACC0), ...get(ACC1), ...s(simd.f64x2Add), ...set(V),
    ...get(V), ...s(simd.f64x2ExtractLane), 0, ...get(V), ...s(simd.f64x2ExtractLane), 1, op.f64Add,
    op.f64Store, 3, 0,
    ...get(ROW), op.i32Const, 1, op.i32Add, ...set(ROW),
    op.br, 0,
    op.end, op.end,
    op.end,
  ];
  return code;
}

let bytes: Uint8Array<ArrayBuffer> | null = null;

export function dotsModuleBytes(): Uint8Array<ArrayBuffer> {
  return (bytes ??= simdModule('dots', 5, { i32s: 2, v128s: 3 }, body()));
}
