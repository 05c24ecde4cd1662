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
