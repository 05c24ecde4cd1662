// The bytes of a tiny WebAssembly module (SIMD) that bounds a unit query's cosine with each row of an
// int8 matrix from the integer dot product of the query's int16 codes with the row's codes, written out
// opcode by opcode (as dots-wasm.ts):
//   ibounds(q, m, n, dim, out, rows, p): for r < n, with j.k = sum over d of m[r * dim + d] * q[d] (int32),
//     b = s t (j.k) + |δ| (s |k|) + |q| |e| + slack, and out[r] = b, or Infinity where b is NaN
// q: dim int16 at byte q; m: n * dim int8 at byte m; out: n float64 at byte out; rows: n triples of
// float64 (s, s |k|, |e|) at byte rows; p: four float64 (t, |δ|, |q|, slack) at byte p; dim a multiple
// of 16 (cosine-bounds.ts says what the terms are). Each step widens sixteen int8 lanes to two int16x8
// and takes i32x4.dot_i16x8_s with the query's lanes: eight products a step per instruction, exact (the
// caller keeps the sums inside int32). The bound is summed as cosine-bounds.ts's JavaScript summed it,
// ((s t) (j.k) + |δ| s|k|) + |q| |e| + slack, in float64 (WebAssembly fuses no multiply-add): the same floats.

import { get, mem16, op, s, set, simdModule, VOID } from '../../wasm-simd.js';

// Locals: the 7 parameters, then row, d, at (i32) and acc, v (v128).
const Q = 0; const M = 1; const N = 2; const DIM = 3; const OUT = 4; const ROWS = 5; const P = 6;
const ROW = 7; const D = 8; const AT = 9; const ACC = 10; const V = 11;

/** SIMD opcodes this module adds to wasm-simd.ts's (after the 0xfd prefix, LEB128). */
const i16x8ExtendLowI8x16S = [0x87, 0x01];
const i16x8ExtendHighI8x16S = [0x88, 0x01];
const i32x4DotI16x8S = [0xba, 0x01];
const i32x4Add = [0xae, 0x01];
const i32x4ExtractLane = [0x1b];
const V128_LOAD = [0x00];
const V128_CONST = [0x0c];
const I32_MUL = 0x6c;
const F64_LOAD = 0x2b;
const F64_STORE = 0x39;
const F64_CONST = 0x44;
const F64_MUL = 0xa2;
const F64_ADD = 0xa0;
const F64_EQ = 0x61;
const F64_CONVERT_I32_S = 0xb7;
const SELECT = 0x1b;
/** A float64 access: align 2^3, offset. */
const mem8 = (offset: number) => [3, offset];
const INFINITY = [...new Uint8Array(Float64Array.of(Infinity).buffer)];

function body(): number[] {
  const zero = [...s(V128_CONST), ...new Array(16).fill(0)];
  const qAt = (offset: number) => [...get(Q), ...get(D), op.i32Const, 1, op.i32Shl, op.i32Add, ...s(V128_LOAD), ...mem16(offset)];
  const lane = (i: number) => [...get(ACC), ...s(i32x4ExtractLane), i];
  // The row's float64 at `offset` of its triple: rows + 24 row + offset.
  const rowField = (offset: number) => [...get(ROWS), ...get(ROW), op.i32Const, 24, I32_MUL, op.i32Add, F64_LOAD, ...mem8(offset)];
  return [
    op.i32Const, 0, ...set(ROW),
    op.block, VOID,
    op.loop, VOID,
    ...get(ROW), ...get(N), op.i32GeU, op.brIf, 1,
    ...zero, ...set(ACC),
    op.i32Const, 0, ...set(D),
    op.block, VOID,
    op.loop, VOID,
    ...get(D), ...get(DIM), op.i32GeU, op.brIf, 1,
    // v = m[0..16); m += 16
    ...get(M), ...s(V128_LOAD), ...mem16(0), ...set(V),
    // acc += dot(widen(v[0..8)), q[d..d+8)) + dot(widen(v[8..16)), q[d+8..d+16))
    ...get(ACC), ...get(V), ...s(i16x8ExtendLowI8x16S), ...qAt(0), ...s(i32x4DotI16x8S), ...s(i32x4Add),
    ...get(V), ...s(i16x8ExtendHighI8x16S), ...qAt(16), ...s(i32x4DotI16x8S), ...s(i32x4Add), ...set(ACC),
    ...get(M), op.i32Const, 16, op.i32Add, ...set(M),
    ...get(D), op.i32Const, 16, op.i32Add, ...set(D),
    op.br, 0,
    op.end, op.end,
    // at = out + 8 row: the row's bound, b = ((j.k) (s t) + |δ| s|k|) + |q| |e| + slack (rows + 24 row: its s, s|k|, |e|)
    ...get(OUT), ...get(ROW), op.i32Const, 3, op.i32Shl, op.i32Add, ...set(AT),
    ...get(AT),
    ...lane(0), ...lane(1), op.i32Add, ...lane(2), op.i32Add, ...lane(3), op.i32Add, F64_CONVERT_I32_S,
    ...rowField(0), ...get(P), F64_LOAD, ...mem8(0), F64_MUL, F64_MUL,
    ...get(P), F64_LOAD, ...mem8(8), ...rowField(8), F64_MUL, F64_ADD,
    ...get(P), F64_LOAD, ...mem8(16), ...rowField(16), F64_MUL, F64_ADD,
    ...get(P), F64_LOAD, ...mem8(24), F64_ADD,
    F64_STORE, ...mem8(0),
    // out[row] = b === b ? b : Infinity
    ...get(AT), ...get(AT), F64_LOAD, ...mem8(0), F64_CONST, ...INFINITY,
    ...get(AT), F64_LOAD, ...mem8(0), ...get(AT), F64_LOAD, ...mem8(0), F64_EQ, SELECT,
    F64_STORE, ...mem8(0),
    ...get(ROW), op.i32Const, 1, op.i32Add, ...set(ROW),
    op.br, 0,
    op.end, op.end,
    op.end,
  ];
}

let bytes: Uint8Array<ArrayBuffer> | null = null;

export function boundDotsModuleBytes(): Uint8Array<ArrayBuffer> {
  return (bytes ??= simdModule('ibounds', 7, { i32s: 3, v128s: 2 }, body()));
}
