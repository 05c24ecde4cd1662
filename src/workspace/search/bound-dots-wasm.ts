// The bytes of a tiny WebAssembly module (SIMD) that takes the integer dot product of an int16 vector
// with each row of an int8 matrix, written out opcode by opcode (as dots-wasm.ts):
//   idots(q, m, n, dim, out): out[r] = sum over d of m[r * dim + d] * q[d], for r < n, as int32
// q: dim int16 at byte q; m: n * dim int8 at byte m; out: n int32 at byte out; dim a multiple of 16.
// Each step widens sixteen int8 lanes to two int16x8 and takes i32x4.dot_i16x8_s with the query's
// lanes: eight products a step per instruction, exact (the caller keeps the sums inside int32).

import { get, mem16, op, s, set, simdModule, VOID } from '../../wasm-simd.js';

// Locals: the 5 parameters, then row, d (i32) and acc, v (v128).
const Q = 0; const M = 1; const N = 2; const DIM = 3; const OUT = 4;
const ROW = 5; const D = 6; const ACC = 7; const V = 8;

/** SIMD opcodes this module adds to wasm-simd.ts's (after the 0xfd prefix, LEB128). */
const i16x8ExtendLowI8x16S = [0x87, 0x01];
const i16x8ExtendHighI8x16S = [0x88, 0x01];
const i32x4DotI16x8S = [0xba, 0x01];
const i32x4Add = [0xae, 0x01];
const i32x4ExtractLane = [0x1b];
const V128_LOAD = [0x00];
const V128_CONST = [0x0c];
const I32_STORE = 0x36;

function body(): number[] {
  const zero = [...s(V128_CONST), ...new Array(16).fill(0)];
  const qAt = (offset: number) => [...get(Q), ...get(D), op.i32Const, 1, op.i32Shl, op.i32Add, ...s(V128_LOAD), ...mem16(offset)];
  const lane = (i: number) => [...get(ACC), ...s(i32x4ExtractLane), i];
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
    // out[row] = the sum of acc's four lanes
    ...get(OUT), ...get(ROW), op.i32Const, 2, op.i32Shl, op.i32Add,
    ...lane(0), ...lane(1), op.i32Add, ...lane(2), op.i32Add, ...lane(3), op.i32Add,
    I32_STORE, 2, 0,
    ...get(ROW), op.i32Const, 1, op.i32Add, ...set(ROW),
    op.br, 0,
    op.end, op.end,
    op.end,
  ];
}

let bytes: Uint8Array<ArrayBuffer> | null = null;

export function boundDotsModuleBytes(): Uint8Array<ArrayBuffer> {
  return (bytes ??= simdModule('idots', 5, { i32s: 2, v128s: 2 }, body()));
}
