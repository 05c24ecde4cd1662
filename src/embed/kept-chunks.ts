// The candidate chunks' token ids and pooled sums a resident process keeps between searches (issue 30):
// a warm search that scores a chunk an earlier one scored takes its lines' tokens from here, and its
// cosine from one dot product with the kept sum (the very floats the kernel would sum again).
// Keyed by the chunk's text identity (the index's state of its file, its first line and line count);
// one store per scorer, so per model: another model's tokens or sums are never used.

import { BoundedLru } from '../bounded-lru.js';

/** Bytes kept in all (ids, line starts, sums, 96 more per chunk): the bench's 45 queries keep 2,185 chunks, 9.6 MB. */
const KEPT_BYTES = 24 << 20;

/**
 * Bytes kept in all once a resident process warms every code chunk of its index (warm-chunks.ts): the
 * bench tree's 21,262 code chunks take 53 MB (their exact sums, 2 KB each at 256 dimensions, and keys).
 */
export const WARM_BYTES = 96 << 20;

/**
 * One chunk's lines as the model tokenized them, and its pooled sum once the kernel computed it exactly.
 * A warmed chunk (warm()) keeps its sum alone: its lines are tokenized if a search needs them (its
 * closest line to the query, for a chunk without a query term: ~7% of the bench's scored candidates).
 */
export interface KeptChunk {
  ids: Int32Array | null;
  /** Chunk-relative token start of each line, plus the end (length = lines + 1); null with `ids`. */
  lineStarts: Uint32Array | null;
  /** The kernel's weighted row sum of all the chunk's tokens (static.ts), or null until it was scored in full. */
  sum: Float64Array | null;
}

/** What chunk scoring asks of a store of chunks (kept-scoring.ts): KeptChunks, or the sums a scan's batch brings (sentSums). */
export interface ChunkStore {
  get(key: string): KeptChunk | undefined;
  set(key: string, chunk: KeptChunk): void;
}

/**
 * The kept sums a scan's batch brings along (pipeline/kept-files.ts: the chunks of files an index build of
 * this process pooled), as a store for this one request: what scoring learns is not kept (set does nothing).
 * `used`: how many of them scoring asked for (chunk scoring asks once per chunk it scores; a chunk its
 * lexical bound drops first never asks).
 */
export function sentSums(sent: { keys: string[]; sums: Float64Array }, dim: number): ChunkStore & { readonly used: number } {
  const at = new Map<string, number>();
  sent.keys.forEach((k, i) => at.set(k, i));
  let used = 0;
  return {
    get(key) {
      const i = at.get(key);
      if (i === undefined) return undefined;
      used++;
      return { ids: null, lineStarts: null, sum: sent.sums.subarray(i * dim, (i + 1) * dim) };
    },
    set() {},
    get used() { return used; },
  };
}

/** Warmed sums per page of the warm store: one buffer per 1,024 chunks, not one per chunk. */
const PAGE_CHUNKS = 1024;

/**
 * Chunks by key, least recently used dropped first once over the bound; and apart, the warmed chunks'
 * sums (warm()), packed in pages under a key -> slot map: no object per chunk for the collector to walk.
 */
export class KeptChunks {
  private readonly chunks: BoundedLru<KeptChunk>;
  /** The most one chunk may take: a chunk of very long lines would crowd out the others. */
  private readonly cap: number;
  /** Warmed chunks: slot s's sum is at pages[s / PAGE_CHUNKS], (s % PAGE_CHUNKS) * dim. */
  private readonly slots = new Map<string, number>();
  private readonly pages: Float64Array[] = [];
  /** Slots of dropped sums (dropWarmed), taken again before new ones. */
  private readonly free: number[] = [];
  /** Slots handed out so far (the next new one). */
  private used = 0;
  private dim = 0;
  private warmBytes = 0;

