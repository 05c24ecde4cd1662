// Picks, from every indexed chunk, the few that can be among a query's results: each chunk's relevance
// is bounded from the index alone (its unit vector's cosine, BM25 from the term postings and its
// file's path terms, and the certain and possible symbol boosts from the defined-name postings), and
// only chunks whose best case reaches the heap's worst guaranteed case are kept. The pipeline then
// scores those exactly, with the same code as a one-shot scan, so indexed answers equal one-shot ones.
import { lexicalScore, pathSignals, relevance, symbolScore, toDistance, type PathSignals } from '../../rank/chunk-scorer.js';
import type { RankPlan } from '../../rank/plan.js';
import { BLANK, HAS_TOKENS, type Snapshot } from '../snapshot/snapshot.js';
import { FLOAT16_RELATIVE_ERROR, halfValues } from '../packed/float16.js';
import { pathInfo, pathTermCounts, priorsIndex, type PathInfo } from '../snapshot/path-info.js';
import { termIndexOf } from '../../rank/term-index.js';
import { cosineKernel, halfCosine } from './chunk-cosines.js';

/**
 * Margin on distances: cosines from float16 unit vectors differ from the kernel's float64 pooling by
 * at most the float16 rounding (|q.dv| <= 2^-11 |q||v|), and a distance moves less than the cosine.
 */
const EPS = 2 * FLOAT16_RELATIVE_ERROR + 1e-6;

export interface CandidateQuery {
  plan: RankPlan;
  /** Unit query vector. */
  query: Float32Array;
  /** Display path of each snapshot file the search covers (undefined: not covered). */
  display: (string | undefined)[];
  /** The paths' facts, if the caller keeps them (else looked up per query). */
  infos?: (PathInfo | undefined)[];
  /** How many hits the pipeline's heap keeps (Infinity with --max-distance alone). */
  heapSize: number;
  maxDistance?: number;
  /**
   * A resident process (searched many times): the cosines come from the snapshot's float32 copy and a
   * SIMD kernel (chunk-cosines.ts), made in the background after the first search. Else the float16
   * rows are read as they are.
   */
  resident?: boolean;
}

/** Chunk indices that can reach the results, in snapshot order (by file, then line). */
export function selectCandidates(s: Snapshot, q: CandidateQuery): number[] {
  const { plan } = q;
  const n = s.start.length;
  const tf = lineTermCounts(s, plan);
  const nTerms = plan.terms.length;
  // Every eligible chunk's distance at best (lo) and at worst (hi), in eligible order.
  const lo = work('lo', Float64Array, n);
  const hi = work('hi', Float64Array, n);
  const eligible = work('eligible', Int32Array, n);
  let count = 0;
  // A term's count in the current file's path (zero but for pathTerms, ascending, reset per file).
  const pathTf = new Float64Array(nTerms);
  const pathTerms: number[] = [];
  const defs = definitionBounds(s, q, plan);
  const { k1, b, avgdl, tokensPerChar } = plan.bm25;
  // The hot loop reads locals only: snapshots made in different ways have different shapes, and a
  // property read per chunk through a many-shaped object costs more than the arithmetic.
  const { flags, chars, halves, dim, files } = s;
  const values = halfValues();
  const matched = tf?.matched;
  const offsets = tf?.offsets;
  const filled = tf?.filled;
  const entryTerm = tf?.term;
  const entryCount = tf?.count;
  const idf = Float64Array.from(plan.terms, (t) => t.idf);
  const possibleOf = defs?.possible;
  const certainOf = defs?.certain;
  const { mode } = plan;
  // As in the scan (chunk-scoring.ts): a plan that gives the embedding no weight ranks lexically.
  const lexicalOnly = mode === 'lexical' || !(plan.weights.semantic > 0);
  const query = q.query;
  // The cosines of the covered files' chunks at once, where the snapshot's kernel is ready.
  const cosines = lexicalOnly ? null : coveredCosines(s, q);
  const wordPrefixes = new Set(plan.pathWords.filter((w) => w.length >= 3).map((w) => w.slice(0, 3)));
  const priors = priorsIndex(plan);
  const index = termIndexOf(plan);
  for (let f = 0; f < files.length; f++) {
    const path = q.display[f];
    const file = files[f];
    if (path === undefined || file.chunkCount === 0) continue;
    const info = q.infos?.[f] ?? pathInfo(path);
    const pathLength = info.pathText.length;
    // A path word can only match a name that starts with the same three letters (pathSignals' rule).
    const signals = plan.pathWords.length === 0 || !sharesPrefix(info.namePrefixes, wordPrefixes)
      ? info.priors[priors]
      : pathSignals(path, plan, info.facts);
    // A term's count in the path, kept with the path; countTerms only for a path that holds its probe.
    for (const t of pathTerms) pathTf[t] = 0;
    pathTerms.length = 0;
    if (nTerms > 0) pathTermCounts(info, plan, pathTf, pathTerms, index);
    const end = file.firstChunk + file.chunkCount;
    for (let c = file.firstChunk; c < end; c++) {
      const hasTokens = (flags[c] & HAS_TOKENS) !== 0;
      const lineMatch = matched !== undefined && matched[c] === 1;
      let bm25 = 0;
      if (nTerms > 0) {
        const dl = (chars[c] + pathLength) * tokensPerChar;
        const norm = k1 * (1 - b + (b * dl) / avgdl);
        // The terms the chunk's lines or its path hold, merged in term order (the sum a dense loop over
        // every term would make, without its cost over a long query's terms).
        let e = offsets !== undefined ? offsets[c] : 0;
        const eEnd = offsets !== undefined ? e + filled![c] : 0;
        let p = 0;
        while (e < eEnd || p < pathTerms.length) {
          const te = e < eEnd ? entryTerm![e] : nTerms;
          const tp = p < pathTerms.length ? pathTerms[p] : nTerms;
          let t: number;
          let f2: number;
          if (te <= tp) { t = te; f2 = entryCount![e++] + pathTf[t]; if (tp === te) p++; } else { t = tp; f2 = pathTf[t]; p++; }
          if (f2 > 0) bm25 += idf[t] * (f2 * (k1 + 1)) / (f2 + norm);
        }
      }
      let keep: boolean;
      if (lexicalOnly) keep = bm25 > 0 && (flags[c] & BLANK) === 0;
      else if (mode === 'semantic') keep = hasTokens;
      else keep = hasTokens || lineMatch;
      if (!keep) continue;
      const semantic = lexicalOnly || !hasTokens ? 0 : cosines ? cosines[c] : halfCosine(halves, values, c * dim, query, dim);
      const lexical = lexicalScore(bm25, plan);
      const possible = lineMatch && possibleOf ? possibleOf[c] : 0;
      const certain = lineMatch && certainOf ? certainOf[c] : 0;
      lo[count] = toDistance(relevance(semantic, lexical, possible, signals, plan));
      // Most chunks have no definition bound (no line term): their worst case is their best.
      hi[count] = certain === possible ? lo[count] : toDistance(relevance(semantic, lexical, certain, signals, plan));
      eligible[count++] = c;
    }
  }
  return choose(q, eligible.subarray(0, count), lo, hi);
}

