// How a chunk's signals become its relevance and the distance the top-k ranks (1 / (1 + relevance)): the
// fusion of the cosine, the lexical score, the symbol and the path, and the bounds taken from it (the
// least distance a chunk's lexical signals allow; the cosine a chunk must beat). Its signals are
// counted by chunk-scorer.ts.
import type { PathSignals } from './path-signals.js';
import type { RankPlan } from './plan.js';

/** A chunk's lexical signal (lexicalScore of its BM25) and symbol, known beforehand (the index's: workspace/search/candidates.ts). */
export interface KnownSignals { lexical: number; symbol: number }

/** Maps BM25 to 0..1: one match of every query term (bm25 ~ idfSum) gives 0.5. */
export function lexicalScore(bm25: number, plan: RankPlan): number {
  return plan.idfSum > 0 ? bm25 / (bm25 + plan.idfSum) : 0;
}

/**
 * Relevance of a chunk (0 and up) from its signals; `semantic` is the cosine of its text to the query. The
 * candidate pass writes toDistance of it out in its loops (workspace/search/candidates.ts): change both.
 */
export function relevance(semantic: number, lexical: number, symbol: number, path: PathSignals, plan: RankPlan): number {
  const w = plan.weights;
  const fused = w.semantic * Math.max(0, semantic) + (1 - w.semantic) * lexical + w.symbol * symbol + w.path * path.pathMatch;
  return fused * path.prior;
}

/** The distance the top-k heap ranks (lower is better): 1 / (1 + relevance), in (0, 1]. */
export function toDistance(relevance: number): number {
  return 1 / (1 + relevance);
}

export function toRelevance(distance: number): number {
  return 1 / distance - 1;
}

/** Slack on a cosine's upper bound of 1 and on the distance that follows, for the floats (as prose.ts's). */
const COSINE_SLACK = 1e-3;

/**
 * The least distance a chunk with these lexical signals can have, whatever its cosine (at most 1), a
 * little lower for the floats: a chunk whose best case is farther than the top-k's floor cannot enter
 * it, so its lines are not tokenized (embed/chunk-scoring.ts).
 */
export function chunkBestDistance(lexical: number, symbol: number, path: PathSignals, plan: RankPlan): number {
  return toDistance(relevance(1 + COSINE_SLACK, lexical, symbol, path, plan)) * (1 - COSINE_SLACK);
}

/** The cosine distance a chunk's text must beat for the chunk to beat `pruneAbove` (2: cannot prune). */
export function semanticBudget(pruneAbove: number, lexical: number, symbol: number, path: PathSignals, plan: RankPlan): number {
  const w = plan.weights;
  if (!(pruneAbove > 0) || !(w.semantic > 0) || !(path.prior > 0)) return 2;
  const rest = (1 - w.semantic) * lexical + w.symbol * symbol + w.path * path.pathMatch;
  const cos = (toRelevance(pruneAbove) / path.prior - rest) / w.semantic;
  return Math.min(2, 1 - cos);
}
