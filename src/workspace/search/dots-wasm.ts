// The bytes of a tiny WebAssembly module (SIMD) that takes the dot product of a float64 vector with
// each row of a float32 matrix, written out opcode by opcode (no toolchain needed to build it):
//   dots(q, m, n, dim, out): out[r] = sum over d of f64(m[r * dim + d]) * q[d], for r < n
// q: dim float64 at byte q; m: n * dim float32 at byte m; out: n float64 at byte out; dim a multiple
// of 4. Each step widens four float32 lanes to float64 (exact) and multiplies them by the query's
// float64 lanes (exact: a product of float32 values fits in a float64), into two float64x2 sums.

const SIMD = 0xfd;
const op = {
  block: 0x02, loop: 0x03, br: 0x0c, brIf: 0x0d, end: 0x0b,
  localGet: 0x20, localSet: 0x21, localTee: 0x22,
  i32Const: 0x41, i32GeU: 0x4f, i32Add: 0x6a, i32Shl: 0x74,
  f64Add: 0xa0, f64Store: 0x39,
} as const;
/** SIMD opcodes (after the 0xfd prefix), LEB128-encoded. */
const simd = {
  load: [0x00], const: [0x0c], shuffle: [0x0d], f64x2ExtractLane: [0x21],
  f64x2PromoteLowF32x4: [0x5f], f64x2Add: [0xf0, 0x01], f64x2Mul: [0xf2, 0x01],
} as const;
const VOID = 0x40;
const I32 = 0x7f;
const V128 = 0x7b;

// Locals: the 5 parameters, then row, d (i32) and acc0, acc1, v (v128).
const Q = 0; const M = 1; const N = 2; const DIM = 3; const OUT = 4;
const ROW = 5; const D = 6; const ACC0 = 7; const ACC1 = 8; const V = 9;

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

const name = (s: string) => [...uleb(s.length), ...Buffer.from(s, 'utf8')];
const section = (id: number, body: number[]) => [id, ...uleb(body.length), ...body];
const get = (l: number) => [op.localGet, l];
const set = (l: number) => [op.localSet, l];
const s = (o: readonly number[]) => [SIMD, ...o];
/** A 16-byte memory access: align 2^4, offset. */
const mem16 = (offset: number) => [4, ...uleb(offset)];

function body(): number[] {
  const zero = [...s(simd.const), ...new Array(16).fill(0)];
  // Lanes 8..15 of v (its upper two float32) into lanes 0..7.
  const high = [...s(simd.shuffle), 8, 9, 10, 11, 12, 13, 14, 15, 8, 9, 10, 11, 12, 13, 14, 15];
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
    ...get(ACC1), ...get(V), ...get(V), ...high, ...s(simd.f64x2PromoteLowF32x4),
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
  const locals = [2, ...uleb(2), I32, ...uleb(3), V128];
  const fn = [...locals, ...code];
  return [...uleb(fn.length), ...fn];
}

let bytes: Uint8Array<ArrayBuffer> | null = null;

export function dotsModuleBytes(): Uint8Array<ArrayBuffer> {
  return (bytes ??= Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 5, I32, I32, I32, I32, I32, 0]),
    ...section(3, [1, 0]),
    ...section(5, [1, 0, 1]),
    ...section(7, [2, ...name('dots'), 0x00, 0, ...name('memory'), 0x02, 0]),
    ...section(10, [1, ...body()]),
  ]));
}
