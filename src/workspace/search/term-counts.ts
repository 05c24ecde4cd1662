// The query terms' line postings for the candidate pass (the term chunks it bounds one by one, and their
// BM25's term frequencies): their BM25s worked out a term at a time, or the counts turned into per-chunk entries.
import type { RankPlan } from '../../rank/plan.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import type { Entries } from '../snapshot/postings.js';
import type { CoveredPaths } from './covered-paths.js';
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
  const found = termEntries(s, plan);
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
 * Each term chunk's BM25 over the query terms and its file's path terms, worked out a term at a time:
 * held[c] is 1 where chunk c of a covered file holds a query term, and bm25[c] is then the sum the
 * candidate pass's per-chunk merge (bm25Of) makes: each term's contribution, the chunk's line count and
 * its path's count added before the saturation, summed in term order (the same floats in the same
 * order). A term's entries are read once each, where a walk in chunk order looked at every term at
 * each chunk that holds one (24 x ~20,000 looks for find_related's chunk: nearly every chunk holds one
 * of its terms). Chunk-indexed throughout, so files need not be in chunk order (an appended snapshot's
 * changed files sit after the last chunk). Null where the lists are not each ascending by chunk (a
 * snapshot file written before postings.ts merged them by chunk: a chunk's repeats must be adjacent), the plan without terms or
 * with more than WALK_TERMS of them: lineTermCounts then lays the counts out per chunk.
 * The arrays are reused by the next call.
 */
export interface TermBm25s { held: Uint8Array; bm25: Float64Array }

/** The most terms a plan's BM25s are worked out a term at a time with; past it the counts are laid out per chunk (as before the term-at-a-time pass). */
export const WALK_TERMS = 24;

let walkOn = true;

/** Lets the tests and benches compare the term-at-a-time BM25s with the per-chunk entries (on by default). */
export function setTermWalk(on: boolean): void {
  walkOn = on;
}

export function termBm25s(s: Snapshot, plan: RankPlan, p: CoveredPaths, idf: Float64Array): TermBm25s | null {
  const nTerms = plan.terms.length;
  if (!walkOn || nTerms === 0 || nTerms > WALK_TERMS) return null;
  const { k1, b, avgdl, tokensPerChar } = plan.bm25;
  // A chunk's norm carries in its sign whether its path holds a query term: only sound where every
  // norm is above 0 (k1 > 0, b in [0, 1], avgdl > 0), as BM25's settings are; others are laid out per chunk.
  if (!(k1 > 0 && b >= 0 && b <= 1 && avgdl > 0 && tokensPerChar >= 0)) return null;
  const found = termEntries(s, plan);
  const n = s.start.length;
  const k1p = k1 + 1;
  // The loops read locals only (as selectCandidates').
  const { chunkFile, files } = s;
  const { covered, pathStart, pathEnd, pathTerm, pathCount } = p;
  const held = work('held', Uint8Array, n, true);
  const bm25 = work('bm25', Float64Array, n);
  // Per chunk: its norm (kept per coverage: chunkNorms), negated where its file's path holds a query term
  // (0: its file is not covered), and that file's first path term, so an entry reads one chunk's slot,
  // not its file's; its BM25 0 (those with path terms set when first held). Only the covered chunks'
  // span [lo, hi) is set: the entries outside it are only checked to ascend.
  const { base, lo, hi } = chunkNorms(s, p, plan.bm25);
  const norm = work('norm', Float64Array, n);
  norm.set(base, lo);
  bm25.fill(0, lo, hi);
  const pathAt = work('pathAt', Int32Array, n);
  const withPath = filesByPathTerm(files.length, nTerms, covered, pathStart, pathEnd, pathTerm);
  for (const file of withPath.holding) {
    const at = pathStart[file];
    if (pathEnd[file] === at) continue;
    const { firstChunk, chunkCount } = files[file];
    for (let c = firstChunk; c < firstChunk + chunkCount; c++) {
      norm[c] = -norm[c];
      pathAt[c] = at;
    }
  }
  // The last term whose lines chunk c holds, where its path holds terms (read only where held[c] is 1).
  const lineTerm = work('lineTerm', Int32Array, n);
  for (let t = 0; t < nTerms; t++) {
    const f = found[t];
    const w = idf[t];
    if (f) {
      const { chunk, count } = f;
      const len = chunk.length;
      let last = -1;
      let j = 0;
      // The entries before the covered chunks' span, then after it: only checked to ascend (none is covered).
      for (; j < len && chunk[j] < lo; j++) {
        if (chunk[j] < last) return null;
        last = chunk[j];
      }
      for (; j < len; j++) {
        const c = chunk[j];
        if (c >= hi) break;
        // A list that does not ascend: its chunk's repeats may be apart (the caller lays the counts out per chunk).
        if (c < last) return null;
        last = c;
        // A chunk listed twice under one key (a layer and its tail) adds up, as one count.
        let f2 = count[j];
        while (j + 1 < len && chunk[j + 1] === c) f2 += count[++j];
        const v = norm[c];
        if (v > 0) {
          held[c] = 1;
          if (f2 > 0) bm25[c] += w * (f2 * k1p) / (f2 + v);
          continue;
        }
        if (v === 0) continue;
        const nm = -v;
        let at = pathAt[c];
        const pEnd = pathEnd[chunkFile[c]];
        if (held[c] === 0) {
          // First held at term t: its path's terms before t (its lines hold none of them).
          held[c] = 1;
          let sum = 0;
          for (; at < pEnd && pathTerm[at] < t; at++) {
            const pc = pathCount[at];
            if (pc > 0) sum += idf[pathTerm[at]] * (pc * k1p) / (pc + nm);
          }
          bm25[c] = sum;
        }
        lineTerm[c] = t;
        while (at < pEnd && pathTerm[at] < t) at++;
        if (at < pEnd && pathTerm[at] === t) f2 += pathCount[at];
        if (f2 > 0) bm25[c] += w * (f2 * k1p) / (f2 + nm);
      }
      for (; j < len; j++) {
        if (chunk[j] < last) return null;
        last = chunk[j];
      }
    }
    // Term t from the path alone, for the chunks already held whose lines do not hold it.
    for (let i = withPath.from[t]; i < withPath.from[t + 1]; i++) {
      const file = withPath.file[i];
      const pc = pathCount[withPath.at[i]];
      if (!(pc > 0)) continue;
      const first = files[file].firstChunk;
      const end = first + files[file].chunkCount;
      for (let c = first; c < end; c++) if (held[c] === 1 && lineTerm[c] !== t) bm25[c] += w * (pc * k1p) / (pc - norm[c]);
    }
  }
  return { held, bm25 };
}

/**
 * The covered chunks' BM25 norms, k1 (1 - b + b dl / avgdl) with dl a chunk's chars and its file's path
 * length in tokens, for the span [lo, hi) of the covered files' chunks only (base[c - lo]; 0 where a
 * chunk's file is not covered): the same for every query over the same covered files (the settings are
 * BM25's defaults), so kept per coverage (covered-paths.ts keeps `covered` and `pathLengthOf` per display
 * list) and copied, not worked out, per query.
 */
interface ChunkNorms { chars: Snapshot['chars']; files: Snapshot['files']; pathLengthOf: Int32Array; settings: string; chunks: number; base: Float64Array; lo: number; hi: number }

const normsByCoverage = new WeakMap<Uint8Array, ChunkNorms>();

function chunkNorms(s: Snapshot, p: CoveredPaths, settings: RankPlan['bm25']): ChunkNorms {
  const { k1, b, avgdl, tokensPerChar } = settings;
  const key = `${k1} ${b} ${avgdl} ${tokensPerChar}`;
  const { chars, files } = s;
  const { covered, pathLengthOf } = p;
  const kept = normsByCoverage.get(covered);
  if (kept && kept.chars === chars && kept.files === files && kept.pathLengthOf === pathLengthOf && kept.settings === key && kept.chunks === s.start.length) return kept;
  // The covered chunks' span first: a display list keeps the norms of its span, not of the whole index.
  let lo = s.start.length;
  let hi = 0;
  for (let file = 0; file < files.length; file++) {
    if (covered[file] === 0) continue;
    const { firstChunk, chunkCount } = files[file];
    if (chunkCount > 0 && firstChunk < lo) lo = firstChunk;
    if (firstChunk + chunkCount > hi) hi = firstChunk + chunkCount;
  }
  if (hi < lo) lo = hi = 0;
  const base = new Float64Array(hi - lo);
  for (let file = 0; file < files.length; file++) {
    if (covered[file] === 0) continue;
    const { firstChunk, chunkCount } = files[file];
    const pathLength = pathLengthOf[file];
    for (let c = firstChunk; c < firstChunk + chunkCount; c++) {
      const dl = (chars[c] + pathLength) * tokensPerChar;
      base[c - lo] = k1 * (1 - b + (b * dl) / avgdl);
    }
  }
  const out = { chars, files, pathLengthOf, settings: key, chunks: s.start.length, base, lo, hi };
  normsByCoverage.set(covered, out);
  return out;
}

/** The covered files whose path holds term t, and where in pathTerm: [from[t], from[t + 1]) of file and at; `holding`: the covered files whose path holds one. */
function filesByPathTerm(nFiles: number, nTerms: number, covered: Uint8Array, pathStart: Int32Array, pathEnd: Int32Array, pathTerm: number[]) {
  const from = new Int32Array(nTerms + 1);
  const holding: number[] = [];
  for (let f = 0; f < nFiles; f++) {
    if (covered[f] === 0 || pathStart[f] < 0) continue;
    holding.push(f);
    for (let p = pathStart[f]; p < pathEnd[f]; p++) from[pathTerm[p] + 1]++;
  }
  for (let t = 0; t < nTerms; t++) from[t + 1] += from[t];
  const file = new Int32Array(from[nTerms]);
  const at = new Int32Array(from[nTerms]);
  const next = from.slice(0, nTerms);
  for (const f of holding) for (let p = pathStart[f]; p < pathEnd[f]; p++) { const i = next[pathTerm[p]]++; file[i] = f; at[i] = p; }
  return { from, file, at, holding };
}

/**
 * Each plan term's entries (null: none), by a loop, not `map`: V8's `map` makes a list of one elements kind
 * in the interpreter and of another once compiled, and termBm25s' loop was compiled for one ("wrong map";
 * latency-log.md, warm36).
 */
function termEntries(s: Snapshot, plan: RankPlan): (Entries | null)[] {
  const found: (Entries | null)[] = [];
  for (let t = 0; t < plan.terms.length; t++) {
    const term = plan.terms[t];
    found.push((term.whole ? s.byLower : s.byStem).find(term.key));
  }
  return found;
}
