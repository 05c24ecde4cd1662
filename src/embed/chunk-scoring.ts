// Chunk scoring of a batch (hybrid, semantic and lexical modes): each chunk of a file (plan.chunkLines
// lines) gets one fused distance, written at the line that represents it; every other line is NaN.
// The semantic part is the model2vec embedding of the chunk's whole text (the mean of all its
// tokens), so context beyond the single line counts; chunks that cannot beat `pruneAbove` are skipped
// by the kernel's exact bound.
import { isAscii as bytesAscii } from 'node:buffer';
import { decodeLines } from '../text/decode.js';
import type { TokenizedBatch } from '../types.js';
import { chunkBounds, chunkStats, type ChunkStats } from '../rank/chunk-scorer.js';
import { chunkBestDistance, lexicalScore, relevance, semanticBudget, toDistance } from '../rank/relevance.js';
import { pathSignals, type PathSignals } from '../rank/path-signals.js';
import type { PoolingKernel } from './embedder.js';
import type { ChunkStore, KeptChunk } from './kept-chunks.js';
import { keptDistance, keptTokens, scoreKept, withLineTokens } from './kept-scoring.js';
import type { ChunkRequest, ScoreRequest } from './requests.js';
import { scoreProseRanges, type KeptLineScoring } from './prose-scoring.js';
import { embedsQuery } from '../rank/plan.js';
import { NO_STRINGS } from '../rank/lexical/terms.js';

/** The closest-line pass first skips lines below this share of the chunk's cosine (0: no skipping). */
const LINE_FLOOR_SHARE = 0.8;
/**
 * Fewer lines than this go straight to the exact pass: the floors' bound costs each token row ~25 times
 * an exact sum's work the first time a query meets it (static.ts fillCoords), which only a scan's many
 * batches pay back (a warm search's ~100 lines: ~2 -> ~0.8 ms of CPU).
 */
const FLOOR_PASS_LINES = 512;

interface BatchChunk extends ChunkStats {
  /** Batch line of the chunk's first line, and its index among the tokenized scored lines. */
  at: number;
  tokenAt: number;
  lexical: number;
  path: PathSignals;
  /** Cosine of the chunk's text to the query, once scored (0 when it has no tokens). */
  cosine: number;
  /** With a resident process's kept chunks (kept-chunks.ts): the chunk's key, and what was kept under it. */
  key?: string;
  kept?: KeptChunk;
  lines?: string[];
}