/** Whether a path's name prefixes hold one of the plan's path words' (a loop: called per file, ~9,000 a query). */
function sharesPrefix(prefixes: string[], words: Set<string>): boolean {
  for (let i = 0; i < prefixes.length; i++) if (words.has(prefixes[i])) return true;
  return false;
}

/** Each covered file's chunks' cosines (indexed by chunk), from the kernel; null when it is not ready. */
function coveredCosines(s: Snapshot, q: CandidateQuery): Float64Array | null {
  const kernel = cosineKernel(s.halves, s.dim, q.resident === true);
  if (!kernel) return null;
  const out = work('cosines', Float64Array, s.start.length);
  kernel.setQuery(q.query);
  // Runs of adjacent covered files in one call each (a search of a directory covers a run of files).
  let from = -1;
  let to = -1;
  for (let f = 0; f < s.files.length; f++) {
    const file = s.files[f];
    if (q.display[f] === undefined || file.chunkCount === 0) continue;
    if (file.firstChunk !== to) { kernel.cosines(from, to, out); from = file.firstChunk; }
    to = file.firstChunk + file.chunkCount;
  }
  kernel.cosines(from, to, out);
  return out;
}

const workArrays = new Map<string, Float64Array | Int32Array | Uint8Array>();

/** A per-query work array of n elements, reused from query to query (the work is synchronous), zeroed on request. */
function work<T extends Float64Array | Int32Array | Uint8Array>(name: string, make: new (n: number) => T, n: number, zero = false): T {
  const kept = workArrays.get(name) as T | undefined;
  if (!kept || kept.length < n) {
    const fresh = new make(n);
    workArrays.set(name, fresh);
    return fresh;
  }
  const view = kept.subarray(0, n) as T;
  if (zero) view.fill(0);
  return view;
}

/**
 * Keeps chunks whose best case (lo) can beat the heapSize-th best worst case (hi). A chunk of no
 * relevance at all (distance 1 even at best) is never a result, as in the pipeline. lo and hi are
 * indexed like `eligible`.
 */
function choose(q: CandidateQuery, eligible: Int32Array, lo: Float64Array, hi: Float64Array): number[] {
  const limit = threshold(q, eligible.length, lo, hi);
  const out: number[] = [];
  for (let i = 0; i < eligible.length; i++) if (lo[i] < 1 && lo[i] <= limit) out.push(eligible[i]);
  return out;
}

/** The distance a chunk's best case must reach: the heapSize-th best worst case, plus the margin. */
function threshold(q: CandidateQuery, count: number, lo: Float64Array, hi: Float64Array): number {
  const worst = work('worst', Float64Array, count);
  let m = 0;
  let least = Infinity;
  for (let i = 0; i < count; i++) {
    if (lo[i] < 1) { worst[m++] = hi[i]; if (hi[i] < least) least = hi[i]; }
  }
  if (m === 0) return -Infinity;
  if (q.maxDistance !== undefined && !Number.isFinite(q.heapSize)) return Math.max(q.maxDistance, least) + EPS;
  if (!Number.isFinite(q.heapSize) || m <= q.heapSize) return Infinity;
  return quickSelect(worst.subarray(0, m), q.heapSize - 1) + EPS;
}

