// Picks, from every indexed chunk, the few that can be among a query's results: each chunk's relevance
// is bounded from the index alone (its unit vector's cosine, BM25 from the term postings and its
// file's path terms, and the certain and possible symbol boosts from the defined-name postings), and
// only chunks whose best case reaches the heap's worst guaranteed case are kept. The pipeline then
// scores those exactly, with the same code as a one-shot scan, so indexed answers equal one-shot ones.
import { countTerms, lexicalScore, pathFacts, pathSignals, relevance, symbolScore, toDistance, type PathFacts, type PathSignals } from '../rank/chunk-scorer.js';
import { pathText } from '../rank/lexical/terms.js';
import type { RankPlan } from '../rank/plan.js';
import { BLANK, HAS_TOKENS, type Snapshot } from './snapshot.js';
import { FLOAT16_RELATIVE_ERROR, halfValues } from './float16.js';

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
  const pathTf = new Float64Array(nTerms);
  const defs = definitionBounds(s, q, plan);
  const { k1, b, avgdl, tokensPerChar } = plan.bm25;
  const probes = plan.terms.map((t) => (t.whole || t.key.length < 4 ? t.key : t.key.slice(0, -1)));
  // The hot loop reads locals only: snapshots made in different ways have different shapes, and a
  // property read per chunk through a many-shaped object costs more than the arithmetic.
  const { flags, chars, halves, dim, files } = s;
  const values = halfValues();
  const counts = tf?.counts;
  const matched = tf?.matched;
  const idf = Float64Array.from(plan.terms, (t) => t.idf);
  const possibleOf = defs?.possible;
  const certainOf = defs?.certain;
  const { mode } = plan;
  // As in the scan (chunk-scoring.ts): a plan that gives the embedding no weight ranks lexically.
  const lexicalOnly = mode === 'lexical' || !(plan.weights.semantic > 0);
  const query = q.query;
  const wordPrefixes = new Set(plan.pathWords.filter((w) => w.length >= 3).map((w) => w.slice(0, 3)));
  const priors = priorsIndex(plan);
  for (let f = 0; f < files.length; f++) {
    const path = q.display[f];
    const file = files[f];
    if (path === undefined || file.chunkCount === 0) continue;
    const info = q.infos?.[f] ?? pathInfo(path);
    const pathLength = info.pathText.length;
    // A path word can only match a name that starts with the same three letters (pathSignals' rule).
    const signals = plan.pathWords.length === 0 || !info.namePrefixes.some((x) => wordPrefixes.has(x))
      ? info.priors[priors]
      : pathSignals(path, plan, info.facts);
    // A term's count in the path, kept with the path; countTerms only for a path that holds its probe.
    const caseChanged = info.lower.length !== pathLength;
    for (let t = 0; t < nTerms; t++) pathTf[t] = caseChanged || info.lower.includes(probes[t]) ? pathTermCount(info, plan.terms[t]) : 0;
    const end = file.firstChunk + file.chunkCount;
    for (let c = file.firstChunk; c < end; c++) {
      const hasTokens = (flags[c] & HAS_TOKENS) !== 0;
      const lineMatch = matched !== undefined && matched[c] === 1;
      let bm25 = 0;
      if (nTerms > 0) {
        const dl = (chars[c] + pathLength) * tokensPerChar;
        for (let t = 0; t < nTerms; t++) {
          const f2 = (counts !== undefined ? counts[c * nTerms + t] : 0) + pathTf[t];
          if (f2 > 0) bm25 += idf[t] * (f2 * (k1 + 1)) / (f2 + k1 * (1 - b + (b * dl) / avgdl));
        }
      }
      let keep: boolean;
      if (lexicalOnly) keep = bm25 > 0 && (flags[c] & BLANK) === 0;
      else if (mode === 'semantic') keep = hasTokens;
      else keep = hasTokens || lineMatch;
      if (!keep) continue;
      const semantic = lexicalOnly || !hasTokens ? 0 : cosine(halves, values, c * dim, query, dim);
      const lexical = lexicalScore(bm25, plan);
      const possible = lineMatch && possibleOf ? possibleOf[c] : 0;
      const certain = lineMatch && certainOf ? certainOf[c] : 0;
      lo[count] = toDistance(relevance(semantic, lexical, possible, signals, plan));
      hi[count] = toDistance(relevance(semantic, lexical, certain, signals, plan));
      eligible[count++] = c;
    }
  }
  return choose(q, eligible.subarray(0, count), lo, hi);
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