/** `kept`: a resident scorer's kept chunks, used for the ranges whose piece has a key (c.rangeKeys); `keptLines`: its model's for kept line tokens (prose-scoring.ts). */
export async function scoreChunks(
  req: ScoreRequest, c: ChunkRequest, tokenize: (texts: string[]) => TokenizedBatch, kernel: PoolingKernel, kept?: ChunkStore, keptLines?: KeptLineScoring,
): Promise<Float32Array> {
  const { plan } = c;
  // Lexical mode, and a hybrid plan that gives the embedding no weight (a query naming an
  // identifier), rank by the lexical signals alone: no tokenizing, no pooling.
  const embeds = embedsQuery(plan);
  const out = new Float32Array(req.offsets.length - 1).fill(NaN);
  const chunks: BatchChunk[] = [];
  const texts: string[] = [];
  const prune = req.pruneAbove ?? Infinity;
  let lastFile: string | null = null;
  let path!: PathSignals;
  for (let r = 0; r < req.scoreRanges.length; r += 2) {
    if (c.rangeProse?.[r >> 1]) continue; // ranked line by line below
    const from = req.scoreRanges[r];
    const known = embeds ? NaN : c.rangeDistances?.[r >> 1] ?? NaN;
    if (known === known && oneChunk(c.rangeFirstLines[r >> 1], req.scoreRanges[r + 1] - from, plan.chunkLines)) {
      out[from] = known;
      continue;
    }
    const file = c.rangePaths[r >> 1];
    // A file's ranges come one after the other (its candidate chunks' windows): its path signals once.
    if (file !== lastFile) { lastFile = file; path = pathSignals(file, plan, c.rangeFacts?.[r >> 1]); }
    const firstLine = c.rangeFirstLines[r >> 1];
    // A chunk's text is known by its file's indexed state, its first line and its line count.
    const rangeKey = embeds && kept && c.rangeKeys?.[r >> 1] ? `${req.ignoreCase ? 'i' : 'c'}${c.rangeKeys[r >> 1]}` : '';
    if (rangeKey && c.rangeLexical && plan.mode === 'hybrid' && knownChunk(req, c, r, firstLine, rangeKey, kept!, path, out)) { work.known++; continue; }
    work.counted++;
    const lines = decodeLines(req.bytes, req.offsets, from, req.scoreRanges[r + 1]);
    // Lines decoded from ASCII bytes are ASCII, and any other byte decodes to a non-ASCII char (U+FFFD where it is bad).
    const stats = plan.mode === 'semantic'
      ? chunkBounds(lines.length, firstLine, plan)
      : chunkStats(lines, firstLine, file, plan, path, bytesAscii(req.bytes.subarray(req.offsets[from], req.offsets[req.scoreRanges[r + 1]])));
    for (const s of stats) {
      const lexical = lexicalScore(s.bm25, plan);
      // A chunk that cannot beat pruneAbove even with a cosine of 1 is dropped before its lines are
      // tokenized (the cosine weighs 0.25 of a code chunk's relevance, so once the top-k is full a
      // chunk with no or few query terms is out of reach). Exact: the kernel's bound would skip it
      // (static) or its distance could not enter the top-k (pruneAbove: pipeline/scoring.ts).
      if (embeds && chunkBestDistance(lexical, s.symbol, path, plan) > prune) continue;
      const k: BatchChunk = { from: s.from, to: s.to, bm25: s.bm25, symbol: s.symbol, best: s.best, first: s.first, at: from + s.from, tokenAt: texts.length, lexical, path, cosine: 0 };
      if (rangeKey) {
        k.key = `${rangeKey}:${firstLine + s.from}:${s.to - s.from}`;
        k.kept = kept!.get(k.key);
      }
      chunks.push(k);
      // A kept sum without tokens (a warmed chunk): its lines are tokenized only if its closest line is wanted.
      if (k.kept && !k.kept.ids) k.lines = req.ignoreCase ? lines.slice(s.from, s.to).map((l) => l.toLowerCase()) : lines.slice(s.from, s.to);
      else if (embeds && !k.kept) for (let i = s.from; i < s.to; i++) texts.push(req.ignoreCase ? lines[i].toLowerCase() : lines[i]);
    }
  }
  if (c.rangeProse) await scoreProseRanges(req, c, tokenize, kernel, out, keptLines);
  if (!embeds) {
    // A chunk whose only match is its file's path shows its first line.
    for (const k of chunks) {
      const line = k.best >= 0 ? k.best : k.first;
      if ((k.bm25 > 0 || k.symbol > 0) && line >= 0) out[k.at + line] = toDistance(relevance(0, k.lexical, k.symbol, k.path, plan));
    }
    return out;
  }

  if (chunks.length === 0) return out;
  // Lines were tokenized in batch order; a chunk's text is the concatenation of its lines' tokens.
  // Kept chunks bring their tokens (and sums: scored by one dot product each), the others are tokenized.
  const keyed = chunks.some((k) => k.key !== undefined);
  // None to tokenize (every chunk kept): NO_STRINGS, not an empty `[]`, which to V8 is a list of another kind, and the
  // tokenizer's loop compiled for lists of strings was dropped at the first (deopt43).
  const fresh = texts.length > 0 ? texts : NO_STRINGS;
  const lineTokens = keyed ? keptTokens(chunks, tokenize(fresh)) : tokenize(fresh);
  const budgets = new Float32Array(chunks.length);
  for (let i = 0; i < chunks.length; i++) {
    const k = chunks[i];
    budgets[i] = semanticBudget(prune, k.lexical, k.symbol, k.path, plan);
  }
  const distances = keyed
    ? await scoreKept(chunks, lineTokens, req.query, budgets, kernel, kept!)
    : await kernel.score(concatChunks(lineTokens, chunks), req.query, budgets);

  const needLine: BatchChunk[] = [];
  const chunkDistance = new Float64Array(chunks.length);
  for (let i = 0; i < chunks.length; i++) {
    const d = distances[i];
    const k = chunks[i];
    if (d === Infinity) { chunkDistance[i] = NaN; continue; }
    const semantic = d === d ? 1 - d : 0;
    if (d !== d && k.best < 0) { chunkDistance[i] = NaN; continue; }
    chunkDistance[i] = toDistance(relevance(semantic, k.lexical, k.symbol, k.path, plan));
    k.cosine = semantic;
    if (k.best < 0) needLine.push(k);
  }
  // Chunks with no query term: show their line closest to the query. The floors' bound pays for each token
  // row's basis coordinates the first time a query meets it, which a scan's many batches (sums sent along
  // with a scan's batches included) and a search's later passes pay back: a resident search's first pass of
  // its kept chunks (the only one at the default top-k) goes straight to the exact pass. The same line either
  // way (the floors only skip lines that cannot be the closest).
  if (needLine.length > 0) {
    const floors = !req.exhaustive && (!keyed || c.keptSums !== undefined || !firstClosestPass(req.query));
    await pickClosestLines(needLine, keyed ? withLineTokens(needLine, lineTokens, tokenize, kept!) : lineTokens, req.query, kernel, floors);
  }
  for (let i = 0; i < chunks.length; i++) {
    const k = chunks[i];
    if (chunkDistance[i] === chunkDistance[i] && k.best >= 0) out[k.at + k.best] = chunkDistance[i];
  }
  return out;
}

