// A document's lines as token ids with each line's pooled norm (issue 30): a resident process keeps them
// for its prose documents, so a query's cosine to every line comes from one dot per distinct token and
// one add per token, without tokenizing or pooling the lines again; an upper bound on a document's best
// cosine then skips the documents a weak floor would otherwise have read and scored line by line.
import type { LineTokens, ModelData, TokenizedBatch } from '../types.js';
import { sameFloats } from './unit.js';

/** A document's lines as the kernels pool them (types.ts: a source hands them over too). */
export type { LineTokens } from '../types.js';

/** The memory a document's LineTokens hold. */
export function lineTokensBytes(t: LineTokens): number {
  return t.ids.byteLength + t.starts.byteLength + t.norms.byteLength + (t.distinct?.byteLength ?? 0);
}

/** The distinct ids of a document's tokens (LineTokens.distinct: worked out as it is kept, not on a search's time). */
export function distinctIds(ids: ArrayLike<number>): Uint32Array {
  const seen = new Set<number>();
  for (let i = 0; i < ids.length; i++) seen.add(ids[i]);
  return Uint32Array.from(seen);
}

/**
 * The LineTokens of a tokenized batch (one text per line), each line's norm summed as the kernels
 * pool it (static.ts: the weighted rows' sum; the mean's scale does not change a cosine).
 */
export function lineTokensOf(batch: TokenizedBatch, model: ModelData): LineTokens {
  const { table, dim, mapping, weights } = model;
  const lines = batch.lineStarts.length - 1;
  const norms = new Float32Array(lines);
  const acc = new Float64Array(dim);
  for (let i = 0; i < lines; i++) {
    const from = batch.lineStarts[i];
    const to = batch.lineStarts[i + 1];
    if (from === to) continue;
    acc.fill(0);
    for (let t = from; t < to; t++) {
      const id = batch.ids[t];
      const w = weights ? weights[id] : 1;
      const base = (mapping ? mapping[id] : id) * dim;
      for (let d = 0; d < dim; d++) acc[d] += w * table[base + d];
    }
    let sq = 0;
    for (let d = 0; d < dim; d++) sq += acc[d] * acc[d];
    norms[i] = Math.sqrt(sq);
  }
  const vocab = weights ? weights.length : mapping ? mapping.length : model.rows;
  const ids = vocab <= 0x10000 ? Uint16Array.from(batch.ids) : Uint32Array.from(batch.ids);
  return { model: model.id, ids, starts: Uint32Array.from(batch.lineStarts, (s) => s - batch.lineStarts[0]), norms };
}

/**
 * What a line's cosine may exceed its sum here by: the kernels add the same products in another order
 * (static.ts in float64; onnx.ts in float32: ~1e-6), and the norm is kept as a float32 (2^-24 relative).
 */
export const LINE_COSINE_SLACK = 1e-4;

/** Upper bounds on lines' cosines to one query (a unit vector), from their LineTokens. */
export interface LineCosines {
  /** At least the greatest cosine of any line of the document (the kernels' own), or 1 when its tokens are another model's. */
  documentBest(t: LineTokens): number;
  /** At least line i's cosine (the kernels' own), Infinity when it cannot tell (no norm, or another model's tokens). */
  lineBest(t: LineTokens, i: number): number;
  /**
   * Each line's lineBest at once (the sums documentBest adds, kept for the query), or null for another model's
   * tokens: a document read after its bound is worked out costs its lines' bounds no second pass.
   */
  lineBounds(t: LineTokens): Float64Array | null;
  /** The lines' bounds its blocks hold for the query, a block's unused tail counted (LINE_BOUNDS_KEPT at most, or one document's lines). */
  heldLines(): number;
}

/**
 * Per model, its last query's LineCosines: a search's prose source and its in-process scorer ask for the same
 * query's (prose-scoring.ts). Held weakly by the model (mend37b: one module-wide entry held a closed workspace's
 * ModelData, ~33 MB of the bench model, until another query came).
 */
const lastOf = new WeakMap<ModelData, { query: Float32Array; of: LineCosines }>();

/**
 * The lines' bounds one LineCosines keeps at most (4M: 32 MB; more only for one document of more lines): its
 * blocks take each document counted, so a query asked again and again over documents counted again (a changed
 * file, a kept document let go and read back) grew them without end (mend37b: 82 MB over 200 searches). Past it,
 * the blocks are let go and the documents counted before are counted again if asked (the same bounds).
 */
export const LINE_BOUNDS_KEPT = 4 << 20;

/** The lines one block of bounds holds at most (512 KB; a document of more lines has a block of its own). */
const BOUNDS_BLOCK_LINES = 1 << 16;

/**
 * A query's LineCosines: each token's weighted dot with the query (worked out on first use, kept for the
 * query), summed per line and divided by the line's norm, plus LINE_COSINE_SLACK. The same object for the
 * same model and query floats as that model's last call's: its dots and lines' bounds are worked out once a query.
 */
export function lineCosines(model: ModelData, query: Float32Array): LineCosines {
  const last = lastOf.get(model);
  if (last && sameFloats(last.query, query)) return last.of;
  // (A copy: a caller may reuse its array.)
  const q = Float32Array.from(query);
  const of = cosinesOf(model, q);
  lastOf.set(model, { query: q, of });
  return of;
}

