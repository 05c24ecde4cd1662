// Picks, from every indexed chunk, the few that can be among a query's results: each chunk's relevance
// is bounded from the index alone (its unit vector's cosine, BM25 from the term postings and its
// file's path terms, and the certain and possible symbol boosts from the defined-name postings), and
// only chunks whose best case reaches the heap's worst guaranteed case are kept. The pipeline then
// scores those exactly, with the same code as a one-shot scan, so indexed answers equal one-shot ones.
import { chunkBestDistance, lexicalScore, pathSignals, relevance, symbolScore, toDistance, type PathSignals } from '../../rank/chunk-scorer.js';
import type { RankPlan } from '../../rank/plan.js';
import { BLANK, HAS_TOKENS, type Snapshot } from '../snapshot/snapshot.js';
import { FLOAT16_RELATIVE_ERROR, halfValues } from '../packed/float16.js';
import { pathInfo, pathTermCounts, priorsIndex, type PathInfo } from '../snapshot/path-info.js';
import { termIndexOf } from '../../rank/term-index.js';
import { cosineKernel, halfCosine, type CosineKernel } from './chunk-cosines.js';
import { pathPostingsOf, pathTermsOf } from './path-postings.js';

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
   * SIMD kernel (chunk-cosines.ts), made in the background after the first search, bounded first from
   * its int8 copy (cosine-bounds.ts). Else the float16 rows are read as they are.
   */
  resident?: boolean;
  /** Bound every chunk exactly, passing nothing over on its best case (the tests' reference). */
  exhaustive?: boolean;
}

/** What one candidate pass did (the bench and the tests read it). */
export interface CandidateCounts {
  /** Chunks of the covered files. */
  chunks: number;
  /** Chunks bounded exactly (their cosine worked out where it counts). */
  bounded: number;
  /** Chunks whose cosine was worked out. */
  cosines: number;
  /** Covered files with chunks, and those whose chunks that hold no query term were passed over as a whole. */
  files: number;
  skippedFiles: number;
  /** Chunks that hold a query term, and those of them passed over on their bound. */
  termChunks: number;
  skippedTermChunks: number;
}

/**
 * Chunk indices that can reach the results, in snapshot order (by file, then line).
 *
 * Bounds first, exact signals where they can matter. Each chunk that holds a query term (the postings
 * say which) gets its exact lexical and symbol signals; a file's other chunks share one best case, from
 * its path's terms at its shortest chunk and its path words, with their largest cosine (in a resident
 * process the SIMD kernel's, all of them at once, or the largest of their upper bounds where the kernel
 * has them: a term chunk's best case then takes its bound, and its cosine is worked out only where that
 * best case can matter) or 1 (the float16 rows are then read one by one, only where a cosine can
 * matter). The heap's worst guaranteed case (the threshold) is taken as chunks are bounded exactly,
 * the most promising first, and what cannot reach it is passed over: a file's term-free chunks as a
 * whole, a term chunk one by one. What is passed over can be neither a candidate
 * nor among the worst cases that set the threshold, so the answer is the one every chunk bounded gives.
 */
