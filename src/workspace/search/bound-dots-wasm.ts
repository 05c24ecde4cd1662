// The bytes of a tiny WebAssembly module (SIMD) that bounds a unit query's cosine with each row of an
// int8 matrix from the integer dot product of the query's int16 codes with the row's codes, written out
// opcode by opcode (as dots-wasm.ts):
//   ibounds(q, m, n, dim, out, rows, p): for r < n, with j.k = sum over d of m[r * dim + d] * q[d] (int32),
//     b = s t (j.k) + |δ| (s |k|) + |q| |e| + slack, and out[r] = b, or Infinity where b is NaN
// q: dim int16 at byte q; m: n * dim int8 at byte m; out: n float64 at byte out; rows: n triples of
// float64 (s, s |k|, |e|) at byte rows; p: four float64 (t, |δ|, |q|, slack) at byte p; dim a multiple
// of 16 (cosine-bounds.ts says what the terms are). Each step widens sixteen int8 lanes to two int16x8
// and takes i32x4.dot_i16x8_s with the query's lanes: eight products a step per instruction, exact (the
// caller keeps the sums inside int32). Four rows are summed a step (branch warm47: the query's two vectors
// loaded once for the four, a fourth of the loop's steps; ~0.69 -> ~0.51 ms a call over the bench tree's
// ~25,000 rows, hot), the rows left one at a time; each row's sum is its own, whatever its neighbours. The
// bound is summed as cosine-bounds.ts's JavaScript summed it, ((s t) (j.k) + |δ| s|k|) + |q| |e| + slack,
// in float64 (WebAssembly fuses no multiply-add): the same floats.

import { get, mem16, op, s, set, simdModule, VOID } from '../../wasm-simd.js';

/** Rows summed a step while that many are left: the query's lanes loaded once for all of them. */
const ROWS_A_STEP = 4;
// Locals: the 7 parameters, then row, d, at and the next rows' code addresses (i32), then v, ql, qh and
// each row's sum (v128).
const Q = 0; const M = 1; const N = 2; const DIM = 3; const OUT = 4; const ROWS = 5; const P = 6;
const ROW = 7; const D = 8; const AT = 9;
/** The code address of the step's row k (k >= 1; row 0's is M). */
const MK = (k: number) => 9 + k;
const V = 10 + ROWS_A_STEP - 1; const QL = V + 1; const QH = V + 2;
/** The sum of the step's row k. */
const ACC = (k: number) => QH + 1 + k;

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
  const lane = (acc: number, i: number) => [...get(acc), ...s(i32x4ExtractLane), i];
  // The row's float64 at `offset` of its triple: rows + 24 row + offset.
  const rowField = (offset: number) => [...get(ROWS), ...get(ROW), op.i32Const, 24, I32_MUL, op.i32Add, F64_LOAD, ...mem8(offset)];
  // acc += dot(widen(v[0..8)), ql) + dot(widen(v[8..16)), qh), v the 16 codes at the address on the stack's top.
  const step = (acc: number, lo: number[], hi: number[]) => [
    ...s(V128_LOAD), ...mem16(0), ...set(V),
    ...get(acc), ...get(V), ...s(i16x8ExtendLowI8x16S), ...lo, ...s(i32x4DotI16x8S), ...s(i32x4Add),
    ...get(V), ...s(i16x8ExtendHighI8x16S), ...hi, ...s(i32x4DotI16x8S), ...s(i32x4Add), ...set(acc),
  ];
  // out[row] = b, b = ((j.k) (s t) + |δ| s|k|) + |q| |e| + slack (rows + 24 row: its s, s|k|, |e|), or Infinity where b is NaN.
  const bound = (acc: number) => [
    ...get(OUT), ...get(ROW), op.i32Const, 3, op.i32Shl, op.i32Add, ...set(AT),
    ...get(AT),
    ...lane(acc, 0), ...lane(acc, 1), op.i32Add, ...lane(acc, 2), op.i32Add, ...lane(acc, 3), op.i32Add, F64_CONVERT_I32_S,
    ...rowField(0), ...get(P), F64_LOAD, ...mem8(0), F64_MUL, F64_MUL,
    ...get(P), F64_LOAD, ...mem8(8), ...rowField(8), F64_MUL, F64_ADD,
    ...get(P), F64_LOAD, ...mem8(16), ...rowField(16), F64_MUL, F64_ADD,
    ...get(P), F64_LOAD, ...mem8(24), F64_ADD,
    F64_STORE, ...mem8(0),
    ...get(AT), ...get(AT), F64_LOAD, ...mem8(0), F64_CONST, ...INFINITY,
    ...get(AT), F64_LOAD, ...mem8(0), ...get(AT), F64_LOAD, ...mem8(0), F64_EQ, SELECT,
    F64_STORE, ...mem8(0),
    ...get(ROW), op.i32Const, 1, op.i32Add, ...set(ROW),
  ];
  const add16 = (l: number) => [...get(l), op.i32Const, 16, op.i32Add, ...set(l)];
  const rows = Array.from({ length: ROWS_A_STEP }, (_, k) => k);
  const codesAt = (k: number) => (k === 0 ? M : MK(k));
  return [
    op.i32Const, 0, ...set(ROW),
    // ROWS_A_STEP rows a step while that many are left (row k's codes at m + k dim): the query's lanes
    // loaded once for all of them, fewer loads and loop steps a row; each row's sum and bound as one row's alone.
    op.block, VOID,
    op.loop, VOID,
    ...get(ROW), op.i32Const, ROWS_A_STEP - 1, op.i32Add, ...get(N), op.i32GeU, op.brIf, 1,
    ...rows.flatMap((k) => [...zero, ...set(ACC(k))]),
    ...rows.slice(1).flatMap((k) => [...get(codesAt(k - 1)), ...get(DIM), op.i32Add, ...set(MK(k))]),
    op.i32Const, 0, ...set(D),
    op.block, VOID,
    op.loop, VOID,
    ...get(D), ...get(DIM), op.i32GeU, op.brIf, 1,
    ...qAt(0), ...set(QL), ...qAt(16), ...set(QH),
    ...rows.flatMap((k) => [...get(codesAt(k)), ...step(ACC(k), get(QL), get(QH))]),
    ...rows.flatMap((k) => add16(codesAt(k))), ...add16(D),
    op.br, 0,
    op.end, op.end,
    ...rows.flatMap((k) => bound(ACC(k))),
    // The last row's codes end where the next step's begin.
    ...get(MK(ROWS_A_STEP - 1)), ...set(M),
    op.br, 0,
    op.end, op.end,
    // The rows left, one at a time.
    op.block, VOID,
    op.loop, VOID,
    ...get(ROW), ...get(N), op.i32GeU, op.brIf, 1,
    ...zero, ...set(ACC(0)),
    op.i32Const, 0, ...set(D),
    op.block, VOID,
    op.loop, VOID,
    ...get(D), ...get(DIM), op.i32GeU, op.brIf, 1,
    ...get(M), ...step(ACC(0), qAt(0), qAt(16)),
    ...add16(M), ...add16(D),
    op.br, 0,
    op.end, op.end,
    ...bound(ACC(0)),
    op.br, 0,
    op.end, op.end,
    op.end,
  ];
}

let bytes: Uint8Array<ArrayBuffer> | null = null;

export function boundDotsModuleBytes(): Uint8Array<ArrayBuffer> {
  return (bytes ??= simdModule('ibounds', 7, { i32s: 2 + ROWS_A_STEP, v128s: 3 + ROWS_A_STEP }, body()));
}
