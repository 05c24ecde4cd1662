// Prose ranges of a batch (rank/prose.ts): each non-blank line gets one fused distance from its own
// BM25 and, when it holds a term, its window's (the line with its neighbours; the file's document
// frequencies) and its own cosine to the query, weighted by plan.prose.
// Lines that provably cannot beat `pruneAbove` are skipped by the kernel's exact bound.
import { decodeLines } from '../text/decode.js';
import type { TokenizedBatch } from '../types.js';
import { toDistance, toRelevance } from '../rank/relevance.js';
import { pathSignals, type PathSignals } from '../rank/path-signals.js';
import { isBlank } from '../rank/prose-counter.js';
import { lineLexical, linesTerms, PROSE_WINDOW_LINES, proseBestDistance, proseRelevance, proseTermCount, type ProseStats } from '../rank/prose.js';
import type { PoolingKernel } from './embedder.js';
import type { LineCosines, LineTokens } from './line-cosines.js';
import type { ChunkRequest, ScoreRequest } from './requests.js';

/** A line to score; `kept`/`line`: its ids are kept tokens' line `line` (else its text is tokenized, in order). */
interface ProseLine { at: number; lexical: number; stats: ProseStats; path: PathSignals; kept?: LineTokens; line?: number }

/** What an in-process scorer brings for kept line tokens (c.rangeTokens): its model's id, and a query's line cosines' bounds. */
export interface KeptLineScoring {
  model: string;
  cosines(query: Float32Array): LineCosines;
}

/**
 * Writes the distance of each prose line of the batch into `out` (other lines are left as they are).
 * `keptLines`: a range's kept line tokens of the scorer's model (c.rangeTokens) give its lines' ids, the
 * very ids tokenizing the line gives (line-scorer.ts tokenLines), so the kernel scores the same; and their
 * bound (line-cosines.ts lineBest: one dot per distinct token, kept for the query) stands in for the
 * kernel's (static.ts cosineBound: each token row's 25 basis coordinates the first time a query meets it).
 */
