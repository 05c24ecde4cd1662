// Picks, from every indexed chunk, the few that can be among a query's results: each chunk's relevance
// is bounded from the index alone (its unit vector's cosine, BM25 from identifier postings and its
// file's path terms, and an upper bound of the symbol boost from the names it defines), and only
// chunks whose best case reaches the heap's worst guaranteed case are kept. The pipeline then scores
// those exactly, with the same code as a one-shot scan, so indexed answers equal one-shot answers.
import { countTerms, lexicalScore, nameCoverage, pathFacts, pathSignals, relevance, symbolScore, toDistance, type PathFacts, type PathSignals } from '../rank/chunk-scorer.js';
import { identifierParts, pathTerms, stem } from '../rank/lexical/terms.js';
import type { RankPlan } from '../rank/plan.js';
import { BLANK, HAS_TOKENS, type Snapshot } from './snapshot.js';
import { FLOAT16_RELATIVE_ERROR } from './float16.js';

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
  const lo = new Float64Array(n).fill(NaN);
  const hi = new Float64Array(n).fill(NaN);
  const eligible: number[] = [];
  const pathTf = new Float64Array(nTerms);
  const names = new Map<string, NameInfo>();
  const symbolStrength = symbolStrengths(s, plan);
  const refine: number[] = []; // (chunk, file) pairs whose symbol bound is loose
  const semanticOf = new Float64Array(n);
  const lexicalOf = new Float64Array(n);
  const signalsOf: PathSignals[] = [];
  const { k1, b, avgdl, tokensPerChar } = plan.bm25;
  const probes = plan.terms.map((t) => (t.whole || t.key.length < 4 ? t.key : t.key.slice(0, -1)));
  for (let f = 0; f < s.files.length; f++) {
    const path = q.display[f];
    const file = s.files[f];
    if (path === undefined || file.chunkCount === 0) continue;
    const info = q.infos?.[f] ?? pathInfo(path);
    const { pathText } = info;
    const signals = plan.pathWords.length === 0 && !plan.pathPriors ? info.plain
      : plan.pathWords.length === 0 ? info.withPriors : pathSignals(path, plan, info.facts);
    pathTf.fill(0);
    // countTerms lower-cases the text on every call: look for a probe in the cached lower case first.
    if (nTerms > 0 && (info.lower.length !== pathText.length || probes.some((p) => info.lower.includes(p)))) countTerms(pathText, plan, pathTf);
    for (let c = file.firstChunk; c < file.firstChunk + file.chunkCount; c++) {
      const hasTokens = (s.flags[c] & HAS_TOKENS) !== 0;
      const lineMatch = tf?.matched[c] === 1;
      let bm25 = 0;
      if (nTerms > 0) {
        const dl = (s.chars[c] + pathText.length) * tokensPerChar;
        for (let t = 0; t < nTerms; t++) {
          const f2 = (tf ? tf.counts[c * nTerms + t] : 0) + pathTf[t];
          if (f2 > 0) bm25 += plan.terms[t].idf * (f2 * (k1 + 1)) / (f2 + k1 * (1 - b + (b * dl) / avgdl));
        }
      }
      let keep: boolean;
      if (plan.mode === 'lexical') keep = bm25 > 0 && (s.flags[c] & BLANK) === 0;
      else if (plan.mode === 'semantic') keep = hasTokens;
      else keep = hasTokens || lineMatch;
      if (!keep) continue;
      const semantic = plan.mode === 'lexical' || !hasTokens ? 0 : cosine(s, c, q.query);
      const lexical = lexicalScore(bm25, plan);
      // First a cheap symbol bound (refined below for chunks it lets near the results): a defined name
      // is a query symbol only if the chunk holds that identifier, and covers at most the query
      // terms the chunk's lines hold.
      const mayDefine = lineMatch && s.defStart[c + 1] > s.defStart[c];
      const loose = mayDefine ? Math.max(symbolStrength[c] * 1.5, plan.definitionBoost * coveredShare(tf!.counts, c, plan)) : 0;
      lo[c] = toDistance(relevance(semantic, lexical, loose, signals, plan));
      hi[c] = toDistance(relevance(semantic, lexical, 0, signals, plan));
      if (mayDefine) refine.push(c, f);
      semanticOf[c] = semantic;
      lexicalOf[c] = lexical;
      signalsOf[f] = signals;
      eligible.push(c);
    }
  }
  // Only chunks that could reach the results with the loose bound get their names looked at.
  const limit = threshold(q, eligible, lo, hi);
  for (let i = 0; i < refine.length; i += 2) {
    const c = refine[i];
    if (!(lo[c] <= limit)) continue;
    const signals = signalsOf[refine[i + 1]];
    const [symbolLo, symbolHi] = symbolBounds(s, c, plan, signals, names);
    lo[c] = toDistance(relevance(semanticOf[c], lexicalOf[c], symbolHi, signals, plan));
    hi[c] = toDistance(relevance(semanticOf[c], lexicalOf[c], symbolLo, signals, plan));
  }
  return choose(q, eligible, lo, hi);
}

