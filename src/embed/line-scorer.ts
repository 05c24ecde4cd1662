// Lines in, distances or vectors out: decode -> tokenize (memoised) -> pooling kernel. The same code
// runs inside each worker and in-process, so both paths give identical numbers.
import { decodeLines } from '../text/decode.js';
import type { EmbedderKind, ModelData, TokenizedBatch } from '../types.js';
import { createKernel } from './kernels.js';
import { createIdBuffer, type LineTokenizer } from '../model/tokenizer/index.js';
import { openTokenizerFile, sharedTokenizerFile } from '../model/tokenizer-file.js';
import { ensureTokenRows } from '../model/lazy-rows.js';
import type { ChunkEmbedRequest, ScoreRequest } from './requests.js';
import { scoreChunks } from './chunk-scoring.js';
import { unitRows } from './unit.js';
import { lineCosines, lineTokensOf, type LineTokens } from './line-cosines.js';
import type { KeptLineScoring } from './prose-scoring.js';
import { KeptChunks, sentSums } from './kept-chunks.js';
import { knownPlan } from './plan-key.js';

export interface LineScorer {
  readonly dim: number;
  readonly kernelId: string;
  /**
   * One distance per batch line: NaN for context-only, blank and token-less lines. `counts.keptSumsUsed`
   * gains the sums the request brought along (ChunkRequest.keptSums) that its scoring used.
   */
  score(req: ScoreRequest, counts?: { keptSumsUsed: number }): Promise<Float32Array>;
  /** Embeds whole texts (queries, index rows) exactly like lines are embedded. */
  embedTexts(texts: string[]): Promise<Float32Array>;
  /**
   * Per text, 1 when its embedding is not all zeros (the model has a token for it that carries
   * weight), from its tokens alone: no row is summed (a pasted file's thousands of words).
   */
  knownTexts(texts: string[]): Uint8Array;
  /** Lines' token ids and pooled norms (line-cosines.ts: a resident process's bound on prose lines' cosines). */
  tokenLines(texts: string[]): LineTokens;
  /**
   * Chunks' exact pooled sums (chunks x dim; NaN for a chunk with no token): the floats scoring a chunk
   * sums (the kernel's own, with no bound), to be kept by a resident scorer (keepSums).
   */
  chunkSums(req: ChunkEmbedRequest): Promise<Float64Array>;
  /**
   * Keeps chunks' sums under their keys before any search scores them (a resident scorer: kept-chunks.ts),
   * so a search that first meets them scores each by one dot product. False once the store has no more
   * room (or this scorer keeps none).
   */
  keepSums(keys: string[], sums: Float64Array): boolean;
  /** A resident scorer's kept chunks (which sums it has, dropping stale warmed ones), or undefined for one that keeps none. */
  keptChunks(): KeptChunks | undefined;
  /** Unit vectors of chunks of lines, pooled exactly as chunk scoring pools them (for the index). */
  embedChunks(req: ChunkEmbedRequest): Promise<Float32Array>;
  /**
   * embedChunks' vectors and each chunk's exact pooled sum (chunkSums' floats; NaN for a chunk with no
   * token): a resident process's index build hands the sums to its scorer (keepSums) as it embeds.
   */
  embedChunkSums(req: ChunkEmbedRequest): Promise<{ vectors: Float32Array; sums: Float64Array }>;
  /** Works out now what the kernel's pruning bound needs whatever the query (PoolingKernel.prepareBound). */
  prepareBound(): void;
  close(): Promise<void>;
}

/** Distances of short lines seen before (braces, returns, imports repeat a lot); bounded memory. */
const CACHE_LIMIT = 50_000;
const CACHE_MAX_CHARS = 80;

/**
 * `keepChunks`: keep the chunks of keyed pieces (an index's candidates) between calls (kept-chunks.ts):
 * the in-process scorer of a searcher; a worker's gets a share of a search's batches, and keeps none.
 */
