// The prose sweep's lists in one SharedArrayBuffer of the bound's bytes, used again for every sweep made (the
// one answering at one end, the one being made at the other): a worker thread that walked a sweep holds
// references to this one buffer, never to an old sweep's own, so all it can keep alive is this buffer.
/** An end of the arena: a sweep's lists from the first byte up, or from the last byte down. */
export type ArenaEnd = 'low' | 'high';

let arena: SharedArrayBuffer | null = null;
/** The bytes in use at each end (a sweep's lists), and the most ever written there (those pages stay resident). */
const used = { low: 0, high: 0 };
const most = { low: 0, high: 0 };
/** Bytes of lists that found no room in the arena (never expected: the bound holds both sweeps), each in a buffer of its own. */
let outside = 0;

/** The arena for sweeps made under `limitBytes` (made at the first sweep; made again, empty, for another bound: tests). */
function arenaOf(limitBytes: number): SharedArrayBuffer {
  const bytes = Math.max(8, Math.ceil(limitBytes / 8) * 8);
  if (!arena || arena.byteLength !== bytes) {
    // Reserved, not written: only the pages a sweep writes become resident.
    arena = new SharedArrayBuffer(bytes);
    used.low = used.high = most.low = most.high = 0;
  }
  return arena;
}

/** A typed array's constructor over shared memory. */
export type SharedOf<T> = { new (buffer: SharedArrayBuffer, byteOffset: number, length: number): T; new (buffer: SharedArrayBuffer): T; readonly BYTES_PER_ELEMENT: number };

/**
 * Lists for a sweep made at `end` under `limitBytes` (that end freed first: the sweep there, if any, was let
 * go): each a zeroed typed array taken from that end towards the other, a buffer of its own past the room.
 */
export function listsAt(end: ArenaEnd, limitBytes: number): <T>(of: SharedOf<T>, n: number) => T {
  const buffer = arenaOf(limitBytes);
  used[end] = 0;
  const other: ArenaEnd = end === 'low' ? 'high' : 'low';
  return <T>(of: SharedOf<T>, n: number): T => {
    const bytes = Math.ceil((n * of.BYTES_PER_ELEMENT) / 8) * 8;
    if (buffer !== arena || used[end] + bytes + used[other] > buffer.byteLength) {
      outside += bytes;
      return new of(new SharedArrayBuffer(n * of.BYTES_PER_ELEMENT));
    }
    const from = used[end];
    used[end] += bytes;
    const offset = end === 'low' ? from : buffer.byteLength - from - bytes;
    // Bytes an earlier sweep wrote are zeroed; the rest were never written.
    const dirty = Math.min(used[end], most[end]) - from;
    if (dirty > 0) new Uint8Array(buffer, end === 'low' ? from : buffer.byteLength - from - dirty, dirty).fill(0);
    most[end] = Math.max(most[end], used[end]);
    return new of(buffer, offset, n);
  };
}

/** Frees an end (its sweep let go: the next sweep made there writes over it). */
export function freeEnd(end: ArenaEnd): void {
  used[end] = 0;
}

/**
 * The arena's bytes: reserved (the bound), resident at most (the pages ever written at either end, which stay
 * resident until the process ends, whoever holds the buffer), in use by the sweeps, and made outside it.
 */
export function arenaHeld(): { reservedBytes: number; writtenBytes: number; usedBytes: number; outsideBytes: number } {
  const reservedBytes = arena?.byteLength ?? 0;
  // The two ends' written pages overlap once a sweep made at one end reached past where the other's were.
  return { reservedBytes, writtenBytes: Math.min(reservedBytes, most.low + most.high), usedBytes: used.low + used.high, outsideBytes: outside };
}