/** The dot product of a unit query and chunk vector `at` of `h` (float16 bits, read through `values`). */
function cosine(h: Uint16Array, values: Float32Array, at: number, query: Float32Array, dim: number): number {
  let base = at;
  // Eight lanes into four sums: about a fifth faster than one sum in V8 (the margin covers the order).
  let x0 = 0;
  let x1 = 0;
  let x2 = 0;
  let x3 = 0;
  let d = 0;
  for (; d + 7 < dim; d += 8, base += 8) {
    x0 += values[h[base]] * query[d] + values[h[base + 4]] * query[d + 4];
    x1 += values[h[base + 1]] * query[d + 1] + values[h[base + 5]] * query[d + 5];
    x2 += values[h[base + 2]] * query[d + 2] + values[h[base + 6]] * query[d + 6];
    x3 += values[h[base + 3]] * query[d + 3] + values[h[base + 7]] * query[d + 7];
  }
  for (; d < dim; d++, base++) x0 += values[h[base]] * query[d];
  return (x0 + x1) + (x2 + x3);
}

/**
 * Term counts of every chunk's lines from the postings: a whole-identifier term counts identifiers
 * equal to it (lower-cased), a part term each part whose stem it is, as countTerms counts them (an
 * identifier that matches a term always contains that term's probe, so countTerms finds it).
 */