export async function scoreProseRanges(
  req: ScoreRequest, c: ChunkRequest, tokenize: (texts: string[]) => TokenizedBatch, kernel: PoolingKernel, out: Float32Array, keptLines?: KeptLineScoring,
): Promise<void> {
  const model = keptLines?.model;
  const { plan } = c;
  const w = plan.prose?.semantic ?? 0;
  const tf = new Float64Array(proseTermCount(plan));
  const touched: number[] = [];
  const items: ProseLine[] = [];
  const texts: string[] = [];
  const prune = req.pruneAbove ?? Infinity;
  for (let r = 0; r < req.scoreRanges.length; r += 2) {
    const stats = c.rangeProse?.[r >> 1];
    if (!stats) continue;
    const from = req.scoreRanges[r];
    const to = req.scoreRanges[r + 1];
    // The piece's context lines (pipeline.ts gives a prose piece at least PROSE_WINDOW_LINES each side)
    // are the windows' neighbours at the piece's edges: a line scores the same in any piece.
    const path = pathSignals(c.rangePaths[r >> 1], plan, c.rangeFacts?.[r >> 1]);
    // Kept tokens by file line: the score range starts at file line rangeFirstLines (none for a search that folds case).
    const kept = !req.ignoreCase && model !== undefined ? c.rangeTokens?.[r >> 1] : undefined;
    const tokens = kept && kept.model === model ? kept : null;
    const fileLine = c.rangeFirstLines[r >> 1] - from;
    // A document that holds no term: its lines' lexical scores are 0 (none counted), and with kept line tokens
    // only the lines their bounds leave within reach are read.
    const bounds = c.rangeTermless?.[r >> 1] === 1 && tokens ? keptLines!.cosines(req.query).lineBounds(tokens) : null;
    if (bounds) {
      termlessLines(req, from, to, fileLine, tokens!, bounds, { stats, path, w, prune, plan }, items, texts);
      continue;
    }
    const lo = Math.max(c.rangeLines?.[r] ?? from, from - PROSE_WINDOW_LINES);
    const hi = Math.min(c.rangeLines?.[r + 1] ?? to, to + PROSE_WINDOW_LINES);
    const lines = decodeLines(req.bytes, req.offsets, lo, hi);
    const counted = linesTerms(lines, plan, tf, touched);
    // One closure a range, not one a line (warm searches' garbage, branch alloc35).
    const lengthOf = (j: number): number => lines[j].length;
    for (let i = from - lo; i < to - lo; i++) {
      const line = lines[i];
      // line.trim() === '' without a new string for each line with white space at an end (warm36).
      if (isBlank(line)) continue;
      // Only a line that holds a term gets its window's score (rank/prose.ts: lineLexical is 0 for a line without one).
      const lexical = counted[i] ? lineLexical(counted, lengthOf, i, stats, tf, touched) : 0;
      // Without the embedding (lexical mode, or a query the model knows no word of) only matches count.
      if (w === 0 && lexical === 0) continue;
      // A line that cannot beat pruneAbove even with a cosine of 1 is not tokenized (most lines, once the
      // top-k is full: their lexical score is 0 or small).
      if (w > 0 && proseBestDistance(lexical, path, plan) > prune) continue;
      const at = from + (i - (from - lo));
      const k: ProseLine = { at, lexical, stats, path };
      items.push(k);
      if (w === 0) continue;
      if (tokens && fileLine + at < tokens.norms.length) { k.kept = tokens; k.line = fileLine + at; } else texts.push(req.ignoreCase ? line.toLowerCase() : line);
    }
  }
  if (items.length === 0) return;
  let distances: Float32Array | null = null;
  if (w > 0) {
    // A loop, not Float32Array.from(items, fn): that walks the array through its iterator, a result object a line.
    const budgets = new Float32Array(items.length);
    for (let j = 0; j < items.length; j++) budgets[j] = budget(prune, items[j], w, plan.weights.path);
    // A kept line whose cosine provably cannot reach its budget is pruned here (Infinity, as the kernel's
    // bound would), the others go to the kernel without a budget (their bound is this tighter one).
    let pruned: Uint8Array | null = null;
    if (keptLines && items.some((k) => k.kept)) {
      const cosines = keptLines.cosines(req.query);
      pruned = new Uint8Array(items.length);
      items.forEach((k, j) => {
        if (!k.kept) return;
        const floor = 1 - budgets[j];
        if (floor > BOUND_MARGIN && cosines.lineBest(k.kept, k.line!) < floor - BOUND_MARGIN) pruned![j] = 1;
        else budgets[j] = 2;
      });
    }
    distances = pruned ? await scoreUnpruned(items, pruned, tokenize(texts), req.query, budgets, kernel) : await kernel.score(withKeptIds(items, tokenize(texts)), req.query, budgets);
  }
  items.forEach((k, j) => {
    const d = distances ? distances[j] : NaN;
    if (d === Infinity) return;
    const cosine = d === d ? 1 - d : 0;
    if (k.lexical === 0 && !(cosine > 0)) return;
    out[k.at] = toDistance(proseRelevance(cosine, k.lexical, k.path.pathMatch, k.path.prior, plan));
  });
}

/** Ranges of documents that hold no term scored from their kept lines' bounds (termlessLines), their lines, and those of them read (tests). */
const work = { termlessRanges: 0, termlessLines: 0, termlessRead: 0 };
export function proseScoringWork(): { termlessRanges: number; termlessLines: number; termlessRead: number } {
  return { ...work };
}

/**
 * The items of lines [from, to) of a document that holds no term (every line's lexical score 0) with kept
 * line tokens, as the loop above makes them, without counting or decoding the lines the kernel's bound
 * would drop: a line whose cosine bound (`bounds`: LineCosines.lineBounds, by file line) cannot reach its
 * budget is pruned here as it would be after (its distance Infinity: nothing written); a blank line is
 * skipped as there. The lines left (a few a document) are decoded one by one.
 */
