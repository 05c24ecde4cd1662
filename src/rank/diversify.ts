// Spreads results across files: each further chunk from a file that already has a result keeps only
// `decay` of its relevance (semble's file saturation). Works on a candidate pool a few times larger
// than k, so a file with many good chunks cannot fill every slot.
import { compareRanked } from './topk.js';
import { toDistance, toRelevance } from './chunk-scorer.js';
import type { Hit } from './windows.js';

/** How many candidates per wanted result the heap keeps when results are spread across files. */
export const CANDIDATES_PER_RESULT = 4;

export function spreadAcrossFiles(candidates: Hit[], k: number, decay: number): Hit[] {
  const sorted = [...candidates].sort(compareRanked);
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