function cosinesOf(model: ModelData, query: Float32Array): LineCosines {
  const { table, dim, mapping, weights } = model;
  const vocab = weights ? weights.length : mapping ? mapping.length : model.rows;
  const dots = new Float64Array(vocab);
  const ready = new Uint8Array(vocab);
  let best = new WeakMap<LineTokens, number>();
  /**
   * Each line's bound as documentBest summed them (Infinity: no norm), a document's lines one after the other
   * in `block` (its view in `at`): blocks shared by the query's documents, not an array each (~600 a
   * find_related call). A full block is left to the documents whose views it holds and a new one begun:
   * nothing is copied (one buffer grown by doubling copied and zero-filled its lines again and again, ~27%
   * of documentBest's time in a slow search, its fresh pages faulted in each time).
   */
  let block = new Float64Array(0);
  let used = 0;
  /** The lines' bounds the query's blocks hold, their unused tails counted (LINE_BOUNDS_KEPT at most). */
  let kept = 0;
  let at = new WeakMap<LineTokens, Float64Array>();
  const dotOf = (id: number): number => {
    if (ready[id]) return dots[id];
    const base = (mapping ? mapping[id] : id) * dim;
    let dot = 0;
    for (let d = 0; d < dim; d++) dot += table[base + d] * query[d];
    ready[id] = 1;
    return (dots[id] = (weights ? weights[id] : 1) * dot);
  };
  // documentBest's two loops are functions of their own: V8 compiled documentBest in the middle of its first
  // call's loop (on-stack replacement), before the code after the loop had ever run, and kept re-entering
  // that compiled loop at each next document, to drop it at the first line after the loop every time (110 to
  // 3,939 times a process, cheaply each: deopt43). A loop on its own ends its function.
  /** Each of `distinct`'s ids' weighted dot with the query, where not worked out before. */
  const dotsOf = (distinct: ArrayLike<number>): void => {
    for (let k = 0; k < distinct.length; k++) {
      const id = distinct[k];
      if (ready[id]) continue;
      const base = (mapping ? mapping[id] : id) * dim;
      let dot = 0;
      for (let d = 0; d < dim; d++) dot += table[base + d] * query[d];
      dots[id] = (weights ? weights[id] : 1) * dot;
      ready[id] = 1;
    }
  };
  /** Each line's bound into `bounds`; the greatest line cosine (0 where none is above 0). */
  const boundLines = (ids: ArrayLike<number>, starts: ArrayLike<number>, norms: ArrayLike<number>, bounds: Float64Array): number => {
    let most = 0;
    for (let i = 0; i < norms.length; i++) {
      const norm = norms[i];
      if (!(norm > 0)) { bounds[i] = Infinity; continue; }
      // Four sums, not one: one chain of adds waits on each add (~30% of the loop's time); the order
      // moves the sum by a few ulps, far inside LINE_COSINE_SLACK.
      let a = 0, b = 0, c = 0, d = 0;
      let j = starts[i];
      const end = starts[i + 1];
      for (; j + 3 < end; j += 4) { a += dots[ids[j]]; b += dots[ids[j + 1]]; c += dots[ids[j + 2]]; d += dots[ids[j + 3]]; }
      for (; j < end; j++) a += dots[ids[j]];
      const sum = (a + b) + (c + d);
      bounds[i] = sum / norm + LINE_COSINE_SLACK;
      if (sum > most * norm) most = sum / norm;
    }
    return most;
  };
  const documentBest = (t: LineTokens): number => {
    if (t.model !== model.id) return 1;
    let most = best.get(t);
    if (most !== undefined) return most;
    // Each distinct token's weighted dot once, then one add per token of each line.
    dotsOf(t.distinct ??= distinctIds(t.ids));
    const { ids, starts, norms } = t;
    const n = norms.length;
    if (used + n > block.length) {
      // The next block's size without a closure: a call first made in a branch taken late had no feedback,
      // and V8 dropped this function's compiled code there again and again (deopt43).
      let size = Math.max(Math.min(2 * block.length, BOUNDS_BLOCK_LINES), n, 4096);
      if (kept > 0 && kept + size > LINE_BOUNDS_KEPT) {
        // Full: the documents' bounds so far let go (a view lineBounds gave keeps its own block), counted again if asked;
        // the next block then as after none (the size of an empty block's successor).
        kept = 0;
        best = new WeakMap();
        at = new WeakMap();
        size = Math.max(n, 4096);
      }
      block = new Float64Array(size);
      used = 0;
      kept += block.length;
    }
    const bounds = block.subarray(used, used + n);
    used += n;
    most = boundLines(ids, starts, norms, bounds) + LINE_COSINE_SLACK;
    best.set(t, most);
    at.set(t, bounds);
    return most;
  };
  return {
    lineBest(t, i) {
      const norm = t.norms[i];
      if (t.model !== model.id || !(norm > 0)) return Infinity;
      const bounds = at.get(t);
      if (bounds !== undefined) return bounds[i];
      let sum = 0;
      for (let j = t.starts[i]; j < t.starts[i + 1]; j++) sum += dotOf(t.ids[j]);
      return sum / norm + LINE_COSINE_SLACK;
    },
    documentBest,
    heldLines: () => kept,
    lineBounds(t) {
      if (t.model !== model.id) return null;
      documentBest(t);
      return at.get(t)!;
    },
  };
}
