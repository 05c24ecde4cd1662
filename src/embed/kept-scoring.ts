// Chunk scoring with a resident process's kept chunks (kept-chunks.ts): the chunks' line tokens from the
// store or freshly tokenized, and their distances from their kept sums (one dot product each) or from
// the kernel, whose exact sums are kept for the next search. The distances are the kernel's floats.
import type { TokenizedBatch } from '../types.js';
import type { PoolingKernel } from './embedder.js';
import type { ChunkStore, KeptChunk } from './kept-chunks.js';
import { sumDistance } from './static.js';

/** What this needs of a batch's chunk (chunk-scoring.ts): its lines, where its tokens start, its key. */
export interface BatchChunk {
  from: number;
  to: number;
  tokenAt: number;
  key?: string;
  kept?: KeptChunk;
  /** A kept chunk without tokens (a warmed one): its lines, tokenized only if its closest line is wanted. */
  lines?: string[];
}

/** Safety margin on a cosine against float rounding (the static kernel's BOUND_MARGIN). */
const BOUND_MARGIN = 1e-4;

/**
 * All the chunks' line tokens in chunk order (each chunk's tokenAt set to its first line's index):
 * a kept chunk's from the store, the others' from `fresh` (their lines, tokenized in chunk order),
 * which are kept under their keys. A kept chunk without tokens (its sum alone) gets empty lines here:
 * its distance is its sum's, and withLineTokens gives its lines' tokens when they are wanted.
 */
export function keptTokens(chunks: BatchChunk[], fresh: TokenizedBatch): TokenizedBatch {
  let tokens = 0;
  let lines = 0;
  for (const k of chunks) {
    tokens += k.kept?.ids ? k.kept.ids.length : 0;
    lines += k.to - k.from;
  }
  tokens += fresh.ids.length;
  const ids = new Int32Array(tokens);
  const lineStarts = new Uint32Array(lines + 1);
  let at = 0;
  let line = 0;
  let freshLine = 0;
  for (const k of chunks) {
    const n = k.to - k.from;
    k.tokenAt = line;
    if (k.kept?.ids) {
      ids.set(k.kept.ids, at);
      for (let i = 0; i < n; i++) lineStarts[line + i] = at + k.kept.lineStarts![i];
      at += k.kept.ids.length;
    } else if (k.kept) {
      for (let i = 0; i < n; i++) lineStarts[line + i] = at;
    } else {
      const base = fresh.lineStarts[freshLine];
      const end = fresh.lineStarts[freshLine + n];
      const own = fresh.ids.slice(base, end);
      const starts = new Uint32Array(n + 1);
      for (let i = 0; i <= n; i++) starts[i] = fresh.lineStarts[freshLine + i] - base;
      ids.set(own, at);
      for (let i = 0; i < n; i++) lineStarts[line + i] = at + starts[i];
      at += own.length;
      freshLine += n;
      if (k.key !== undefined) k.kept = { ids: own, lineStarts: starts, sum: null };
    }
    line += n;
  }
  lineStarts[lines] = at;
  return { ids, lineStarts };
}

/**
 * A kept sum's cosine distance to the query, Infinity where the exact cosine is below its budget's (a float32:
 * the budgets scoreKept is given), as the kernel's bound would prune it; NaN for a sum of no tokens.
 */
export function keptDistance(sum: Float64Array, query: Float32Array, budget: number): number {
  const d = sumDistance(sum, 0, query);
  const floorCos = 1 - budget;
  return floorCos > BOUND_MARGIN && 1 - d < floorCos - BOUND_MARGIN ? Infinity : d;
}

/**
 * Each chunk's distance to the query: from its kept sum when there is one (Infinity where the exact
 * cosine is below its budget's, as the kernel's bound would prune it: that chunk cannot enter the
 * results), else from the kernel, whose exact sums are kept under the chunks' keys.
 */
