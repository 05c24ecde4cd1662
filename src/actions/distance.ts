// What an action result's `distance` means in each mode, and how `max_distance` reaches the ranking.
// line (the default, the seeds' meaning): the matched line's cosine distance to the query, 0 identical
// .. 1 orthogonal .. 2 opposite. Ranked modes (hybrid, semantic, lexical) rank chunks by a relevance
// r >= 0, which the searcher keeps as 1/(1+r): that never reaches 0 (and in semantic mode never went
// below 0.5), so a documented threshold like 0.3 could be unreachable. Actions report instead
// 1 - r / r_self, clamped to 0..1, where r_self is the relevance the query's own text scores in that
// mode: 0 = at least as relevant as the query itself (semantic: cosine 1), 1 = no relevance. The map
// is monotone, so the order is the searcher's own.
import type { SearchMode } from '../types.js';
import type { Searcher } from '../searcher/api.js';

export interface DistanceScale {
  mode: SearchMode;
  /** Relevance of the query's own text in the mode (ranked modes only). */
  selfRelevance: number;
}

/** The scale of a search: for ranked modes, the query scored against its own text (a one-line search). */
export async function distanceScale(searcher: Searcher, query: string, mode: SearchMode, ignoreCase: boolean): Promise<DistanceScale> {
  if (mode === 'line') return { mode, selfRelevance: 1 };
  const self = await searcher.searchContent({ query, content: query, mode, topK: 1, nLines: 0, ignoreCase });
  const d = self.results[0]?.distance;
  const r = d !== undefined && d > 0 && d < 1 ? 1 / d - 1 : 0;
  return { mode, selfRelevance: r > 0 ? r : 1 };
}

/** The distance an action reports for a hit the searcher ranked at `internal`. */
export function reportedDistance(s: DistanceScale, internal: number): number {
  if (s.mode === 'line') return internal;
  const r = 1 / internal - 1;
  return Math.max(0, Math.min(1, 1 - r / s.selfRelevance));
}

/**
 * The searcher's max distance that keeps exactly the hits whose reported distance is below
 * `maxDistance` (strictly, as semtools and the line mode compare).
 */
export function internalMaxDistance(s: DistanceScale, maxDistance: number | undefined): number | undefined {
  if (maxDistance === undefined || s.mode === 'line') return maxDistance;
  if (maxDistance <= 0) return 0;
  if (maxDistance >= 1) return Infinity;
  // 1 - r/r_self < D  <=>  r > r_self (1 - D)  <=>  1/(1+r) < 1 / (1 + r_self (1 - D)).
  return 1 / (1 + s.selfRelevance * (1 - maxDistance));
}
