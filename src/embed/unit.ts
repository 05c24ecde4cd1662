// Unit-length vectors: queries and index rows are scaled once so a cosine is one dot product.

/** Scales v to unit length; false when it is the zero vector (left as it is). */
export function normalizeInPlace(v: Float32Array): boolean {
  let sq = 0;
  for (let i = 0; i < v.length; i++) sq += v[i] * v[i];
  if (!(sq > 0)) return false;
  const inv = 1 / Math.sqrt(sq);
  for (let i = 0; i < v.length; i++) v[i] *= inv;
  return true;
}

/** Scales each dim-long row of v to unit length (zero rows stay zero); returns v. */
export function unitRows(v: Float32Array, dim: number): Float32Array {
  for (let base = 0; base < v.length; base += dim) normalizeInPlace(v.subarray(base, base + dim));
  return v;
}

/** Whether two vectors hold the same floats (a query met again: its worked-out state is kept for it). */
export function sameFloats(a: Float32Array, b: Float32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