function lineTermCounts(s: Snapshot, plan: RankPlan): { counts: Float64Array; matched: Uint8Array } | null {
  const nTerms = plan.terms.length;
  if (nTerms === 0) return null;
  const counts = work('counts', Float64Array, s.start.length * nTerms, true);
  const matched = work('matched', Uint8Array, s.start.length, true);
  plan.terms.forEach((term, t) => {
    const found = (term.whole ? s.byLower : s.byStem).find(term.key);
    if (!found) return;
    const { chunk, count } = found;
    for (let j = 0; j < chunk.length; j++) {
      const c = chunk[j];
      counts[c * nTerms + t] += count[j];
      matched[c] = 1;
    }
  });
  return { counts, matched };
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
  const covered = new Map<number, number>(); // defined name -> idf of the query terms it holds
  plan.terms.forEach((term) => {
    const found = (term.whole ? s.byDefLower : s.byDefStem).find(term.key);
    if (!found) return;
    for (let j = 0; j < found.chunk.length; j++) {
      const d = s.defStart[found.chunk[j]] + found.count[j];
      covered.set(d, (covered.get(d) ?? 0) + term.idf);
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
    for (const [d, idf] of covered) offer(chunkOf(d), d, plan.definitionBoost * idf / plan.idfSum, true);
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
      offer(c, d, symbolScore(s.defNames.at(d)!, plan, fileStem), covered.has(d));
    }
  }
  return { possible, certain };
}

/** Query-independent facts of a display path, kept across queries. */
export interface PathInfo {
  facts: PathFacts;
  pathText: string;
  lower: string;
  /** The first three letters of each of its names of three or more (what a path word must share to match). */
  namePrefixes: string[];
  /** Terms' counts in pathText, as countTerms counts them, by "w:key" (whole) or "s:key" (part stem); made on first use. */
  termCounts: Map<string, number> | null;
  /** pathText's identifier runs, made on first use (null: it has non-ASCII characters and is counted whole). */
  identifierRuns: string[] | null | undefined;
  /** Its signals for a query without path words, by the priors the query turns on (priorsIndex); one object where they agree. */
  priors: PathSignals[];
}

const pathInfos = new Map<string, PathInfo>();
/** A plan without path words for each priorsIndex: no priors, test/example priors, data prior, both. */
const PRIOR_PLANS = [false, true].flatMap((dataPrior) => [false, true].map((pathPriors) => ({ pathWords: [], pathPriors, dataPrior }) as unknown as RankPlan));

function priorsIndex(plan: RankPlan): number {
  return (plan.pathPriors ? 1 : 0) + (plan.dataPrior ? 2 : 0);
}

/** The facts of a display path (cached across queries). */
export function pathInfo(path: string): PathInfo {
  let info = pathInfos.get(path);
  if (!info) {
    info = infoOf(path, pathFacts(path), pathText(path));
    keepInfo(path, info);
  }
  return info;
}

/** What pathInfo works out from the path's text with the most work (the rest is derived): kept with a recorded walk. */
export type PathBasics = Pick<PathInfo, 'facts' | 'pathText'>;

export function pathBasics(path: string): PathBasics {
  const { facts, pathText } = pathInfo(path);
  return { facts, pathText };
}

/** Caches a path's facts as recorded with a walk, so pathInfo need not work them out again. */
export function seedPathInfo(path: string, b: PathBasics): void {
  if (!pathInfos.has(path)) keepInfo(path, infoOf(path, b.facts, b.pathText));
}

function infoOf(path: string, facts: PathFacts, pathText: string): PathInfo {
  const namePrefixes = [...new Set(facts.names.filter((n) => n.length >= 3).map((n) => n.slice(0, 3)))];
  const lower = pathText.toLowerCase();
  const priors: PathSignals[] = [];
  for (const p of PRIOR_PLANS) {
    const signals = pathSignals(path, p, facts);
    priors.push(priors.find((o) => o.prior === signals.prior) ?? signals);
  }
  // A literal (not a spread): every PathInfo has one shape, which the candidate loop reads per file.
  return {
    facts, pathText, lower, namePrefixes, termCounts: null, identifierRuns: undefined, priors,
  };
}

function keepInfo(path: string, info: PathInfo): void {
  if (pathInfos.size > 1_000_000) pathInfos.clear();
  pathInfos.set(path, info);
}

/**
 * How often one query term occurs in a path's text, as countTerms counts it there. countTerms counts
 * identifiers, runs of [A-Za-z0-9_] (its isIdentChar), each on its own, so the text's count is the
 * sum of its runs' counts, and a run's count is kept per term: names such as `file`, `src` or a
 * directory's repeat across thousands of paths. (A term that is not such a run itself counts nowhere.)
 * A path with non-ASCII characters is counted as a whole.
 */
export function pathTermCount(info: PathInfo, term: RankPlan['terms'][number]): number {
  const key = (term.whole ? 'w:' : 's:') + term.key;
  const counts = info.termCounts ??= new Map();
  let n = counts.get(key);
  if (n === undefined) {
    let byRun = runCounts.get(key);
    if (!byRun) {
      if (runCounts.size >= 256) runCounts.clear();
      runCounts.set(key, byRun = new Map());
    }
    n = 0;
    // countTerms lowers the whole text, and a few non-ASCII letters lower to ASCII (the Kelvin sign
    // to k): such a text is counted as a whole, as the scan counts it. A path's runs are found once.
    if (info.identifierRuns === undefined) info.identifierRuns = NON_ASCII.test(info.pathText) ? null : info.pathText.match(IDENTIFIER_RUNS) ?? [];
    const runs = info.identifierRuns;
    if (!runs) n = termCount(info.pathText, term);
    else for (const run of runs) {
      let r = byRun.get(run);
      if (r === undefined) {
        r = termCount(run, term);
        if (byRun.size >= 100_000) byRun.clear();
        byRun.set(run, r);
      }
      n += r;
    }
    if (counts.size >= 256) counts.clear();
    counts.set(key, n);
  }
  return n;
}

const IDENTIFIER_RUNS = /[A-Za-z0-9_]+/g;
const NON_ASCII = /[^\x00-\x7f]/;

/** Per term ("w:key" or "s:key"), its count in each identifier run of a path seen so far. */
const runCounts = new Map<string, Map<string, number>>();

function termCount(text: string, term: RankPlan['terms'][number]): number {
  const tf = new Float64Array(1);
  countTerms(text, { terms: [term] } as RankPlan, tf);
  return tf[0];
}
