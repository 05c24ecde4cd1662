// Packs a tokenized batch into ONNX-kernel runs: lines sorted by length into padded chunks whose
// tokens index a small worker-local row cache, because onnxruntime-node cannot read the shared table.
import { SimgrepError } from '../errors.js';
import type { ModelData, TokenizedBatch } from '../types.js';
import { createRowCache, type RowCache } from './onnx-row-cache.js';

/** One session run: `lines` lines padded to `len` tokens. */
export interface PackedChunk {
  /** Original line index of each packed line (the run's output row order). */
  lines: Uint32Array;
  len: number;
  /** [lines, len] row of the cache per token; 0 (with weight 0) for padding. */
  rowIds: Int32Array;
  /** [lines, len] weights[id] / tokenCount; 0 for padding. */
  weights: Float32Array;
}

export interface Packer {
  /**
   * Chunks covering every non-empty line exactly once (empty lines are skipped). Run each chunk
   * before pulling the next: packing a chunk may evict rows an earlier chunk pointed at.
   */
  chunks(batch: TokenizedBatch): Generator<PackedChunk>;
  /** The cache rows a chunk reads, [rows, dim]; valid until the next chunk is packed. */
  readonly cache: RowCache;
}

type PackModel = Pick<ModelData, 'table' | 'rows' | 'dim' | 'mapping' | 'weights'>;

/**
 * Token slots per line in a chunk: a multiple of PAD_TOKENS. MLAS's SGEMM walks the token axis in
 * steps of 4 and sums a ragged tail in a different order, so a line of 11 tokens run alone (K = 11)
 * would differ in the last bit from the same line padded to 20 in a bigger chunk. With whole steps,
 * padding only appends exact zeros, and a line scores the same however the lines are batched.
 */
export const PAD_TOKENS = 4;

export function paddedLength(tokens: number): number {
  return Math.ceil(tokens / PAD_TOKENS) * PAD_TOKENS;
}

/**
 * `maxCells` caps lines x len per chunk (a longer single line still gets its own chunk), so each
 * run's [lines, len, dim] Gather output stays cache-sized. `cacheRows` bounds the row cache.
 */
export function createPacker(model: PackModel, opts: { maxCells: number; cacheRows: number }): Packer {
  const { mapping, weights } = model;
  const maxCells = Math.max(1, opts.maxCells);
  const cache = createRowCache(model, { rows: Math.max(opts.cacheRows, maxCells) });

  function rowOf(id: number): number {
    const row = mapping ? mapping[id] : id;
    if (row >= 0 && row < model.rows) return row;
    throw new SimgrepError('MODEL_CORRUPT', `token id ${id} maps to row ${row}, outside the ${model.rows}-row `
      + 'embedding table: tokenizer.json and the model weights do not match; re-download the model');
  }

  function pack(batch: TokenizedBatch, lines: Uint32Array, len: number): PackedChunk {
    const { ids, lineStarts } = batch;
    cache.beginChunk();
    for (const line of lines) {
      for (let t = lineStarts[line]; t < lineStarts[line + 1]; t++) cache.note(rowOf(ids[t]));
    }
    cache.reserve();
    const rowIds = new Int32Array(lines.length * len);
    const w = new Float32Array(lines.length * len);
    for (let b = 0; b < lines.length; b++) {
      const start = lineStarts[lines[b]];
      const n = lineStarts[lines[b] + 1] - start;
      const inv = 1 / n;
      for (let t = 0; t < n; t++) {
        const id = ids[start + t];
        rowIds[b * len + t] = cache.slotOf(rowOf(id));
        w[b * len + t] = (weights ? weights[id] : 1) * inv;
      }
    }
    return { lines, len, rowIds, weights: w };
  }

  return {
    cache,
    *chunks(batch) {
      const order = sortByLength(batch);
      const lengthOf = (k: number) => batch.lineStarts[order[k] + 1] - batch.lineStarts[order[k]];
      let from = 0;
      while (from < order.length && lengthOf(from) === 0) from++;
      while (from < order.length) {
        // Ascending lengths: the chunk's padded length comes from its last line.
        let to = from + 1;
        while (to < order.length && (to - from + 1) * paddedLength(lengthOf(to)) <= maxCells) to++;
        yield pack(batch, order.slice(from, to), paddedLength(lengthOf(to - 1)));
        from = to;
      }
    },
  };
}

/** Line indices in ascending token count (stable counting sort), so chunks pad little. */
export function sortByLength(batch: TokenizedBatch): Uint32Array {
  const n = batch.lineStarts.length - 1;
  let maxLen = 0;
  for (let i = 0; i < n; i++) maxLen = Math.max(maxLen, batch.lineStarts[i + 1] - batch.lineStarts[i]);
  const starts = new Uint32Array(maxLen + 2);
  for (let i = 0; i < n; i++) starts[batch.lineStarts[i + 1] - batch.lineStarts[i] + 1]++;
  for (let l = 1; l < starts.length; l++) starts[l] += starts[l - 1];
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[starts[batch.lineStarts[i + 1] - batch.lineStarts[i]]++] = i;
  return order;
}
