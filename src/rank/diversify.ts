// Chooses the final results from the candidate pool: a file whose several chunks are candidates gets
// its best chunk raised (file coherence: the answer to a broad question usually spans a file), then
// each further chunk from a file that already has a result keeps only `decay` of its relevance
// (semble's file saturation), so a file with many good chunks cannot fill every slot.
import { compareRanked } from './topk.js';
import { toDistance, toRelevance } from './relevance.js';
import type { RankPlan } from './plan.js';
import type { Hit } from './windows.js';

/** How many candidates per wanted result the heap keeps when results are spread across files. */
export const CANDIDATES_PER_RESULT = 4;

export function spreadAcrossFiles(candidates: Hit[], k: number, decay: number, coherence: number): Hit[] {
  const sorted = boostCoherentFiles(candidates, coherence).sort(compareRanked);
  const perFile = new Map<string, number>();
  const picked: Hit[] = [];
  let worstPicked = Infinity;
  for (const hit of sorted) {
    if (picked.length >= k && hit.distance >= worstPicked) break;
    const seen = perFile.get(hit.path) ?? 0;
    perFile.set(hit.path, seen + 1);
    const distance = seen === 0 ? hit.distance : toDistance(toRelevance(hit.distance) * decay ** seen);
    picked.push(seen === 0 ? hit : { ...hit, distance });
    if (picked.length >= k) worstPicked = Math.max(...picked.map((h) => h.distance));
  }
  return picked.sort(compareRanked).slice(0, k);
}

/**
 * Adds to each file's best candidate `share` of the best relevance, scaled by the file's summed
 * candidate relevance over the largest such sum (semble's file coherence boost).
 */
export function boostCoherentFiles(candidates: Hit[], share: number): Hit[] {
  if (!(share > 0) || candidates.length === 0) return [...candidates];
  const sums = new Map<string, number>();
  const best = new Map<string, Hit>();
  let maxRelevance = 0;
  for (const hit of candidates) {
    const r = toRelevance(hit.distance);
    maxRelevance = Math.max(maxRelevance, r);
    sums.set(hit.path, (sums.get(hit.path) ?? 0) + r);
    const top = best.get(hit.path);
    if (!top || compareRanked(hit, top) < 0) best.set(hit.path, hit);
  }
  const maxSum = Math.max(...sums.values());
  if (!(maxSum > 0)) return [...candidates];
  return candidates.map((hit) => {
    if (best.get(hit.path) !== hit) return hit;
    const boost = share * maxRelevance * sums.get(hit.path)! / maxSum;
    return { ...hit, distance: toDistance(toRelevance(hit.distance) + boost) };
  });
}

/** Hybrid/lexical results are spread across files, chosen from a larger pool of candidates. */
const spreads = (topK: number, rank: RankPlan | undefined): rank is RankPlan =>
  rank !== undefined && Number.isFinite(topK) && rank.fileDecay < 1;

/**
 * Whether --max-distance is applied to the hits shown rather than to each line as it is scored: where
 * results are spread across files, a hit's distance moves once it is chosen (file coherence lowers a
 * file's best, saturation raises its others), and the threshold must keep what was printed (a hit
 * printed at 0.455 came back from -m 0.46 only if its distance before the boost passed: audit44).
 * Elsewhere the distance scored is the distance shown, and thresholding as scored lets workers prune.
 */
export const thresholdsShown = (topK: number, rank: RankPlan | undefined, maxDistance: number | undefined): boolean =>
  maxDistance !== undefined && spreads(topK, rank);

/**
 * How many candidates the bounded heap keeps for topK results (the same on one machine and per shard):
 * one more than shown where results are not spread, so the answer can say whether more matched.
 */
export function candidateLimit(topK: number, rank: RankPlan | undefined): number {
  return spreads(topK, rank) ? topK * CANDIDATES_PER_RESULT + 10 : topK + 1;
}

/**
 * The kept candidates (best first) -> the hits shown: spread across files in the ranked modes; `more`
 * when a candidate was left out (more matches exist than are shown). Where the threshold is applied to
 * the hits shown (thresholdsShown), those at or past `maxDistance` are left out, `closest` is the best
 * of them when none passes, and `more` is false once the threshold cut the page (what ranks below is
 * farther still).
 */
export function finishCandidates(candidates: Hit[], topK: number, rank: RankPlan | undefined, maxDistance?: number): { hits: Hit[]; more: boolean; closest: Hit | null } {
  const ranked = spreads(topK, rank) ? spreadAcrossFiles(candidates, topK, rank.fileDecay, rank.fileCoherence) : candidates.slice(0, topK);
  const more = candidates.length > ranked.length;
  if (!thresholdsShown(topK, rank, maxDistance)) return { hits: ranked, more, closest: null };
  const hits = ranked.filter((h) => h.distance < maxDistance!);
  return { hits, more: more && hits.length === ranked.length, closest: hits.length === 0 ? ranked[0] ?? null : null };
}