function termlessLines(
  req: ScoreRequest, from: number, to: number, fileLine: number, tokens: LineTokens, bounds: Float64Array,
  r: { stats: ProseStats; path: PathSignals; w: number; prune: number; plan: ChunkRequest['plan'] }, items: ProseLine[], texts: string[],
): void {
  const { stats, path, w, prune, plan } = r;
  work.termlessRanges++;
  work.termlessLines += to - from;
  // Without the embedding no line scores, and one that cannot beat pruneAbove with a cosine of 1 none can.
  if (w === 0 || proseBestDistance(0, path, plan) > prune) return;
  // Every line's budget (a Float32Array's, as the pruning below reads it), and the bound under which it is pruned there.
  const floor = 1 - Math.fround(budget(prune, { at: 0, lexical: 0, stats, path }, w, plan.weights.path));
  const cut = floor > BOUND_MARGIN ? floor - BOUND_MARGIN : -Infinity;
  for (let at = from; at < to; at++) {
    const line = fileLine + at;
    if (line < bounds.length && bounds[line] < cut) continue;
    const text = decodeLines(req.bytes, req.offsets, at, at + 1)[0];
    work.termlessRead++;
    if (isBlank(text)) continue;
    const k: ProseLine = { at, lexical: 0, stats, path };
    items.push(k);
    if (line < tokens.norms.length) { k.kept = tokens; k.line = line; } else texts.push(req.ignoreCase ? text.toLowerCase() : text);
  }
}

/** The cosine distance a line must beat for its relevance to beat `pruneAbove` (2: cannot prune). */
function budget(pruneAbove: number, k: ProseLine, w: number, pathWeight: number): number {
  if (!(pruneAbove > 0) || !Number.isFinite(pruneAbove) || !(k.path.prior > 0)) return 2;
  const rest = (1 - w) * k.lexical + pathWeight * k.path.pathMatch;
  const cos = (toRelevance(pruneAbove) / k.path.prior - rest) / w;
  return Math.min(2, 1 - cos);
}

/** Margin on a kept line's cosine bound against float rounding (static.ts BOUND_MARGIN). */
const BOUND_MARGIN = 1e-4;

/** The items' distances, Infinity for the pruned ones: the others scored in one batch (the tokenized texts are the non-kept items', in order). */
async function scoreUnpruned(items: ProseLine[], pruned: Uint8Array, tokenized: TokenizedBatch, query: Float32Array, budgets: Float32Array, kernel: PoolingKernel): Promise<Float32Array> {
  const out = new Float32Array(items.length).fill(Infinity);
  const left: number[] = [];
  for (let j = 0; j < items.length; j++) if (!pruned[j]) left.push(j);
  if (left.length === 0) return out;
  const leftBudgets = new Float32Array(left.length);
  for (let i = 0; i < left.length; i++) leftBudgets[i] = budgets[left[i]];
  const d = await kernel.score(withKeptIds(left.map((j) => items[j]), tokenized), query, leftBudgets);
  left.forEach((j, i) => { out[j] = d[i]; });
  return out;
}

/** One batch of the items' ids in order: a kept line's from its tokens, the others' from `tokenized` (their texts, in order). */
function withKeptIds(items: ProseLine[], tokenized: TokenizedBatch): TokenizedBatch {
  if (tokenized.lineStarts.length - 1 === items.length) return tokenized;
  let total = tokenized.ids.length;
  for (const k of items) if (k.kept) total += k.kept.starts[k.line! + 1] - k.kept.starts[k.line!];
  const ids = new Int32Array(total);
  const lineStarts = new Uint32Array(items.length + 1);
  let at = 0;
  let text = 0;
  items.forEach((k, j) => {
    lineStarts[j] = at;
    if (k.kept) {
      const { ids: kept, starts } = k.kept;
      for (let t = starts[k.line!]; t < starts[k.line! + 1]; t++) ids[at++] = kept[t];
    } else {
      const from = tokenized.lineStarts[text];
      const to = tokenized.lineStarts[++text];
      ids.set(tokenized.ids.subarray(from, to), at);
      at += to - from;
    }
  });
  lineStarts[items.length] = at;
  return { ids, lineStarts };
}
