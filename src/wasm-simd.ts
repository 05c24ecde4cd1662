// Writing a tiny WebAssembly SIMD module out opcode by opcode (no toolchain needed to build one): the
// encodings the kernels' modules share (embed/pool-wasm.ts, workspace/search/dots-wasm.ts), the module
// around one exported function of i32 parameters and an exported memory, and running one (compiled
// once, an instance with room for its data).

export const SIMD = 0xfd;
export const op = {
  block: 0x02, loop: 0x03, br: 0x0c, brIf: 0x0d, end: 0x0b,
  localGet: 0x20, localSet: 0x21, localTee: 0x22,
  i32Load: 0x28, f32Load: 0x2a, f64Load: 0x2b, f64Store: 0x39,
  i32Const: 0x41, i32GeU: 0x4f, i32Add: 0x6a, i32Shl: 0x74,
  f64Add: 0xa0, f64PromoteF32: 0xbb,
} as const;
/** SIMD opcodes (after the 0xfd prefix), LEB128-encoded. */
export const simd = {
  load: [0x00], store: [0x0b], const: [0x0c], shuffle: [0x0d], f64x2Splat: [0x14], f64x2ExtractLane: [0x21],
  f64x2PromoteLowF32x4: [0x5f], f64x2Add: [0xf0, 0x01], f64x2Mul: [0xf2, 0x01],
} as const;
export const VOID = 0x40;
export const I32 = 0x7f;
export const V128 = 0x7b;

export function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

/** Signed LEB128 of a small non-negative integer (i32.const's immediate). */
export function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if (n === 0 && (b & 0x40) === 0) { out.push(b); return out; }
    out.push(b | 0x80);
  }
}

export const get = (l: number) => [op.localGet, l];
export const set = (l: number) => [op.localSet, l];
export const s = (o: readonly number[]) => [SIMD, ...o];
/** A 16-byte memory access: align 2^4, offset. */
export const mem16 = (offset: number) => [4, ...uleb(offset)];
/** Lanes 8..15 of a v128 (its upper two float32) into lanes 0..7. */
export const high = () => [...s(simd.shuffle), 8, 9, 10, 11, 12, 13, 14, 15, 8, 9, 10, 11, 12, 13, 14, 15];

const name = (text: string) => [...uleb(text.length), ...Buffer.from(text, 'utf8')];
const section = (id: number, body: number[]) => [id, ...uleb(body.length), ...body];

/**
 * A module whose one function, exported as `exported`, takes `params` i32 parameters and returns
 * nothing; its locals after them are `i32s` i32 then `v128s` v128; `code` is its body (ending in `end`).
 * The module's one memory is exported as `memory`; with `sharedMemory`, it is a shared memory the
 * instance is given (imports { env: { memory } }), so threads can read one copy of a table.
 */
export function simdModule(exported: string, params: number, locals: { i32s: number; v128s: number }, code: number[], sharedMemory = false): Uint8Array<ArrayBuffer> {
  const fn = [2, ...uleb(locals.i32s), I32, ...uleb(locals.v128s), V128, ...code];
  return Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, params, ...new Array<number>(params).fill(I32), 0]),
    // sharedMemory: its memory is imported as env.memory, shared (flags 3: shared, with a maximum), any
    // size up to 4 GiB, and not exported (the caller made it).
    ...(sharedMemory ? section(2, [1, ...name('env'), ...name('memory'), 0x02, 0x03, ...uleb(1), ...uleb(65536)]) : []),
    ...section(3, [1, 0]),
    ...(sharedMemory ? [] : section(5, [1, 0, 1])),
    ...section(7, sharedMemory ? [1, ...name(exported), 0x00, 0] : [2, ...name(exported), 0x00, 0, ...name('memory'), 0x02, 0]),
    ...section(10, [1, ...uleb(fn.length), ...fn]),
  ]);
}

/** Compiles `bytes()` on the first call; null then and after where WebAssembly SIMD is missing (--jitless, an old engine). */
export function compileOnce(bytes: () => Uint8Array<ArrayBuffer>): () => WebAssembly.Module | null {
  let compiled: WebAssembly.Module | null | undefined;
  return () => {
    if (compiled === undefined) {
      try {
        compiled = new WebAssembly.Module(bytes());
      } catch {
        compiled = null;
      }
    }
    return compiled;
  };
}

/** A fresh instance of `module` whose exported memory holds at least `bytes`. */
export function instanceWith(module: WebAssembly.Module, bytes: number): { exports: WebAssembly.Exports; memory: WebAssembly.Memory } {
  const instance = new WebAssembly.Instance(module, {});
  const memory = instance.exports.memory as WebAssembly.Memory;
  const have = memory.buffer.byteLength;
  if (bytes > have) memory.grow(Math.ceil((bytes - have) / 65536));
  return { exports: instance.exports, memory };
}

/** `n` rounded up to a multiple of 16 (a v128's alignment). */
export const align16 = (n: number): number => Math.ceil(n / 16) * 16;