/** The k-th smallest value (0-based) of xs, reordering xs. */
function quickSelect(xs: Float64Array, k: number): number {
  let lo = 0;
  let hi = xs.length - 1;
  while (lo < hi) {
    const pivot = xs[(lo + hi) >> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (xs[i] < pivot) i++;
      while (xs[j] > pivot) j--;
      if (i <= j) { const t = xs[i]; xs[i] = xs[j]; xs[j] = t; i++; j--; }
    }
    if (k <= j) hi = j; else if (k >= i) lo = i; else return xs[k];
  }
  return xs[k];
}

/** Each chunk's term counts from the postings, sparse: entries [offsets[c], offsets[c] + filled[c]) in term order. */
interface TermCounts { offsets: Int32Array; filled: Int32Array; term: Int32Array; count: Float64Array; matched: Uint8Array }

/**
 * Term counts of every chunk's lines from the postings: a whole-identifier term counts identifiers
 * equal to it (lower-cased), a part term each part whose stem it is, as countTerms counts them (an
 * identifier that matches a term always contains that term's probe, so countTerms finds it). Kept
 * per chunk as a list of the terms it holds: its size is the postings read, not chunks x terms.
 */
function lineTermCounts(s: Snapshot, plan: RankPlan): TermCounts | null {
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
  const matched = work('matched', Uint8Array, n, true);
  const term = work('term', Int32Array, total);
  const count = work('count', Float64Array, total);
  found.forEach((f, t) => {
    if (!f) return;
    for (let j = 0; j < f.chunk.length; j++) {
      const c = f.chunk[j];
      const at = offsets[c] + filled[c];
      // A chunk listed twice under one key (a layer and its tail) adds up, as one count.
      if (filled[c] > 0 && term[at - 1] === t) count[at - 1] += f.count[j];
      else { term[at] = t; count[at] = f.count[j]; filled[c]++; }
      matched[c] = 1;
    }
  });
  return { offsets, filled, term, count, matched };
}

/**
 * Per chunk, bounds of the symbol boost chunkStats gives it (the best boost among its lines that hold
 * a query term), from the defined-name postings: `possible` takes every name the chunk defines;
 * `certain` only plain-identifier names that themselves hold a query term, since such a name's line
 * holds that term and chunkStats sees it. Null when the plan boosts no definition.
 */
function definitionBounds(s: Snapshot, q: CandidateQuery, plan: RankPlan): { possible: Float64Array; certain: Float64Array } | null {
  if (plan.symbols.length === 0 && !(plan.definitionBoost > 0 && plan.idfSum > 0)) return null;
  const n = s.start.length;
  const possible = work('possible', Float64Array, n, true);
  const certain = work('certain', Float64Array, n, true);
  // Per defined name, the idf of the query terms it holds (typed arrays, not a map: there is one
  // entry per name, whatever the query).
  const coveredIdf = work('coveredIdf', Float64Array, s.defNames.length, true);
  const isCovered = work('isCovered', Uint8Array, s.defNames.length, true);
  const covered: number[] = [];
  plan.terms.forEach((term) => {
    const found = (term.whole ? s.byDefLower : s.byDefStem).find(term.key);
    if (!found) return;
    for (let j = 0; j < found.chunk.length; j++) {
      const d = s.defStart[found.chunk[j]] + found.count[j];
      if (isCovered[d] === 0) { isCovered[d] = 1; covered.push(d); }
      coveredIdf[d] += term.idf;
    }
  });
  const chunkOf = (d: number): number => {
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (s.defStart[mid] <= d) lo = mid; else hi = mid - 1; }
    return lo;
  };
  const offer = (c: number, d: number, v: number, holdsTerm: boolean) => {
    if (v > possible[c]) possible[c] = v;
    if (holdsTerm && s.defPlain[d] === 1 && v > certain[c]) certain[c] = v;
  };
  if (plan.definitionBoost > 0 && plan.idfSum > 0) {
    for (const d of covered) offer(chunkOf(d), d, plan.definitionBoost * coveredIdf[d] / plan.idfSum, true);
  }
  for (const sym of plan.symbols) {
    const found = s.byDefLower.find(sym.name);
    if (!found) continue;
    for (let j = 0; j < found.chunk.length; j++) {
      const c = found.chunk[j];
      const d = s.defStart[c] + found.count[j];
      const path = q.display[s.chunkFile[c]];
      if (path === undefined) continue;
      const fileStem = (q.infos?.[s.chunkFile[c]] ?? pathInfo(path)).facts.fileStem;
      offer(c, d, symbolScore(s.defNames.at(d)!, plan, fileStem), isCovered[d] === 1);
    }
  }
  return { possible, certain };
}