export function selectCandidates(s: Snapshot, q: CandidateQuery, counts?: CandidateCounts): number[] {
  const { plan } = q;
  const n = s.start.length;
  const tf = lineTermCounts(s, plan);
  const nTerms = plan.terms.length;
  const defs = definitionBounds(s, q, plan);
  const { k1, b, avgdl, tokensPerChar } = plan.bm25;
  // The hot loops read locals only: snapshots made in different ways have different shapes, and a
  // property read per chunk through a many-shaped object costs more than the arithmetic.
  const { flags, chars, halves, dim, files } = s;
  const values = halfValues();
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
  // Where the snapshot's kernel is ready, every covered chunk's cosine at once, or (where it has them)
  // upper bounds of them, the cosines then worked out by the kernel where a bound can matter; else each
  // cosine read from the float16 rows where it can matter.
  const known = lexicalOnly ? null : coveredCosines(s, q);
  const all = known && !known.bounds ? known.values : null;
  const upper = known?.bounds ? known.values : null;
  const kernel = known?.kernel;
  const exact = upper ? work('exact', Float64Array, n) : null;
  let cosines = all ? coveredChunks(s, q) : 0;
  const cosineOf = (c: number): number => {
    cosines++;
    if (exact) { kernel!.cosines(c, c + 1, exact); return exact[c]; }
    return halfCosine(halves, values, c * dim, query, dim);
  };
  const wordPrefixes = new Set(plan.pathWords.filter((w) => w.length >= 3).map((w) => w.slice(0, 3)));
  const priors = priorsIndex(plan);
  const index = termIndexOf(plan);

  // The covered files' paths: their terms and names from the path postings (those searched under other
  // names than the postings', on their own), their signals in typed arrays: pathMatch and prior.
  const nFiles = files.length;
  const infos = q.infos ?? q.display.map((p) => (p === undefined ? undefined : pathInfo(p)));
  const postings = pathPostingsOf(files, infos);
  const covered = work('covered', Uint8Array, nFiles, true);
  const own: number[] = [];
  for (let f = 0; f < nFiles; f++) {
    if (q.display[f] === undefined || files[f].chunkCount === 0) continue;
    if (infos[f] === postings.infos[f]) covered[f] = 1; else own.push(f);
  }
  const pathMatchOf = work('pathMatch', Float64Array, nFiles);
  const priorOf = work('prior', Float64Array, nFiles);
  const pathLengthOf = work('pathLength', Int32Array, nFiles);
  pathLengthOf.set(postings.pathLength.subarray(0, nFiles));
  priorOf.set(postings.priors[priors].subarray(0, nFiles));
  pathMatchOf.fill(0);
  // A path word can only match a name that starts with the same three letters (pathSignals' rule).
  const named = (f: number) => {
    const s2 = pathSignals(q.display[f]!, plan, infos[f]!.facts);
    pathMatchOf[f] = s2.pathMatch;
    priorOf[f] = s2.prior;
  };
  if (plan.pathWords.length > 0) {
    const seen = work('named', Uint8Array, nFiles, true);
    for (const prefix of wordPrefixes) for (const f of postings.byPrefix.get(prefix) ?? []) if (covered[f] === 1 && seen[f] === 0) { seen[f] = 1; named(f); }
  }
  const pathStart = work('pathStart', Int32Array, nFiles).fill(-1);
  const pathEnd = work('pathEnd', Int32Array, nFiles, true);
  const pathTerm = pathTermList;
  const pathCount = pathCountList;
  pathTerm.length = 0;
  pathCount.length = 0;
  if (nTerms > 0) pathTermsOf(postings, plan, index, covered, pathStart, pathEnd, pathTerm, pathCount);
  for (const f of own) {
    const info = infos[f]!;
    pathLengthOf[f] = info.pathText.length;
    priorOf[f] = info.priors[priors].prior;
    if (plan.pathWords.length > 0 && sharesPrefix(info.namePrefixes, wordPrefixes)) named(f);
    covered[f] = 1;
    if (nTerms === 0) continue;
    const tf = new Float64Array(nTerms);
    const touched: number[] = [];
    pathTermCounts(info, plan, tf, touched, index);
    pathStart[f] = pathTerm.length;
    for (const t of touched) { pathTerm.push(t); pathCount.push(tf[t]); }
    pathEnd[f] = pathTerm.length;
  }
  // The signals of the file at hand (relevance reads pathMatch and prior).
  const signals: PathSignals = { fileStem: '', pathMatch: 0, prior: 1 };
  const rest = work('rest', Float64Array, nFiles);
  // Term chunks whose cosine is still unknown: their lexical signal and best case.
  const termChunk = work('termChunk', Int32Array, n);
  const termLexical = work('termLexical', Float64Array, n);
  const termBest = work('termBest', Float64Array, n);
  let nTermChunks = 0;
  let termChunks = 0;
  // The heapSize least best cases of the term chunks, as they come (the seeds of step 2).
  const heap = Number.isFinite(q.heapSize) ? q.heapSize : 0;
  const termSeeds = leastOf(heap);
  // Exactly bounded chunks: distance at best (lo) and at worst (hi), in the order bounded.
  const lo = work('lo', Float64Array, n);
  const hi = work('hi', Float64Array, n);
  const eligible = work('eligible', Int32Array, n);
  let count = 0;
  let chunks = 0;
  let nCovered = 0;

  /** BM25 of chunk c: its entries merged in term order with its file's path terms [p, pEnd) (the sum a dense loop over every term would make). */
  const bm25Of = (c: number, pathLength: number, pFrom: number, pEnd: number): number => {
    const dl = (chars[c] + pathLength) * tokensPerChar;
    const norm = k1 * (1 - b + (b * dl) / avgdl);
    let e = offsets !== undefined ? offsets[c] : 0;
    const eEnd = offsets !== undefined ? e + filled![c] : 0;
    let p = pFrom;
    let bm25 = 0;
    while (e < eEnd || p < pEnd) {
      const te = e < eEnd ? entryTerm![e] : nTerms;
      const tp = p < pEnd ? pathTerm[p] : nTerms;
      let f2: number;
      let t: number;
      if (te < tp) { t = te; f2 = entryCount![e++] + 0; } else if (te === tp) { t = te; f2 = entryCount![e++] + pathCount[p++]; } else { t = tp; f2 = pathCount[p++]; }
      if (f2 > 0) bm25 += idf[t] * (f2 * (k1 + 1)) / (f2 + norm);
    }
    return bm25;
  };
  const bounded = (c: number, semantic: number, lexical: number, possible: number, certain: number): void => {
    lo[count] = toDistance(relevance(semantic, lexical, possible, signals, plan));
    // Most chunks have no definition bound (no line term): their worst case is their best.
    hi[count] = certain === possible ? lo[count] : toDistance(relevance(semantic, lexical, certain, signals, plan));
    eligible[count++] = c;
  };

  // 1. From the postings and paths (and the cosines where they are known).
  for (let f = 0; f < nFiles; f++) {
    const file = files[f];
    rest[f] = Infinity;
    if (covered[f] === 0) continue;
    nCovered++;
    chunks += file.chunkCount;
    const pathLength = pathLengthOf[f];
    signals.pathMatch = pathMatchOf[f];
    signals.prior = priorOf[f];
    let pFrom = pathStart[f];
    let pEnd = pathEnd[f];
    if (pFrom < 0) pFrom = pEnd = 0;
    const end = file.firstChunk + file.chunkCount;
    // The chunks without a term: BM25 from the path alone (largest at the shortest chunk), eligible
    // only with tokens where the embedding counts; their largest cosine where it is known.
    let shortest = Infinity;
    let most = 0;
    let some = false;
    for (let c = file.firstChunk; c < end; c++) {
      if (filled !== undefined && filled[c] > 0) {
        termChunks++;
        const hasTokens = (flags[c] & HAS_TOKENS) !== 0;
        const bm25 = bm25Of(c, pathLength, pFrom, pEnd);
        // A term chunk is kept in hybrid mode; lexically when its BM25 counts and it is not blank.
        if (lexicalOnly ? !(bm25 > 0 && (flags[c] & BLANK) === 0) : mode === 'semantic' && !hasTokens) continue;
        const lexical = lexicalScore(bm25, plan);
        const possible = possibleOf ? possibleOf[c] : 0;
        if (lexicalOnly || !hasTokens || all) {
          bounded(c, lexicalOnly || !hasTokens ? 0 : all![c], lexical, possible, certainOf ? certainOf[c] : 0);
        } else {
          termChunk[nTermChunks] = c;
          termLexical[nTermChunks] = lexical;
          // Every step is monotone in the cosine under rounding: a bound of it bounds the distance.
          const best = upper ? toDistance(relevance(upper[c], lexical, possible, signals, plan)) : chunkBestDistance(lexical, possible, signals, plan);
          termBest[nTermChunks++] = best;
          termSeeds.offer(best);
        }
        continue;
      }
      if (lexicalOnly ? (flags[c] & BLANK) !== 0 : (flags[c] & HAS_TOKENS) === 0) continue;
      some = true;
      if (chars[c] < shortest) shortest = chars[c];
      if (all && all[c] > most) most = all[c];
      else if (upper && upper[c] > most) most = upper[c];
    }
    if (!some || (lexicalOnly && pEnd === pFrom)) continue;
    let bm25 = 0;
    if (pEnd > pFrom) {
      const norm = k1 * (1 - b + (b * ((shortest + pathLength) * tokensPerChar)) / avgdl);
      for (let p = pFrom; p < pEnd; p++) bm25 += idf[pathTerm[p]] * (pathCount[p] * (k1 + 1)) / (pathCount[p] + norm);
    }
    // Every step is monotone in its inputs under rounding but for lexicalScore's quotient: a margin.
    rest[f] = all || upper || lexicalOnly
      ? toDistance(relevance(lexicalOnly ? 0 : most, lexicalScore(bm25, plan), 0, signals, plan)) * (1 - BOUND_MARGIN)
      : chunkBestDistance(lexicalScore(bm25, plan), 0, signals, plan);
  }

  // 2. The worst guaranteed case to beat, as chunks are bounded exactly (the heapSize best worst cases).
  const limit = limitOf(q);
  for (let i = 0; i < count; i++) limit.offer(lo[i], hi[i]);
  const boundTerm = (i: number): void => {
    const c = termChunk[i];
    const f = s.chunkFile[c];
    signals.pathMatch = pathMatchOf[f];
    signals.prior = priorOf[f];
    bounded(c, cosineOf(c), termLexical[i], possibleOf ? possibleOf[c] : 0, certainOf ? certainOf[c] : 0);
    limit.offer(lo[count - 1], hi[count - 1]);
  };
  const boundRest = (f: number): void => {
    const file = files[f];
    signals.pathMatch = pathMatchOf[f];
    signals.prior = priorOf[f];
    const pathLength = pathLengthOf[f];
    const pFrom = Math.max(0, pathStart[f]);
    const pEnd = pathEnd[f];
    const end = file.firstChunk + file.chunkCount;
    // The file's cosines at once (the kernel's rows are adjacent), where only bounds were known.
    if (exact) { kernel!.cosines(file.firstChunk, end, exact); cosines += file.chunkCount; }
    for (let c = file.firstChunk; c < end; c++) {
      if (filled !== undefined && filled[c] > 0) continue;
      const hasTokens = (flags[c] & HAS_TOKENS) !== 0;
      const bm25 = pEnd > pFrom ? bm25Of(c, pathLength, pFrom, pEnd) : 0;
      if (lexicalOnly ? !(bm25 > 0 && (flags[c] & BLANK) === 0) : !hasTokens) continue;
      bounded(c, lexicalOnly ? 0 : all ? all[c] : exact ? exact[c] : cosineOf(c), lexicalScore(bm25, plan), 0, 0);
      limit.offer(lo[count - 1], hi[count - 1]);
    }
  };
  // The most promising first (those whose best case is among the heap's size best), so the threshold falls early.
  let seedTerm = -Infinity;
  if (heap > 0 && nTermChunks > heap) {
    seedTerm = termSeeds.largest();
    for (let i = 0; i < nTermChunks; i++) if (termBest[i] <= seedTerm) boundTerm(i);
  }
  let skippedTermChunks = 0;
  for (let i = 0; i < nTermChunks; i++) {
    if (termBest[i] <= seedTerm) continue;
    if (termBest[i] > limit.value && !q.exhaustive) { skippedTermChunks++; continue; }
    boundTerm(i);
  }
  // 3. Each file's chunks without a term, unless their best case is out of reach.
  let seedRest = -Infinity;
  if (heap > 0 && limit.value === Infinity && nCovered > heap) {
    const best = work('seeds', Float64Array, nFiles);
    best.set(rest.subarray(0, nFiles));
    seedRest = quickSelect(best, heap - 1);
    for (let f = 0; f < nFiles; f++) if (rest[f] <= seedRest && rest[f] !== Infinity) boundRest(f);
  }
  let skippedFiles = 0;
  for (let f = 0; f < nFiles; f++) {
    if (rest[f] === Infinity || rest[f] <= seedRest) continue;
    if (rest[f] > limit.value && !q.exhaustive) { skippedFiles++; continue; }
    boundRest(f);
  }
  // The running limit is now the threshold over every chunk bounded (the heap holds the heapSize least worst cases).
  const out = choose(eligible.subarray(0, count), lo, hi, limit.value);
  // In snapshot order: by file (a patched snapshot's later files may own earlier chunks), then line.
  const chunkFile = s.chunkFile;
  out.sort((x, y) => (chunkFile[x] - chunkFile[y]) || (x - y));
  if (counts) Object.assign(counts, { chunks, bounded: count, cosines, files: nCovered, skippedFiles, termChunks, skippedTermChunks });
  return out;
}

