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

/** Arrays that `extended` grows in place. */
type Growable = Float32Array | Uint16Array;

/** Per buffer made by `extended`: how many elements its longest view uses (the rest is spare room). */
const inUse = new WeakMap<ArrayBufferLike, number>();

/**
 * `a` at length `n` (at least a.length), zeros after a's elements. When a was made by `extended`,
 * is the longest view of its buffer and the buffer has room, the result shares a's buffer (a itself
 * still sees only its own elements): appending a few rows to a large array then costs no copy.
 * Otherwise it is a copy with an eighth more room than asked.
 */
export function extended<T extends Growable>(a: T, n: number): T {
  const ctor = a.constructor as new (b: ArrayBufferLike, offset: number, length: number) => T;
  const width = a.BYTES_PER_ELEMENT;
  const at = a.byteOffset / width;
  if (inUse.get(a.buffer) === at + a.length && (at + n) * width <= a.buffer.byteLength) {
    inUse.set(a.buffer, at + n);
    return new ctor(a.buffer, a.byteOffset, n);
  }
  const out = roomy(ctor as unknown as RoomyCtor<T>, n);
  out.set(a);
  return out;
}

type RoomyCtor<T extends Growable> = { new (b: ArrayBuffer, offset: number, length: number): T; BYTES_PER_ELEMENT: number };

/** A zeroed array of length `n` in a buffer with an eighth more room, which `extended` grows into. */
function roomy<T extends Growable>(ctor: RoomyCtor<T>, n: number): T {
  const out = new ctor(new ArrayBuffer((n + (n >> 3)) * ctor.BYTES_PER_ELEMENT), 0, n);
  inUse.set(out.buffer, n);
  return out;
}

/** `a`, a view at the start of a `roomy` buffer, as the one `extended` grows from now on. */
export function inUseUpTo(a: Growable): Growable {
  inUse.set(a.buffer, a.byteOffset / a.BYTES_PER_ELEMENT + a.length);
  return a;
}
