// IEEE 754 half precision, for vectors at rest (Node 20 has no Float16Array). Round to nearest even;
// the largest relative error of a normal value is 2^-11.

export const FLOAT16_RELATIVE_ERROR = 2 ** -11;

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

export function toFloat16(v: Float32Array): Uint16Array {
  return toFloat16Into(v, new Uint16Array(v.length), 0);
}

/** Rounds `v` into `out` from index `at` (rows go into one array). */
export function toFloat16Into(v: Float32Array, out: Uint16Array, at: number): Uint16Array {
  for (let i = 0; i < v.length; i++) out[at + i] = halfBits(v[i]);
  return out;
}

let table: Float32Array | null = null;

export function fromFloat16(h: Uint16Array): Float32Array {
  return fromFloat16Into(h, new Float32Array(h.length), 0);
}

/** Every float16 value, indexed by its bits (a snapshot's vectors are read through it). */
export function halfValues(): Float32Array {
  return (table ??= halfTable());
}

/** Widens `h` into `out` from index `at`. */
export function fromFloat16Into(h: Uint16Array, out: Float32Array, at: number): Float32Array {
  const t = halfValues();
  for (let i = 0; i < h.length; i++) out[at + i] = t[h[i]];
  return out;
}

function halfBits(x: number): number {
  f32[0] = x;
  const b = u32[0];
  const sign = (b >>> 16) & 0x8000;
  const exp = (b >>> 23) & 0xff;
  const mant = b & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    const m = mant | 0x800000;
    const shift = 14 - e;
    let half = m >>> shift;
    const rest = m & ((1 << shift) - 1);
    const mid = 1 << (shift - 1);
    if (rest > mid || (rest === mid && (half & 1))) half++;
    return sign | half;
  }
  let half = (e << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && (half & 1))) half++;
  return sign | half;
}

/**
 * Every half's value, by its bits: a normal half's float32 bits are its own with the exponent
 * rebased and the mantissa shifted (a 65,536-entry table in about a millisecond, where computing each
 * value took 20 ms of a cold search); subnormals are computed.
 */
function halfTable(): Float32Array {
  const t = new Float32Array(65536);
  const bits = new Uint32Array(t.buffer);
  for (let h = 0; h < 65536; h++) {
    const exp = (h >>> 10) & 0x1f;
    if (exp === 0) { t[h] = halfValue(h); continue; }
    const sign = (h & 0x8000) << 16;
    const mant = (h & 0x3ff) << 13;
    bits[h] = (exp === 0x1f ? sign | 0x7f800000 | mant : sign | ((exp + 112) << 23) | mant) >>> 0;
  }
  return t;
}

function halfValue(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >>> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 0x1f) return mant ? NaN : sign * Infinity;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}