  constructor(limit = KEPT_BYTES, private readonly warmLimit = WARM_BYTES) {
    this.chunks = new BoundedLru(limit);
    this.cap = limit / 64;
  }

  /** A chunk kept by a search (with its tokens), else a warmed one (its sum alone: ids null). */
  get(key: string): KeptChunk | undefined {
    const chunk = this.chunks.get(key);
    if (chunk) return chunk;
    const slot = this.slots.get(key);
    if (slot === undefined) return undefined;
    const at = (slot % PAGE_CHUNKS) * this.dim;
    return { ids: null, lineStarts: null, sum: this.pages[Math.floor(slot / PAGE_CHUNKS)].subarray(at, at + this.dim) };
  }

  /** Whether a chunk is kept under `key`, leaving its recency as it is. */
  has(key: string): boolean {
    return this.slots.has(key) || this.chunks.peek(key) !== undefined;
  }

  /** Whether a chunk's exact sum is kept under `key` (warmed, or kept by a search that scored it in full). */
  hasSum(key: string): boolean {
    return this.slots.has(key) || Boolean(this.chunks.peek(key)?.value.sum);
  }

  /**
   * Drops the warmed sums whose key `stale` says no search will ask for again (a changed or removed file's:
   * warm-chunks.ts), so the store holds the index's chunks, not every state they had; their slots are
   * taken again before new ones. Returns how many went.
   */
  dropWarmed(stale: (key: string) => boolean): number {
    let dropped = 0;
    for (const [key, slot] of this.slots) {
      if (!stale(key)) continue;
      this.slots.delete(key);
      this.free.push(slot);
      this.warmBytes -= keyBytes(key);
      dropped++;
    }
    return dropped;
  }

  /** Keeps a chunk (replacing one of the same key), dropping the least recently used over the bound. */
  set(key: string, chunk: KeptChunk): void {
    this.chunks.delete(key);
    const bytes = keptBytes(key, chunk);
    if (bytes > this.cap) return;
    this.chunks.set(key, { ...chunk }, bytes);
  }

  /**
   * Keeps a warm-up's exact sum of a chunk no search scored yet (warm-chunks.ts: every code chunk of a
   * fresh index), copied into the warm store while it has room (warmLimit): false once it has not.
   */
  warm(key: string, sum: Float64Array): boolean {
    if (this.slots.has(key)) return true;
    const dim = sum.length;
    if (this.dim !== dim) {
      if (this.slots.size > 0) return false; // one model per scorer: never
      this.dim = dim;
    }
    const reused = this.free.length > 0;
    const slot = reused ? this.free[this.free.length - 1] : this.used;
    const page = Math.floor(slot / PAGE_CHUNKS);
    const bytes = keyBytes(key) + (page === this.pages.length ? PAGE_CHUNKS * dim * 8 : 0);
    if (this.warmBytes + bytes > this.warmLimit) return false;
    if (reused) this.free.pop(); else this.used++;
    if (page === this.pages.length) this.pages.push(new Float64Array(PAGE_CHUNKS * dim));
    this.pages[page].set(sum, (slot % PAGE_CHUNKS) * dim);
    this.slots.set(key, slot);
    this.warmBytes += bytes;
    return true;
  }

  /** Bytes the warmed chunks take (their pages and keys). */
  get warmedBytes(): number {
    return this.warmBytes;
  }

  /** Warmed chunks kept (their sums alone, in the pages). */
  get warmedChunks(): number {
    return this.slots.size;
  }

  get size(): number {
    return this.chunks.size + this.slots.size;
  }
}

/** What a warmed sum's key and slot take beside its page's share. */
function keyBytes(key: string): number {
  return 64 + key.length * 2;
}

function keptBytes(key: string, chunk: KeptChunk): number {
  return 96 + key.length * 2 + (chunk.ids?.byteLength ?? 0) + (chunk.lineStarts?.byteLength ?? 0) + (chunk.sum?.byteLength ?? 0);
}
