// Growing and joining typed arrays: the index's growable buffers (triples, tables, offsets) and the
// snapshot's appended arrays all copy into a longer array of the same type.

type Typed = Int32Array | Uint8Array | Uint16Array | Float32Array | Float64Array;

/** A copy of `a` at length `n` (at least a.length), zeros after. */
export function resized<T extends Typed>(a: T, n: number): T {
  const out = new (a.constructor as new (k: number) => T)(n);
  out.set(a);
  return out;
}

/** `a` then `b`, in a new array of a's type. */
export function joined<T extends Typed>(a: T, b: ArrayLike<number>): T {
  const out = resized(a, a.length + b.length);
  out.set(b, a.length);
  return out;
}

/** Per buffer made by `extended`: how many elements its longest view uses (the rest is spare room). */
const inUse = new WeakMap<ArrayBufferLike, number>();

/**
 * `a` at length `n` (at least a.length), zeros after a's elements. When a was made by `extended`,
 * is the longest view of its buffer and the buffer has room, the result shares a's buffer (a itself
 * still sees only its own elements): appending a few rows to a large array then costs no copy.
 * Otherwise it is a copy with an eighth more room than asked.
 */
export function extended(a: Float32Array, n: number): Float32Array {
  const at = a.byteOffset / 4;
  if (inUse.get(a.buffer) === at + a.length && (at + n) * 4 <= a.buffer.byteLength) {
    inUse.set(a.buffer, at + n);
    return new Float32Array(a.buffer, a.byteOffset, n);
  }
  const out = roomy(n);
  out.set(a);
  return out;
}

/** A zeroed array of length `n` in a buffer with an eighth more room, which `extended` grows into. */
export function roomy(n: number): Float32Array {
  const out = new Float32Array(new ArrayBuffer((n + (n >> 3)) * 4), 0, n);
  inUse.set(out.buffer, n);
  return out;
}

/** `a`, a view at the start of a `roomy` buffer, as the one `extended` grows from now on. */
export function inUseUpTo(a: Float32Array): Float32Array {
  inUse.set(a.buffer, a.byteOffset / 4 + a.length);
  return a;
}
