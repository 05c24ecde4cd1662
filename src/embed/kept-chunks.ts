// The candidate chunks' token ids and pooled sums a resident process keeps between searches (issue 30):
// a warm search that scores a chunk an earlier one scored takes its lines' tokens from here, and its
// cosine from one dot product with the kept sum (the very floats the kernel would sum again).
// Keyed by the chunk's text identity (the index's state of its file, its first line and line count);
// one store per scorer, so per model: another model's tokens or sums are never used.

import { BoundedLru } from '../bounded-lru.js';

/** Bytes kept in all (ids, line starts, sums, 96 more per chunk): the bench's 45 queries keep 2,185 chunks, 9.6 MB. */
const KEPT_BYTES = 24 << 20;

/**
 * Bytes kept in all once a resident process warms every code chunk of its index (warmChunks): the bench
 * tree's 21,262 code chunks take ~XX MB (their ids as 16-bit, their exact sums 2 KB each at 256 dimensions).
 */
export const WARM_BYTES = 128 << 20;

/** One chunk's lines as the model tokenized them, and its pooled sum once the kernel computed it exactly. */
export interface KeptChunk {
  /** 16-bit when every id of the model fits (a vocabulary under 65,536): half the bytes. */
  ids: Int32Array | Uint16Array;
  /** Chunk-relative token start of each line, plus the end (length = lines + 1). */
  lineStarts: Uint32Array;
  /** The kernel's weighted row sum of all the chunk's tokens (static.ts), or null until it was scored in full. */
  sum: Float64Array | null;
}

/** Chunks by key, least recently used dropped first once over the bound. */
export class KeptChunks {
  private readonly chunks: BoundedLru<KeptChunk>;
  /** The most one chunk may take: a chunk of very long lines would crowd out the others. */
  private readonly cap: number;

  constructor(limit = KEPT_BYTES) {
    this.chunks = new BoundedLru(limit);
    this.cap = limit / 64;
  }

  get(key: string): KeptChunk | undefined {
    return this.chunks.get(key);
  }

  /** Whether a chunk is kept under `key`, leaving its recency as it is. */
  has(key: string): boolean {
    return this.chunks.peek(key) !== undefined;
  }

  /** Keeps a chunk (replacing one of the same key), dropping the least recently used over the bound. */
  set(key: string, chunk: KeptChunk): void {
    this.chunks.delete(key);
    const bytes = keptBytes(key, chunk);
    if (bytes > this.cap) return;
    this.chunks.set(key, { ...chunk }, bytes);
  }

  /**
   * Keeps a chunk a warm-up scored (warm-chunks: every code chunk of a fresh index) while the store,
   * widened to WARM_BYTES, has room for it without dropping any: false once it has not.
   */
  warm(key: string, chunk: KeptChunk): boolean {
    if (this.chunks.limit < WARM_BYTES) this.chunks.limit = WARM_BYTES;
    const bytes = keptBytes(key, chunk);
    if (bytes > this.cap) return true; // skipped, as set() would
    if (this.chunks.total + bytes > this.chunks.limit) return false;
    this.chunks.set(key, { ...chunk }, bytes);
    return true;
  }

  /** Bytes kept, as counted against the bound. */
  get bytes(): number {
    return this.chunks.total;
  }

  get size(): number {
    return this.chunks.size;
  }
}

function keptBytes(key: string, chunk: KeptChunk): number {
  return 96 + key.length * 2 + chunk.ids.byteLength + chunk.lineStarts.byteLength + (chunk.sum?.byteLength ?? 0);
}