/** Slack on a bound made of exact cosines and BM25 from the shortest chunk: a few roundings' worth, as a share of the distance. */
const BOUND_MARGIN = 1e-9;

/** How many chunks the covered files hold. */
function coveredChunks(s: Snapshot, q: CandidateQuery): number {
  let total = 0;
  for (let f = 0; f < s.files.length; f++) if (q.display[f] !== undefined) total += s.files[f].chunkCount;
  return total;
}

/** The covered paths' terms and counts in the last candidate pass (reused likewise). */
const pathTermList: number[] = [];
const pathCountList: number[] = [];

/**
 * The distance a chunk's best case must reach, over the chunks bounded so far: the heapSize-th least
 * worst case plus the margin (with --max-distance alone, that distance or the least worst case, if
 * larger); Infinity while every chunk passes (no more chunks of some relevance than the heap holds).
 * It only ever falls as more chunks come.
 */
interface Limit { offer(lo: number, hi: number): void; readonly value: number }

function limitOf(q: CandidateQuery): Limit {
  const k = q.heapSize;
  if (q.maxDistance !== undefined && !Number.isFinite(k)) {
    let least = Infinity;
    const l = { value: Infinity, offer(lo: number, hi: number) { if (lo < 1 && hi < least) { least = hi; l.value = Math.max(q.maxDistance!, least) + EPS; } } };
    return l;
  }
  if (!Number.isFinite(k)) return { value: Infinity, offer() {} };
  // A max-heap of the k least worst cases; the threshold is its top once more than k have come.
  const heap = new Float64Array(k);
  let size = 0;
  let seen = 0;
  const l = {
    value: Infinity,
    offer(lo: number, hi: number) {
      if (!(lo < 1)) return;
      seen++;
      if (size < k) {
        let i = size++;
        while (i > 0) { const up = (i - 1) >> 1; if (heap[up] >= hi) break; heap[i] = heap[up]; i = up; }
        heap[i] = hi;
      } else if (hi < heap[0]) {
        let i = 0;
        for (;;) {
          const left = 2 * i + 1;
          if (left >= k) break;
          const right = left + 1;
          const big = right < k && heap[right] > heap[left] ? right : left;
          if (heap[big] <= hi) break;
          heap[i] = heap[big];
          i = big;
        }
        heap[i] = hi;
      }
      if (seen > k) l.value = heap[0] + EPS;
    },
  };
  return l;
}