/** The termless lines of one resident search from which the closest-line floor pass pays back (tail34's review: passes of 7k-29k lines at top-k 100-300 cost +15-18% without it; ~1,000 at the default top-k gained). */
export const FLOORS_PAY_FROM_LINES = 4096;

/** The query of this thread's last exact closest-line pass of kept chunks: a later pass of the same query runs the floors (tail34's review: at top-k 100-300, 8-14 passes a search cost +15-18% without them). */
let lastExactQuery: Float32Array | null = null;
function firstClosestPass(query: Float32Array): boolean {
  const last = lastExactQuery;
  if (last && last.length === query.length && last.every((x, i) => x === query[i])) return false;
  lastExactQuery = Float32Array.from(query);
  return true;
}

/**
 * Code ranges scored from their known signals and kept sums (knownChunk), counted line by line, and the
 * closest-line floor passes run (settleAboveFloors) (tests).
 */
const work = { known: 0, counted: 0, floorPasses: 0 };
export function chunkScoringWork(): { known: number; counted: number; floorPasses: number } {
  return { ...work };
}

/**
 * A range of one chunk whose lexical signal and symbol are known (c.rangeLexical, c.rangeSymbol) and whose sum is
 * kept: its distance from those and its sum's cosine, written at its first line (its lines are not counted;
 * the pipeline finds the best line of those it shows). The same floats and the same skips as counting its
 * lines gives: the symbol and lexical signal are the index's (workspace/search/candidates.ts), the cosine
 * scoreKept's. False where this does not apply: the range is then counted.
 */
function knownChunk(req: ScoreRequest, c: ChunkRequest, r: number, firstLine: number, rangeKey: string, kept: ChunkStore, path: PathSignals, out: Float32Array): boolean {
  const lexical = c.rangeLexical![r >> 1];
  const n = req.scoreRanges[r + 1] - req.scoreRanges[r];
  if (lexical !== lexical || !oneChunk(firstLine, n, c.plan.chunkLines)) return false;
  const sum = kept.get(`${rangeKey}:${firstLine}:${n}`)?.sum;
  if (!sum) return false;
  const { plan } = c;
  const symbol = c.rangeSymbol![r >> 1];
  const prune = req.pruneAbove ?? Infinity;
  // As scoreChunks skips a counted chunk: out of reach even with a cosine of 1, or (scoreKept) below its budget.
  if (chunkBestDistance(lexical, symbol, path, plan) > prune) return true;
  const d = Math.fround(keptDistance(sum, req.query, Math.fround(semanticBudget(prune, lexical, symbol, path, plan))));
  if (d === Infinity) return true;
  // A sum of no tokens: counted as before (the counted path decides which line it shows).
  if (d !== d) return false;
  out[req.scoreRanges[r]] = toDistance(relevance(1 - d, lexical, symbol, path, plan));
  return true;
}

/** Whether lines [firstLine, firstLine + n) of a file are in one chunk (chunks are cut at multiples of chunkLines). */
export function oneChunk(firstLine: number, n: number, chunkLines: number): boolean {
  return n > 0 && Math.floor(firstLine / chunkLines) === Math.floor((firstLine + n - 1) / chunkLines);
}