export async function scoreKept(
  chunks: BatchChunk[], lineTokens: TokenizedBatch, query: Float32Array, budgets: Float32Array, kernel: PoolingKernel, kept: ChunkStore,
): Promise<Float32Array> {
  const out = new Float32Array(chunks.length);
  const rest: BatchChunk[] = [];
  const restAt: number[] = [];
  for (let i = 0; i < chunks.length; i++) {
    const k = chunks[i];
    const sum = k.kept?.sum;
    if (!sum) { rest.push(k); restAt.push(i); continue; }
    out[i] = keptDistance(sum, query, budgets[i]);
  }
  if (rest.length > 0) {
    const dim = kernel.dim;
    const sums = new Float64Array(rest.length * dim).fill(NaN);
    const distances = await kernel.score(textsOf(lineTokens, rest), query, budgets.length === rest.length ? budgets : Float32Array.from(restAt, (i) => budgets[i]), sums);
    for (let j = 0; j < rest.length; j++) {
      const k = rest[j];
      out[restAt[j]] = distances[j];
      // The kernel wrote the sum of each chunk it scored exactly (not one it pruned, nor one with no tokens).
      const sum = sums[j * dim] === sums[j * dim] ? sums.slice(j * dim, (j + 1) * dim) : null;
      if (k.key !== undefined && k.kept) kept.set(k.key, { ids: k.kept.ids, lineStarts: k.kept.lineStarts, sum: sum ?? k.kept.sum });
    }
  }
  return out;
}

/**
 * The line tokens of some chunks (those whose closest line is wanted) as one batch, each chunk's tokenAt
 * set into it: from `lineTokens`, or for a kept chunk without tokens (a warmed one) from its lines,
 * tokenized now and kept with its sum.
 */
export function withLineTokens(chunks: BatchChunk[], lineTokens: TokenizedBatch, tokenize: (texts: string[]) => TokenizedBatch, kept: ChunkStore): TokenizedBatch {
  const bare = chunks.filter((k) => k.kept && !k.kept.ids);
  if (bare.length === 0) return lineTokens;
  // Pushed, not flatMap()ped: flatMap's list is of another kind to V8 (holey) than the others the tokenizer reads, and
  // its loop compiled for those was dropped at the first (deopt43).
  const texts: string[] = [];
  for (const k of bare) for (const line of k.lines!) texts.push(line);
  const fresh = tokenize(texts);
  let line = 0;
  for (const k of bare) {
    const n = k.to - k.from;
    const base = fresh.lineStarts[line];
    const ids = fresh.ids.slice(base, fresh.lineStarts[line + n]);
    const starts = new Uint32Array(n + 1);
    for (let i = 0; i <= n; i++) starts[i] = fresh.lineStarts[line + i] - base;
    line += n;
    k.kept = { ids, lineStarts: starts, sum: k.kept!.sum };
    if (k.key !== undefined) kept.set(k.key, k.kept);
  }
  let total = 0;
  let lines = 0;
  for (const k of chunks) {
    lines += k.to - k.from;
    total += k.kept?.ids ? k.kept.ids.length : lineTokens.lineStarts[k.tokenAt + k.to - k.from] - lineTokens.lineStarts[k.tokenAt];
  }
  const ids = new Int32Array(total);
  const lineStarts = new Uint32Array(lines + 1);
  let at = 0;
  line = 0;
  for (const k of chunks) {
    const n = k.to - k.from;
    if (k.kept?.ids) {
      ids.set(k.kept.ids, at);
      for (let i = 0; i < n; i++) lineStarts[line + i] = at + k.kept.lineStarts![i];
      at += k.kept.ids.length;
    } else {
      const base = lineTokens.lineStarts[k.tokenAt];
      const end = lineTokens.lineStarts[k.tokenAt + n];
      ids.set(lineTokens.ids.subarray(base, end), at);
      for (let i = 0; i < n; i++) lineStarts[line + i] = at + lineTokens.lineStarts[k.tokenAt + i] - base;
      at += end - base;
    }
    k.tokenAt = line;
    line += n;
  }
  lineStarts[lines] = at;
  return { ids, lineStarts };
}

/** One text per chunk (its lines' tokens run together), for chunks that need not be consecutive. */
function textsOf(lines: TokenizedBatch, chunks: BatchChunk[]): TokenizedBatch {
  const lineStarts = new Uint32Array(chunks.length + 1);
  let total = 0;
  for (const k of chunks) total += lines.lineStarts[k.tokenAt + k.to - k.from] - lines.lineStarts[k.tokenAt];
  const ids = new Int32Array(total);
  let at = 0;
  chunks.forEach((k, j) => {
    const base = lines.lineStarts[k.tokenAt];
    const end = lines.lineStarts[k.tokenAt + k.to - k.from];
    ids.set(lines.ids.subarray(base, end), at);
    lineStarts[j] = at;
    at += end - base;
  });
  lineStarts[chunks.length] = at;
  return { ids, lineStarts };
}