/**
 * The k least of the values offered, kept in a max-heap as they come (most are past its top and cost a
 * comparison); `largest` is then the k-th least value, as a quick-select over them all would give.
 */
function leastOf(k: number): { offer(v: number): void; largest(): number } {
  const heap = k > 0 ? work('leastOf', Float64Array, k) : new Float64Array(0);
  let size = 0;
  return {
    offer(v) {
      if (size < k) {
        let i = size++;
        while (i > 0) { const up = (i - 1) >> 1; if (heap[up] >= v) break; heap[i] = heap[up]; i = up; }
        heap[i] = v;
      } else if (v < heap[0]) {
        let i = 0;
        for (;;) {
          const left = 2 * i + 1;
          if (left >= k) break;
          const right = left + 1;
          const big = right < k && heap[right] > heap[left] ? right : left;
          if (heap[big] <= v) break;
          heap[i] = heap[big];
          i = big;
        }
        heap[i] = v;
      }
    },
    largest: () => (size > 0 ? heap[0] : Infinity),
  };
}

/** Whether a path's name prefixes hold one of the plan's path words' (a loop: called per file, ~9,000 a query). */
function sharesPrefix(prefixes: string[], words: Set<string>): boolean {
  for (let i = 0; i < prefixes.length; i++) if (words.has(prefixes[i])) return true;
  return false;
}