/** Per chunk, the strength of the strongest query symbol it holds as an identifier (0: none). */
function symbolStrengths(s: Snapshot, plan: RankPlan): Float64Array {
  const out = new Float64Array(s.start.length);
  for (const sym of plan.symbols) {
    const range = s.byLower.range(sym.name.replace(/^\$+/, ''));
    if (!range) continue;
    for (let j = range[0]; j < range[1]; j++) {
      const c = s.byLower.chunk[j];
      if (sym.strength > out[c]) out[c] = sym.strength;
    }
  }
  return out;
}

/** The idf share of the query terms a chunk's lines hold: no defined name of it covers more. */
function coveredShare(counts: Float64Array, c: number, plan: RankPlan): number {
  if (!(plan.idfSum > 0)) return 0;
  const n = plan.terms.length;
  let covered = 0;
  for (let t = 0; t < n; t++) if (counts[c * n + t] > 0) covered += plan.terms[t].idf;
  return covered / plan.idfSum;
}

/**
 * Keeps chunks whose best case (lo) can beat the heapSize-th best worst case (hi). A chunk of no
 * relevance at all (distance 1 even at best) is never a result, as in the pipeline.
 */
function choose(q: CandidateQuery, eligible: number[], lo: Float64Array, hi: Float64Array): number[] {
  const limit = threshold(q, eligible, lo, hi);
  return eligible.filter((c) => lo[c] < 1 && lo[c] <= limit);
}

/** The distance a chunk's best case must reach: the heapSize-th best worst case, plus the margin. */
function threshold(q: CandidateQuery, eligible: number[], lo: Float64Array, hi: Float64Array): number {
  const worst: number[] = [];
  for (const c of eligible) if (lo[c] < 1) worst.push(hi[c]);
  if (worst.length === 0) return -Infinity;
  if (q.maxDistance !== undefined && !Number.isFinite(q.heapSize)) return Math.max(q.maxDistance, Math.min(...worst)) + EPS;
  if (!Number.isFinite(q.heapSize) || worst.length <= q.heapSize) return Infinity;
  return quickSelect(worst, q.heapSize - 1) + EPS;
}