export async function createLineScorer(model: ModelData, kind: EmbedderKind, keepChunks = false): Promise<LineScorer> {
  // The tokenizer loadModel opened, shared by every thread (one copy of its tables), else the file.
  const file = model.tokenizer ? sharedTokenizerFile(model.tokenizer) : await openTokenizerFile(model.tokenizerPath, 'Re-download the model or pass --model <dir> with a valid tokenizer.json.');
  const tokenizer = file.createTokenizer();
  const kernel = await createKernel(model, kind);
  // model2vec cuts texts to maxLength * median token length chars.
  const maxChars = model.maxLength * file.medianTokenLength;
  let cacheKey = '';
  let cache = new Map<string, number>();

  const tokenize = (texts: string[]): TokenizedBatch => tokenizeTexts(texts, tokenizer, model, maxChars);
  // Chunks of keyed pieces (an index's candidates) scored before: this model's tokens and sums (kept-chunks.ts).
  let kept: KeptChunks | undefined;
  /** The kept chunks, made on first use: a resident process, which scores many more (so the kernel may make its faster path). */
  const keptStore = (): KeptChunks => {
    if (!kept) { kept = new KeptChunks(); void kernel.prepare?.(); }
    return kept;
  };
  /** A request's chunks of lines as one tokenized batch, a text per chunk (as chunk scoring pools them). */
  const chunkBatchOf = (req: ChunkEmbedRequest): TokenizedBatch => {
    const lines = tokenize(decodeLines(req.bytes, req.offsets, 0, req.offsets.length - 1));
    return { ids: lines.ids, lineStarts: req.chunkStarts.map((line) => lines.lineStarts[line]) };
  };
  const carries = tokenWeightCheck(model);
  // Kept prose line tokens of this model (requests.ts rangeTokens): their ids, and their line cosines' bounds for the
  // query (the very ones the search's prose source bounded its documents with, where it ran in this thread: line-cosines.ts).
  const keptLines: KeptLineScoring = { model: model.id, cosines: (query) => lineCosines(model, query) };

  return {
    dim: kernel.dim,
    kernelId: kernel.id,
    async score(req, counts) {
      if (req.chunks) {
        // A worker's batch: the plan object this thread first received under the pool's number for it (plan-key.ts).
        if (req.chunks.planKey !== undefined) req.chunks.plan = knownPlan(req.chunks.planKey, req.chunks.plan);
        // A scan's chunks with the sums it sent (an index build of this process pooled their files), else an index's candidates kept between searches.
        const sent = req.chunks.keptSums ? sentSums(req.chunks.keptSums, kernel.dim) : null;
        const store = sent ?? (req.chunks.rangeKeys && keepChunks ? keptStore() : kept);
        const out = await scoreChunks(req, req.chunks, tokenize, kernel, store, keptLines);
        if (sent && counts) counts.keptSumsUsed += sent.used;
        return out;
      }
      if (req.queryKey !== cacheKey || cache.size > CACHE_LIMIT) { cache = new Map(); cacheKey = req.queryKey; }
      const total = req.offsets.length - 1;
      const out = new Float32Array(total).fill(NaN);
      const unique: string[] = [];
      const uniqueAt = new Map<string, number>();
      const pending: { line: number; slot: number }[] = [];
      for (let r = 0; r < req.scoreRanges.length; r += 2) {
        const from = req.scoreRanges[r];
        const lines = decodeLines(req.bytes, req.offsets, from, req.scoreRanges[r + 1]);
        for (let i = 0; i < lines.length; i++) {
          let text = lines[i];
          if (isBlank(text)) continue;
          if (req.ignoreCase) text = text.toLowerCase();
          const cached = text.length <= CACHE_MAX_CHARS ? cache.get(text) : undefined;
          if (cached !== undefined) { out[from + i] = cached; continue; }
          let slot = uniqueAt.get(text);
          if (slot === undefined) { slot = unique.length; unique.push(text); uniqueAt.set(text, slot); }
          pending.push({ line: from + i, slot });
        }
      }
      if (unique.length === 0) return out;
      const distances = await kernel.score(tokenize(unique), req.query, req.pruneAbove);
      for (let s = 0; s < unique.length; s++) if (unique[s].length <= CACHE_MAX_CHARS) cache.set(unique[s], distances[s]);
      for (const p of pending) out[p.line] = distances[p.slot];
      return out;
    },
    embedTexts: (texts) => kernel.embed(tokenize(texts)),
    knownTexts(texts) {
      const { ids, lineStarts } = tokenize(texts);
      const out = new Uint8Array(texts.length);
      for (let i = 0; i < texts.length; i++) {
        for (let t = lineStarts[i]; t < lineStarts[i + 1]; t++) if (carries(ids[t])) { out[i] = 1; break; }
      }
      return out;
    },
    tokenLines: (texts) => lineTokensOf(tokenize(texts), model),
    async chunkSums(req) {
      const sums = new Float64Array((req.chunkStarts.length - 1) * kernel.dim).fill(NaN);
      await kernel.score(chunkBatchOf(req), new Float32Array(kernel.dim), undefined, sums);
      return sums;
    },
    keepSums(keys, sums) {
      if (!keepChunks) return false;
      const kept = keptStore();
      const dim = kernel.dim;
      for (let j = 0; j < keys.length; j++) {
        // A chunk with no token has no sum: a search tokenizes it (it has no weight to pool).
        if (sums[j * dim] === sums[j * dim] && !kept.warm(keys[j], sums.subarray(j * dim, (j + 1) * dim))) return false;
      }
      return true;
    },
    keptChunks: () => (keepChunks ? keptStore() : undefined),
    async embedChunks(req) {
      return unitRows(await kernel.embed(chunkBatchOf(req)), kernel.dim);
    },
    async embedChunkSums(req) {
      const sums = new Float64Array((req.chunkStarts.length - 1) * kernel.dim).fill(NaN);
      const vectors = unitRows(await kernel.embed(chunkBatchOf(req), sums), kernel.dim);
      return { vectors, sums };
    },
    prepareBound: () => kernel.prepareBound?.(),
    close: async () => { await kernel.close?.(); },
  };
}

