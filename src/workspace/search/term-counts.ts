// The query terms' line postings for the candidate pass (the term chunks it bounds one by one, and their
// BM25's term frequencies): laid end to end for a walk in chunk order, or turned into per-chunk entries.
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

/**
 * The query terms' postings laid end to end (term t's entries are [from[t], to[t]) of chunk and count),
 * for a walk in chunk order beside the files: each term's list ascending by chunk (a chunk's repeats
 * adjacent) and the files' chunks in file order. Null where they are not (a patched snapshot's joined
 * lists, renumbered chunks), where the plan has no terms, or more than WALK_TERMS of them (the walk
 * looks at every term at each chunk that holds one): lineTermCounts then lays them out per chunk.
 */
export interface TermLists { from: Int32Array; to: Int32Array; chunk: Int32Array; count: Int32Array }

/** The most terms a plan's lists are walked with; past it, per-chunk entries cost less than a look at every term per chunk. */
export const WALK_TERMS = 24;

let walkOn = true;

/** Lets the tests and benches compare the walk with the per-chunk entries (on by default). */
export function setTermWalk(on: boolean): void {
  walkOn = on;
}

export function termLists(s: Snapshot, plan: RankPlan): TermLists | null {
  const nTerms = plan.terms.length;
  if (!walkOn || nTerms === 0 || nTerms > WALK_TERMS || !filesInChunkOrder(s)) return null;
  const found = plan.terms.map((term) => (term.whole ? s.byLower : s.byStem).find(term.key));
  let total = 0;
  for (const f of found) if (f) total += f.chunk.length;
  const from = new Int32Array(nTerms);
  const to = new Int32Array(nTerms);
  const chunk = work('walkChunk', Int32Array, total);
  const count = work('walkCount', Int32Array, total);
  let at = 0;
  for (let t = 0; t < nTerms; t++) {
    from[t] = at;
    const f = found[t];
    if (f) {
      const c = f.chunk;
      const k = f.count;
      let last = -1;
      for (let j = 0; j < c.length; j++) {
        if (c[j] < last) return null;
        chunk[at] = last = c[j];
        count[at++] = k[j];
      }
    }
    to[t] = at;
  }
  return { from, to, chunk, count };
}

/** Per file list, whether its files' chunks follow each other in file order (a patched snapshot's may not). */
const inOrder = new WeakMap<Snapshot['files'], boolean>();

function filesInChunkOrder(s: Snapshot): boolean {
  let ok = inOrder.get(s.files);
  if (ok === undefined) {
    ok = true;
    let last = 0;
    for (const f of s.files) {
      if (f.chunkCount === 0) continue;
      if (f.firstChunk < last) { ok = false; break; }
      last = f.firstChunk + f.chunkCount;
    }
    inOrder.set(s.files, ok);
  }
  return ok;
}
