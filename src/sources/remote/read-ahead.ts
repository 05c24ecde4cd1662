// Read-ahead for small objects: a remote GET waits on the network far longer than a local read, so
// the next few small objects of a listing are fetched while the pipeline works on the current ones.
// Bounded: at most `depth` objects of at most `maxObjectBytes` each are held ahead.

export interface ReadAheadOptions { depth: number; maxObjectBytes: number }

/** Entries as `entries` yields them, small ones with their bytes already on the way. */
export async function* readAhead<E extends { size?: number }>(
  entries: AsyncIterable<E>,
  fetch: (e: E) => Promise<Uint8Array>,
  o: ReadAheadOptions,
): AsyncGenerator<E & { prefetched?: Promise<Uint8Array> }> {
  const window: (E & { prefetched?: Promise<Uint8Array> })[] = [];
  const it = entries[Symbol.asyncIterator]();
  let done = false;
  try {
    for (;;) {
      while (!done && window.length < o.depth) {
        const next = await it.next();
        if (next.done) { done = true; break; }
        const e = next.value;
        if (e.size !== undefined && e.size <= o.maxObjectBytes) {
          const prefetched = fetch(e);
          prefetched.catch(() => {}); // rethrown when the pipeline reads it; this only marks it handled
          window.push({ ...e, prefetched });
        } else {
          window.push(e);
        }
      }
      const head = window.shift();
      if (!head) return;
      yield head;
    }
  } finally {
    if (!done) await it.return?.();
  }
}
