// A growable Int32Array of token ids that tokenizers append into, so the hot path allocates nothing
// per line: callers keep one buffer per batch and read ids[0, length).

export interface IdBuffer {
  ids: Int32Array;
  length: number;
}

export function createIdBuffer(capacity = 1024): IdBuffer {
  return { ids: new Int32Array(Math.max(16, capacity)), length: 0 };
}

/** Makes room for `extra` more ids after `buf.length` (may replace `buf.ids`). */
export function reserveIds(buf: IdBuffer, extra: number): void {
  const need = buf.length + extra;
  if (need <= buf.ids.length) return;
  let cap = buf.ids.length * 2;
  while (cap < need) cap *= 2;
  const next = new Int32Array(cap);
  next.set(buf.ids.subarray(0, buf.length));
  buf.ids = next;
}

/** Appends ids (a memo value or model output) after making room for them. */
export function pushIds(buf: IdBuffer, src: ArrayLike<number>): void {
  const n = src.length;
  reserveIds(buf, n);
  const ids = buf.ids;
  let at = buf.length;
  for (let i = 0; i < n; i++) ids[at++] = src[i];
  buf.length = at;
}
