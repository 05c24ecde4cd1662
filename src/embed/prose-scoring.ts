// Prose ranges of a batch (rank/prose.ts): each non-blank line gets one fused distance from its own
// BM25 and, when it holds a term, its window's (the line with its neighbours; the file's document
// frequencies) and its own cosine to the query, weighted by plan.prose.
// Lines that provably cannot beat `pruneAbove` are skipped by the kernel's exact bound.
import { decodeLines } from '../text/decode.js';
import type { TokenizedBatch } from '../types.js';
import { toDistance, toRelevance } from '../rank/chunk-scorer.js';
import { pathSignals, type PathSignals } from '../rank/path-signals.js';
import { lineLexical, lineTerms, PROSE_WINDOW_LINES, proseBestDistance, proseRelevance, proseTermCount, type ProseStats } from '../rank/prose.js';
import type { PoolingKernel } from './embedder.js';
import type { LineTokens } from './line-cosines.js';
import type { ChunkRequest, ScoreRequest } from './requests.js';

/** A line to score; `kept`/`line`: its ids are kept tokens' line `line` (else its text is tokenized, in order). */
interface ProseLine { at: number; lexical: number; stats: ProseStats; path: PathSignals; kept?: LineTokens; line?: number }

/**
 * Writes the distance of each prose line of the batch into `out` (other lines are left as they are).
 * `model`: the scorer's model id: a range's kept line tokens of that model (c.rangeTokens) give its lines'
 * ids, the very ids tokenizing the line gives (line-scorer.ts tokenLines), so the kernel scores the same.
 */
export async function scoreProseRanges(
  req: ScoreRequest, c: ChunkRequest, tokenize: (texts: string[]) => TokenizedBatch, kernel: PoolingKernel, out: Float32Array, model?: string,
): Promise<void> {
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
    const lo = Math.max(c.rangeLines?.[r] ?? from, from - PROSE_WINDOW_LINES);
    const hi = Math.min(c.rangeLines?.[r + 1] ?? to, to + PROSE_WINDOW_LINES);
    const lines = decodeLines(req.bytes, req.offsets, lo, hi);
    const counted = lines.map((line) => lineTerms(line, plan, tf, touched));
    const path = pathSignals(c.rangePaths[r >> 1], plan);
    // Kept tokens by file line: the score range starts at file line rangeFirstLines (none for a search that folds case).
    const kept = !req.ignoreCase && model !== undefined ? c.rangeTokens?.[r >> 1] : undefined;
    const tokens = kept && kept.model === model ? kept : null;
    const fileLine = c.rangeFirstLines[r >> 1] - from;
    for (let i = from - lo; i < to - lo; i++) {
      const line = lines[i];
      if (line.trim() === '') continue;
      // Only a line that holds a term gets its window's score (rank/prose.ts).
      const lexical = lineLexical(counted, (j) => lines[j].length, i, stats, tf, touched);
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
    const budgets = Float32Array.from(items, (k) => budget(prune, k, w, plan.weights.path));
    distances = await kernel.score(withKeptIds(items, tokenize(texts)), req.query, budgets);
  }
  items.forEach((k, j) => {
    const d = distances ? distances[j] : NaN;
    if (d === Infinity) return;
    const cosine = d === d ? 1 - d : 0;
    if (k.lexical === 0 && !(cosine > 0)) return;
    out[k.at] = toDistance(proseRelevance(cosine, k.lexical, k.path.pathMatch, k.path.prior, plan));
  });
}

/** The cosine distance a line must beat for its relevance to beat `pruneAbove` (2: cannot prune). */
function budget(pruneAbove: number, k: ProseLine, w: number, pathWeight: number): number {
  if (!(pruneAbove > 0) || !Number.isFinite(pruneAbove) || !(k.path.prior > 0)) return 2;
  const rest = (1 - w) * k.lexical + pathWeight * k.path.pathMatch;
  const cos = (toRelevance(pruneAbove) / k.path.prior - rest) / w;
  return Math.min(2, 1 - cos);
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
