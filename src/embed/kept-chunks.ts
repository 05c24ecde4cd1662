// The candidate chunks' token ids and pooled sums a resident process keeps between searches (issue 30):
// a warm search that scores a chunk an earlier one scored takes its lines' tokens from here, and its
// cosine from one dot product with the kept sum (the very floats the kernel would sum again).
// Keyed by the chunk's text identity (the index's state of its file, its first line and line count);
// one store per scorer, so per model: another model's tokens or sums are never used.

import { BoundedLru } from '../bounded-lru.js';

/** Bytes kept in all (ids, line starts, sums, 96 more per chunk): the bench's 45 queries keep 2,185 chunks, 9.6 MB. */
const KEPT_BYTES = 24 << 20;

/** One chunk's lines as the model tokenized them, and its pooled sum once the kernel computed it exactly. */
export interface KeptChunk {
  ids: Int32Array;
  /** Chunk-relative token start of each line, plus the end (length = lines + 1). */
  lineStarts: Uint32Array;
  /** The kernel's weighted row sum of all the chunk's tokens (static.ts), or null until it was scored in full. */
  sum: Float64Array | null;
}

/** Chunks by key, least recently used dropped first once over the bound. */
export class KeptChunks {
  private readonly chunks: BoundedLru<KeptChunk>;

  constructor(limit = KEPT_BYTES) {
    this.chunks = new BoundedLru(limit);
  }

  get(key: string): KeptChunk | undefined {
    return this.chunks.get(key);
  }

  /** Keeps a chunk (replacing one of the same key), dropping the least recently used over the bound. */
  set(key: string, chunk: KeptChunk): void {
    this.chunks.delete(key);
    const bytes = 96 + key.length * 2 + chunk.ids.byteLength + chunk.lineStarts.byteLength + (chunk.sum?.byteLength ?? 0);
    if (bytes > this.chunks.limit / 64) return; // a chunk of very long lines would crowd out the others
    this.chunks.set(key, { ...chunk }, bytes);
  }

  get size(): number {
    return this.chunks.size;
  }
}
