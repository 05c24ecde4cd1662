// A bounded, worker-local copy of the embedding rows recent runs used. onnxruntime-node rejects
// tensors over a SharedArrayBuffer, so rows must be copied out of the shared table; caching them
// across runs means the frequent tokens of real (Zipfian) text are copied once, not once per run.
import type { ModelData } from '../types.js';

export interface RowCache {
  /** The cached rows as a [rows, dim] float view (plain ArrayBuffer), fed to the session as is. */
  view(): { data: Float32Array; rows: number };
  /** Starts a new chunk: note() each of its rows, then reserve(), then slotOf() each token. */
  beginChunk(): void;
  note(row: number): void;
  /**
   * Makes room for the chunk's uncached rows. When they do not fit, the cache is emptied, so every
   * row of the chunk (cached before or not) must fit; it grows for an oversized chunk.
   */
  reserve(): void;
  /** The row's slot, copying it in from the shared table on a miss (after reserve()). */
  slotOf(row: number): number;
  readonly capacity: number;
}

export function createRowCache(model: Pick<ModelData, 'table' | 'rows' | 'dim'>, opts: { rows: number }): RowCache {
  const { table, dim } = model;
  let capacity = Math.max(1, Math.min(opts.rows, model.rows));
  let data = new Float32Array(capacity * dim);
  let cachedRows = new Int32Array(capacity);
  let filled = 0;
  /** table row -> cache slot, -1 when not cached. */
  const slot = new Int32Array(model.rows).fill(-1);
  /** table row -> last chunk that noted it. */
  const seen = new Int32Array(model.rows);
  let chunk = 0;
  let distinct = 0;
  let misses = 0;

  function clear(): void {
    for (let i = 0; i < filled; i++) slot[cachedRows[i]] = -1;
    filled = 0;
  }

  return {
    get capacity() { return capacity; },
    view: () => ({ data: data.subarray(0, filled * dim), rows: filled }),
    beginChunk() {
      chunk++;
      if (chunk === 0x7fffffff) { seen.fill(0); chunk = 1; }
      distinct = 0;
      misses = 0;
    },
    note(row) {
      if (seen[row] === chunk) return;
      seen[row] = chunk;
      distinct++;
      if (slot[row] < 0) misses++;
    },
    reserve() {
      if (filled + misses <= capacity) return;
      clear();
      if (distinct > capacity) {
        // One line longer than the cache (maxLength is normally far smaller): grow to fit it.
        capacity = distinct;
        data = new Float32Array(capacity * dim);
        cachedRows = new Int32Array(capacity);
      }
    },
    slotOf(row) {
      let s = slot[row];
      if (s >= 0) return s;
      if (filled === capacity) throw new Error('row cache overflow: reserve() was not called for this chunk');
      s = filled++;
      slot[row] = s;
      cachedRows[s] = row;
      data.set(table.subarray(row * dim, row * dim + dim), s * dim);
      return s;
    },
  };
}
