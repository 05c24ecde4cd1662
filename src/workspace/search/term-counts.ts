// The query terms' line postings turned into per-chunk entries (the term chunks the candidate pass
// bounds one by one, and their BM25's term frequencies).
import type { RankPlan } from '../../rank/plan.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import { work } from './work-arrays.js';

/** Each chunk's term counts from the postings, sparse: entries [offsets[c], offsets[c] + filled[c]) in term order (a chunk holds a query term where filled[c] > 0). */
export interface TermCounts { offsets: Int32Array; filled: Int32Array; term: Int32Array; count: Float64Array }

/**
 * Term counts of every chunk's lines from the postings: a whole-identifier term counts identifiers
 * equal to it (lower-cased), a part term each part whose stem it is, as countTerms counts them (an
 * identifier that matches a term always contains that term's probe, so countTerms finds it). Kept
 * per chunk as a list of the terms it holds: its size is the postings read, not chunks x terms.
 */
export function lineTermCounts(s: Snapshot, plan: RankPlan): TermCounts | null {
  const nTerms = plan.terms.length;
  if (nTerms === 0) return null;
  const n = s.start.length;
  const found = plan.terms.map((term) => (term.whole ? s.byLower : s.byStem).find(term.key));
  const offsets = work('offsets', Int32Array, n + 1, true);
  let total = 0;
  for (const f of found) {
    if (!f) continue;
    total += f.chunk.length;
    for (let j = 0; j < f.chunk.length; j++) offsets[f.chunk[j] + 1]++;
  }
  for (let c = 0; c < n; c++) offsets[c + 1] += offsets[c];
  const filled = work('filled', Int32Array, n, true);
  const term = work('term', Int32Array, total);
  const count = work('count', Float64Array, total);
  for (let t = 0; t < nTerms; t++) {
    const f = found[t];
    if (!f) continue;
    const chunk = f.chunk;
    const counts = f.count;
    for (let j = 0; j < chunk.length; j++) {
      const c = chunk[j];
      const at = offsets[c] + filled[c];
      // A chunk listed twice under one key (a layer and its tail) adds up, as one count.
      if (filled[c] > 0 && term[at - 1] === t) count[at - 1] += counts[j];
      else { term[at] = t; count[at] = counts[j]; filled[c]++; }
    }
  }
  return { offsets, filled, term, count };
}