/**
 * Each covered file's chunks' cosines (indexed by chunk) from the kernel, or upper bounds of them where
 * the kernel has them (`bounds`); null when it is not ready.
 */
function coveredCosines(s: Snapshot, q: CandidateQuery): { values: Float64Array; bounds: boolean; kernel: CosineKernel } | null {
  const kernel = cosineKernel(s.halves, s.dim, q.resident === true);
  if (!kernel) return null;
  const out = work('cosines', Float64Array, s.start.length);
  kernel.setQuery(q.query);
  const fill = kernel.bounds ? kernel.bounds.bind(kernel) : kernel.cosines.bind(kernel);
  // Runs of adjacent covered files in one call each (a search of a directory covers a run of files).
  let from = -1;
  let to = -1;
  for (let f = 0; f < s.files.length; f++) {
    const file = s.files[f];
    if (q.display[f] === undefined || file.chunkCount === 0) continue;
    if (file.firstChunk !== to) { fill(from, to, out); from = file.firstChunk; }
    to = file.firstChunk + file.chunkCount;
  }
  fill(from, to, out);
  return { values: out, bounds: kernel.bounds !== undefined, kernel };
}

const workArrays = new Map<string, Float64Array | Int32Array | Uint8Array>();
/** The chunks whose symbol bounds and the names whose covered idf the last query set (definitionBounds). */
const offeredChunks: number[] = [];
const coveredNames: number[] = [];