/** The k-th smallest value (0-based) of xs, reordering xs. */
function quickSelect(xs: number[], k: number): number {
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

function cosine(s: Snapshot, c: number, query: Float32Array): number {
  const v = s.vectors;
  const dim = s.dim;
  const base = c * dim;
  let a = 0;
  let b = 0;
  let d = 0;
  for (; d + 3 < dim; d += 4) {
    a += v[base + d] * query[d] + v[base + d + 2] * query[d + 2];
    b += v[base + d + 1] * query[d + 1] + v[base + d + 3] * query[d + 3];
  }
  for (; d < dim; d++) a += v[base + d] * query[d];
  return a + b;
}

/**
 * Term counts of every chunk's lines from the postings: a whole-identifier term counts identifiers
 * equal to it (lower-cased), a part term each part whose stem it is, as countTerms counts them (an
 * identifier that matches a term always contains that term's probe, so countTerms finds it).
 */
function lineTermCounts(s: Snapshot, plan: RankPlan): { counts: Float64Array; matched: Uint8Array } | null {
  const nTerms = plan.terms.length;
  if (nTerms === 0) return null;
  const counts = new Float64Array(s.start.length * nTerms);
  const matched = new Uint8Array(s.start.length);
  plan.terms.forEach((term, t) => {
    const postings = term.whole ? s.byLower : s.byStem;
    const range = postings.range(term.key);
    if (!range) return;
    for (let j = range[0]; j < range[1]; j++) {
      const c = postings.chunk[j];
      counts[c * nTerms + t] += postings.count[j];
      matched[c] = 1;
    }
  });
  return { counts, matched };
}

/** Per defined name, for one query: its definition boost from coverage, and whether it holds a term. */
interface NameInfo { covered: number; hitsTerm: boolean }

const PLAIN_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Query-independent forms of defined names, kept across queries. */
const nameForms = new Map<string, { lower: string; stems: string[] | null }>();

function nameForm(name: string): { lower: string; stems: string[] | null } {
  let f = nameForms.get(name);
  if (!f) {
    if (nameForms.size > 1_000_000) nameForms.clear();
    f = { lower: name.toLowerCase(), stems: null };
    nameForms.set(name, f);
  }
  return f;
}

function nameInfo(name: string, plan: RankPlan, memo: Map<string, NameInfo>): NameInfo {
  let info = memo.get(name);
  if (info) return info;
  const form = nameForm(name);
  const lower = form.lower;
  // Cheap test first: a term can only match a name that contains its key's first letters.
  const probes = plan.terms.some((t) => lower.includes(t.whole || t.key.length < 4 ? t.key : t.key.slice(0, -1)));
  let hitsTerm = false;
  if (probes && PLAIN_IDENTIFIER.test(name)) {
    const stems = (form.stems ??= identifierParts(name).map(stem));
    hitsTerm = plan.terms.some((t) => (t.whole ? lower === t.key : stems.includes(t.key)));
  }
  info = { covered: probes && plan.definitionBoost > 0 ? plan.definitionBoost * nameCoverage(name, plan) : 0, hitsTerm };
  memo.set(name, info);
  return info;
}

/**
 * The chunk's symbol boost, bounded: chunkStats takes the best boost among lines that hold a query
 * term. A plain-identifier name that itself matches a term sits on such a line (countTerms finds it
 * there), so its boost is certain (lo); any other name's boost only raises the upper bound (hi).
 */
function symbolBounds(s: Snapshot, c: number, plan: RankPlan, signals: PathSignals, memo: Map<string, NameInfo>): [number, number] {
  let lo = 0;
  let hi = 0;
  for (let j = s.defStart[c]; j < s.defStart[c + 1]; j++) {
    const name = s.defNames[j];
    const info = nameInfo(name, plan, memo);
    const v = Math.max(plan.symbols.length > 0 ? symbolScore(name, plan, signals.fileStem) : 0, info.covered);
    if (v > hi) hi = v;
    if (info.hitsTerm && v > lo) lo = v;
  }
  return [lo, hi];
}

/** Query-independent facts of a display path, kept across queries. */
export interface PathInfo {
  facts: PathFacts;
  pathText: string;
  lower: string;
  /** Its signals for a query without path words, with and without the test/example priors. */
  plain: PathSignals;
  withPriors: PathSignals;
}

const pathInfos = new Map<string, PathInfo>();
const NO_PATH_WORDS = { pathWords: [], pathPriors: false } as unknown as RankPlan;
const PRIORS_ONLY = { pathWords: [], pathPriors: true } as unknown as RankPlan;

/** The facts of a display path (cached across queries). */
export function pathInfo(path: string): PathInfo {
  let info = pathInfos.get(path);
  if (!info) {
    if (pathInfos.size > 1_000_000) pathInfos.clear();
    const facts = pathFacts(path);
    const pathText = pathTerms(path).join(' ');
    info = { facts, pathText, lower: pathText.toLowerCase(), plain: pathSignals(path, NO_PATH_WORDS, facts), withPriors: pathSignals(path, PRIORS_ONLY, facts) };
    pathInfos.set(path, info);
  }
  return info;
}
