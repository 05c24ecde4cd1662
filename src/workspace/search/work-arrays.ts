// The candidate pass's per-query work arrays, by name, reused from query to query (the pass is
// synchronous): allocating and zeroing arrays of every chunk per query costs more than the pass's reads.

const workArrays = new Map<string, Float64Array | Int32Array | Uint8Array>();

/** work's array, zero where `dirty` says the last use set it (whole arrays: a smaller view may have been used since). */
export function cleanWork<T extends Float64Array | Uint8Array>(name: string, make: new (n: number) => T, n: number, dirty: readonly number[]): T {
  const kept = workArrays.get(name) as T | undefined;
  if (kept && kept.length >= n) for (const i of dirty) kept[i] = 0;
  return work(name, make, n);
}

/** A per-query work array of n elements, reused from query to query (the work is synchronous), zeroed on request. */
export function work<T extends Float64Array | Int32Array | Uint8Array>(name: string, make: new (n: number) => T, n: number, zero = false): T {
  const kept = workArrays.get(name) as T | undefined;
  if (!kept || kept.length < n) {
    const fresh = new make(n);
    workArrays.set(name, fresh);
    return fresh;
  }
  const view = kept.subarray(0, n) as T;
  if (zero) view.fill(0);
  return view;
}