/** work's array, zero where `dirty` says the last use set it (whole arrays: a smaller view may have been used since). */
function cleanWork<T extends Float64Array | Uint8Array>(name: string, make: new (n: number) => T, n: number, dirty: readonly number[]): T {
  const kept = workArrays.get(name) as T | undefined;
  if (kept && kept.length >= n) for (const i of dirty) kept[i] = 0;
  return work(name, make, n);
}

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
 * Keeps chunks whose best case (lo) can beat the heapSize-th best worst case (hi): `limit`, from
 * threshold. A chunk of no relevance at all (distance 1 even at best) is never a result, as in the
 * pipeline. lo and hi are indexed like `eligible`.
 */
function choose(eligible: Int32Array, lo: Float64Array, hi: Float64Array, limit: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < eligible.length; i++) if (lo[i] < 1 && lo[i] <= limit) out.push(eligible[i]);
  return out;
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

/** Each chunk's term counts from the postings, sparse: entries [offsets[c], offsets[c] + filled[c]) in term order (a chunk holds a query term where filled[c] > 0). */
interface TermCounts { offsets: Int32Array; filled: Int32Array; term: Int32Array; count: Float64Array }

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

/** Per snapshot, the chunk of each defined name (by defStart), made on first use: a query looks up thousands. */
const defChunks = new WeakMap<Snapshot, Int32Array>();

function definitionChunks(s: Snapshot): Int32Array {
  let out = defChunks.get(s);
  if (!out) {
    out = new Int32Array(s.defNames.length);
    const n = s.start.length;
    for (let c = 0; c < n; c++) out.fill(c, s.defStart[c], Math.min(s.defStart[c + 1], out.length));
    defChunks.set(s, out);
  }
  return out;
}

/**
 * Per chunk, bounds of the symbol boost chunkStats gives it (the best boost among its lines that hold
 * a query term), from the defined-name postings: `possible` takes every name the chunk defines;
 * `certain` only plain-identifier names that themselves hold a query term, since such a name's line
 * holds that term and chunkStats sees it. Null when the plan boosts no definition. (Exported for the
 * tests; the arrays are reused by the next call.)
 */