/**
 * Sets each chunk's `best` to its line closest to the query, exactly, while scoring few lines in full:
 * a first pass lets the kernel skip lines that provably fall below a floor (a share of the chunk's own
 * cosine); a chunk whose best scored line reaches the floor is settled (every skipped line is below
 * it), the rare other chunk is scored again without a floor.
 */
async function pickClosestLines(chunks: BatchChunk[], lineTokens: TokenizedBatch, query: Float32Array, kernel: PoolingKernel, useFloors: boolean): Promise<void> {
  // Without floors (a few candidate chunks from the index, or few lines) every chunk goes straight to the exact pass.
  let lines = 0;
  for (const k of chunks) lines += k.to - k.from;
  const unsettled = useFloors && lines >= FLOOR_PASS_LINES ? await settleAboveFloors(chunks, lineTokens, query, kernel) : chunks;
  if (unsettled.length === 0) return;
  const again = linesOf(lineTokens, unsettled);
  const exact = await kernel.score(again.batch, query);
  unsettled.forEach((k, j) => { k.best = closest(exact, again.starts[j], again.starts[j + 1])[0]; });
}

/** The floor pass: settles the chunks whose best scored line reaches their floor; returns the others. */
async function settleAboveFloors(chunks: BatchChunk[], lineTokens: TokenizedBatch, query: Float32Array, kernel: PoolingKernel): Promise<BatchChunk[]> {
  work.floorPasses++;
  const first = linesOf(lineTokens, chunks);
  const floors = new Float32Array(first.batch.lineStarts.length - 1);
  chunks.forEach((k, j) => floors.fill(1 - LINE_FLOOR_SHARE * Math.max(0, k.cosine), first.starts[j], first.starts[j + 1]));
  const distances = await kernel.score(first.batch, query, floors);
  const unsettled: BatchChunk[] = [];
  chunks.forEach((k, j) => {
    const [best, bestD] = closest(distances, first.starts[j], first.starts[j + 1]);
    // Settled when nothing was skipped (no floor) or the best scored line reaches the floor.
    if (best >= 0 && (k.cosine <= 0 || bestD <= floors[first.starts[j]])) k.best = best; else unsettled.push(k);
  });
  return unsettled;
}

/** The chunk-relative index and distance of the smallest distance in d[from, to), or -1. */
function closest(d: Float32Array, from: number, to: number): [number, number] {
  let best = -1;
  let bestD = Infinity;
  for (let i = from; i < to; i++) if (d[i] < bestD) { bestD = d[i]; best = i - from; }
  return [best, bestD];
}

/**
 * One text per chunk: the concatenation of its lines' tokens. The kept chunks' lines were tokenized
 * in order, each chunk's one after the other, so each chunk's text is already a run of `lines.ids`.
 */
function concatChunks(lines: TokenizedBatch, chunks: BatchChunk[]): TokenizedBatch {
  const lineStarts = new Uint32Array(chunks.length + 1);
  chunks.forEach((k, i) => { lineStarts[i] = lines.lineStarts[k.tokenAt]; });
  lineStarts[chunks.length] = lines.lineStarts[lines.lineStarts.length - 1];
  return { ids: lines.ids, lineStarts };
}

/** The lines of some chunks as one batch; chunk j owns lines [starts[j], starts[j + 1]). */
function linesOf(lines: TokenizedBatch, chunks: BatchChunk[]): { batch: TokenizedBatch; starts: number[] } {
  const starts = [0];
  let total = 0;
  for (const k of chunks) {
    starts.push(starts[starts.length - 1] + k.to - k.from);
    total += lines.lineStarts[k.tokenAt + k.to - k.from] - lines.lineStarts[k.tokenAt];
  }
  const ids = new Int32Array(total);
  const lineStarts = new Uint32Array(starts[starts.length - 1] + 1);
  let at = 0;
  chunks.forEach((k, j) => {
    const n = k.to - k.from;
    const base = lines.lineStarts[k.tokenAt];
    const end = lines.lineStarts[k.tokenAt + n];
    ids.set(lines.ids.subarray(base, end), at);
    for (let i = 0; i < n; i++) lineStarts[starts[j] + i] = lines.lineStarts[k.tokenAt + i] - base + at;
    at += end - base;
  });
  lineStarts[lineStarts.length - 1] = total;
  return { batch: { ids, lineStarts }, starts };
}
