// Element decoders for safetensors dtypes: raw little-endian bytes -> float32 / int32 destinations.
// Chunked so a big table converts through one small scratch buffer, never a second full copy.

/** Bytes per element of every fixed-width dtype in the safetensors spec. */
export const DTYPE_BYTES: Readonly<Record<string, number>> = {
  BOOL: 1, U8: 1, I8: 1, F8_E5M2: 1, F8_E4M3: 1,
  I16: 2, U16: 2, F16: 2, BF16: 2,
  I32: 4, U32: 4, F32: 4,
  I64: 8, U64: 8, F64: 8,
};

export const FLOAT_TABLE_DTYPES = ['F32', 'F16', 'BF16', 'I8'] as const;
export const FLOAT_WEIGHT_DTYPES = ['F64', 'F32', 'F16', 'BF16'] as const;
export const INDEX_DTYPES = ['I32', 'I64'] as const;

let f16Table: Float32Array | null = null;

/** IEEE 754 binary16 -> number, including subnormals, infinities and NaN. */
export function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

function halfTable(): Float32Array {
  if (!f16Table) {
    f16Table = new Float32Array(65536);
    for (let h = 0; h < 65536; h++) f16Table[h] = halfToFloat(h);
  }
  return f16Table;
}

/**
 * Decodes `src` (whole elements of `dtype`, from a buffer that starts at byte 0 of its own
 * ArrayBuffer so typed views are aligned) into dst[at ...]. Assumes a little-endian host.
 */
export function decodeFloats(dtype: string, src: Uint8Array, dst: Float32Array, at: number): void {
  const { buffer, byteOffset, byteLength } = src;
  switch (dtype) {
    case 'F32':
      dst.set(new Float32Array(buffer, byteOffset, byteLength / 4), at);
      return;
    case 'F64':
      dst.set(new Float64Array(buffer, byteOffset, byteLength / 8), at);
      return;
    case 'I8':
      dst.set(new Int8Array(buffer, byteOffset, byteLength), at);
      return;
    case 'F16': {
      const table = halfTable();
      const u16 = new Uint16Array(buffer, byteOffset, byteLength / 2);
      for (let i = 0; i < u16.length; i++) dst[at + i] = table[u16[i]];
      return;
    }
    case 'BF16': {
      // bfloat16 is the top half of a float32: shift into place through an integer view of dst.
      const u16 = new Uint16Array(buffer, byteOffset, byteLength / 2);
      const out = new Uint32Array(dst.buffer, dst.byteOffset + at * 4, u16.length);
      for (let i = 0; i < u16.length; i++) out[i] = u16[i] << 16;
      return;
    }
    default:
      throw new Error(`decodeFloats: unsupported dtype ${dtype}`);
  }
}

/** Decodes I32/I64 elements into dst[at ...]; returns the index of the first value outside int32, or -1. */
export function decodeInts(dtype: string, src: Uint8Array, dst: Int32Array, at: number): number {
  const { buffer, byteOffset, byteLength } = src;
  if (dtype === 'I32') {
    dst.set(new Int32Array(buffer, byteOffset, byteLength / 4), at);
    return -1;
  }
  if (dtype === 'I64') {
    const i64 = new BigInt64Array(buffer, byteOffset, byteLength / 8);
    for (let i = 0; i < i64.length; i++) {
      const v = i64[i];
      if (v < -2147483648n || v > 2147483647n) return at + i;
      dst[at + i] = Number(v);
    }
    return -1;
  }
  throw new Error(`decodeInts: unsupported dtype ${dtype}`);
}