export function definitionBounds(s: Snapshot, q: CandidateQuery, plan: RankPlan): { possible: Float64Array; certain: Float64Array } | null {
  if (plan.symbols.length === 0 && !(plan.definitionBoost > 0 && plan.idfSum > 0)) return null;
  const n = s.start.length;
  // Zero but where the last query set them (cleaned now: a pass over every chunk and name costs more).
  const possible = cleanWork('possible', Float64Array, n, offeredChunks);
  const certain = cleanWork('certain', Float64Array, n, offeredChunks);
  offeredChunks.length = 0;
  const { defStart, defPlain } = s;
  const chunkOf = definitionChunks(s);
  const offer = (c: number, d: number, v: number, holdsTerm: boolean) => {
    if (possible[c] === 0 && certain[c] === 0) offeredChunks.push(c);
    if (v > possible[c]) possible[c] = v;
    if (holdsTerm && defPlain[d] === 1 && v > certain[c]) certain[c] = v;
  };
  const { definitionBoost, idfSum } = plan;
  // With symbols, their boosts need to know which names hold a query term: the per-name arrays below.
  if (plan.symbols.length === 0 && offerMerged(s, plan, chunkOf, offer)) return { possible, certain };
  // Per defined name, the idf of the query terms it holds (typed arrays, not a map: there is one
  // entry per name, whatever the query).
  const coveredIdf = cleanWork('coveredIdf', Float64Array, s.defNames.length, coveredNames);
  const isCovered = cleanWork('isCovered', Uint8Array, s.defNames.length, coveredNames);
  const covered = coveredNames;
  covered.length = 0;
  // The loops read locals only (as selectCandidates': a property read through a many-shaped snapshot costs more).
  for (const term of plan.terms) {
    const found = (term.whole ? s.byDefLower : s.byDefStem).find(term.key);
    if (!found) continue;
    const { chunk, count } = found;
    const idf = term.idf;
    for (let j = 0; j < chunk.length; j++) {
      const d = defStart[chunk[j]] + count[j];
      if (isCovered[d] === 0) { isCovered[d] = 1; covered.push(d); }
      coveredIdf[d] += idf;
    }
  }
  if (definitionBoost > 0 && idfSum > 0) {
    for (let i = 0; i < covered.length; i++) {
      const d = covered[i];
      offer(chunkOf[d], d, definitionBoost * coveredIdf[d] / idfSum, true);
    }
  }
  for (const sym of plan.symbols) {
    const found = s.byDefLower.find(sym.name);
    if (!found) continue;
    for (let j = 0; j < found.chunk.length; j++) {
      const c = found.chunk[j];
      const d = defStart[c] + found.count[j];
      const path = q.display[s.chunkFile[c]];
      if (path === undefined) continue;
      const fileStem = (q.infos?.[s.chunkFile[c]] ?? pathInfo(path)).facts.fileStem;
      offer(c, d, symbolScore(s.defNames.at(d)!, plan, fileStem), isCovered[d] === 1);
    }
  }
  return { possible, certain };
}

/**
 * The definition boost of every defined name that holds a query term, offered to its chunk without a
 * per-name array (whose random reads and writes cost more than the rest of the symbol bounds): the
 * terms' defined-name lists, each in name order (as a snapshot file keeps them; else sorted), merged,
 * a name's idf summed in term order as that array sums it. False, having offered nothing, where the
 * plan gives no definition boost.
 */
function offerMerged(s: Snapshot, plan: RankPlan, chunkOf: Int32Array, offer: (c: number, d: number, v: number, holdsTerm: boolean) => void): boolean {
  const { definitionBoost, idfSum } = plan;
  if (!(definitionBoost > 0 && idfSum > 0)) return false;
  const { defStart } = s;
  const lists = plan.terms.map((term) => (term.whole ? s.byDefLower : s.byDefStem).find(term.key));
  let total = 0;
  for (const l of lists) total += l ? l.chunk.length : 0;
  // Each list's names, one after the other: list t holds names[from[t], to[t]).
  const names = work('mergedNames', Int32Array, total);
  const k = lists.length;
  const at = new Int32Array(k);
  const to = new Int32Array(k);
  let end = 0;
  for (let t = 0; t < k; t++) {
    const l = lists[t];
    at[t] = end;
    if (l) {
      const { chunk, count } = l;
      let last = -1;
      let sorted = true;
      for (let j = 0; j < chunk.length; j++) {
        const d = defStart[chunk[j]] + count[j];
        if (d < last) sorted = false;
        names[end++] = last = d;
      }
      // A patched snapshot's lists are in the order of its rows, not of its renumbered chunks.
      if (!sorted) names.subarray(at[t], end).sort();
    }
    to[t] = end;
  }
  const idf = plan.terms.map((term) => term.idf);
  for (;;) {
    let d = 0x7fffffff;
    for (let t = 0; t < k; t++) if (at[t] < to[t] && names[at[t]] < d) d = names[at[t]];
    if (d === 0x7fffffff) return true;
    let sum = 0;
    for (let t = 0; t < k; t++) while (at[t] < to[t] && names[at[t]] === d) { sum += idf[t]; at[t]++; }
    offer(chunkOf[d], d, definitionBoost * sum / idfSum, true);
  }
}
