// The bytes of a tiny WebAssembly module (SIMD) that adds weighted float32 rows into a float64 sum, as
// the static kernel pools a text (static.ts addRow), written out opcode by opcode (no toolchain needed):
//   pool(pairs, n, dim, acc): for j < n, acc[d] += f64(row_j[d]) * w_j for every d < dim
// pairs: n records of 16 bytes (the row's byte address at +0 as an i32, its weight at +8 as an f64);
// acc: dim float64 at byte acc; dim a multiple of 4. Each lane does what the scalar loop does: widen the
// float32 (exact), multiply by the weight and add to the sum, rounded as float64 each, rows in order, so
// the sums are the very same floats.

const SIMD = 0xfd;
const op = {
  block: 0x02, loop: 0x03, br: 0x0c, brIf: 0x0d, end: 0x0b,
  localGet: 0x20, localSet: 0x21,
  i32Load: 0x28, f64Load: 0x2b,
  i32Const: 0x41, i32GeU: 0x4f, i32Add: 0x6a, i32Shl: 0x74,
} as const;
/** SIMD opcodes (after the 0xfd prefix), LEB128-encoded. */
const simd = {
  load: [0x00], store: [0x0b], shuffle: [0x0d], f64x2Splat: [0x14],
  f64x2PromoteLowF32x4: [0x5f], f64x2Add: [0xf0, 0x01], f64x2Mul: [0xf2, 0x01],
} as const;
const VOID = 0x40;
const I32 = 0x7f;
const V128 = 0x7b;

// Locals: the 4 parameters, then j, m, a, d (i32) and w, v (v128).
const PAIRS = 0; const N = 1; const DIM = 2; const ACC = 3;
const J = 4; const M = 5; const A = 6; const D = 7; const W = 8; const V = 9;

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
  // Lanes 8..15 of v (its upper two float32) into lanes 0..7.
  const high = [...s(simd.shuffle), 8, 9, 10, 11, 12, 13, 14, 15, 8, 9, 10, 11, 12, 13, 14, 15];
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
    ...get(V), ...get(V), ...high, ...s(simd.f64x2PromoteLowF32x4), ...get(W), ...s(simd.f64x2Mul), ...s(simd.f64x2Add),
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
  const locals = [2, ...uleb(4), I32, ...uleb(2), V128];
  const fn = [...locals, ...code];
  return [...uleb(fn.length), ...fn];
}

let bytes: Uint8Array<ArrayBuffer> | null = null;

export function poolModuleBytes(): Uint8Array<ArrayBuffer> {
  return (bytes ??= Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 4, I32, I32, I32, I32, 0]),
    ...section(3, [1, 0]),
    ...section(5, [1, 0, 1]),
    ...section(7, [2, ...name('pool'), 0x00, 0, ...name('memory'), 0x02, 0]),
    ...section(10, [1, ...body()]),
  ]));
}
