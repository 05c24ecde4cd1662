// How many of a query's path words a path's names match (pathSignals' rule: the shorter of the two, at
// least 3 characters, starts the longer), counted from the names' side for a long query: a pasted
// file has thousands of path words, and trying each against each file's few names cost seconds per
// search over a big tree. The count is the same as the word-by-word loop's.
import type { RankPlan } from './plan.js';

interface WordIndex { sorted: string[]; known: Set<string> }

/** From this many path words on, the index is used. */
const MANY_PATH_WORDS = 32;
const indexes = new WeakMap<RankPlan, WordIndex>();

export function pathWordHits(plan: RankPlan, names: readonly string[]): number {
  const words = plan.pathWords;
  if (words.length < MANY_PATH_WORDS) {
    let hits = 0;
    for (const word of words) {
      for (const name of names) {
        const wordIsShorter = word.length <= name.length;
        const short = wordIsShorter ? word : name;
        if (short.length >= 3 && (wordIsShorter ? name : word).startsWith(short)) { hits++; break; }
      }
    }
    return hits;
  }
  let ix = indexes.get(plan);
  if (!ix) { ix = { sorted: [...new Set(words)].sort(), known: new Set(words) }; indexes.set(plan, ix); }
  const hit = new Set<string>();
  for (const name of names) {
    // Words no longer than the name that start it (3 characters at least).
    for (let len = 3; len <= name.length; len++) { const w = name.slice(0, len); if (ix.known.has(w)) hit.add(w); }
    // Words longer than the name that it starts (a name of 3 characters at least).
    if (name.length < 3) continue;
    for (let i = lowerBound(ix.sorted, name); i < ix.sorted.length && ix.sorted[i].startsWith(name); i++) {
      if (ix.sorted[i].length > name.length) hit.add(ix.sorted[i]);
    }
  }
  return hit.size;
}

function lowerBound(xs: string[], key: string): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (xs[mid] < key) lo = mid + 1; else hi = mid; }
  return lo;
}