/**
 * Whether a token id adds to an embedding: its weight is not 0 and its table row is not all zeros
 * (worked out once per id). A text's pooled vector (the kernels': the weighted rows' mean, then
 * normalised) is all zeros exactly when none of its kept tokens adds, barring rows that cancel
 * exactly, which no trained table has.
 */
function tokenWeightCheck(model: ModelData): (id: number) => boolean {
  const { table, dim, mapping, weights } = model;
  // 0: not worked out yet; 1: adds nothing; 2: adds.
  const state = new Uint8Array(weights ? weights.length : mapping ? mapping.length : model.rows);
  return (id) => {
    let s = state[id];
    if (s === 0) {
      s = 1;
      if (!weights || weights[id] !== 0) {
        const base = (mapping ? mapping[id] : id) * dim;
        for (let d = 0; d < dim; d++) if (table[base + d] !== 0) { s = 2; break; }
      }
      state[id] = s;
    }
    return s === 2;
  };
}

function isBlank(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13 && c !== 11 && c !== 12) return false;
  }
  return true;
}

/** model2vec's encode: cut the text to maxLength * median token length chars, drop unk, keep maxLength ids. */
function tokenizeTexts(texts: string[], tokenizer: LineTokenizer, model: ModelData, maxChars: number): TokenizedBatch {
  const buf = createIdBuffer(texts.length * 16);
  const lineStarts = new Uint32Array(texts.length + 1);
  for (let i = 0; i < texts.length; i++) {
    const raw = texts[i];
    const text = raw.length > model.maxLength ? raw.slice(0, maxChars) : raw;
    const start = buf.length;
    tokenizer.encodeInto(text, buf);
    // Compact in place: unknown ids dropped, then at most maxLength kept.
    const ids = buf.ids;
    let n = start;
    for (let t = start; t < buf.length && n - start < model.maxLength; t++) {
      if (ids[t] !== model.unkId) ids[n++] = ids[t];
    }
    buf.length = n;
    lineStarts[i + 1] = n;
  }
  // A table read row by row (model/lazy-rows.ts) has these tokens' rows read in before anything sums them.
  ensureTokenRows(model, buf.ids, 0, buf.length);
  return { ids: buf.ids.subarray(0, buf.length), lineStarts };
}
