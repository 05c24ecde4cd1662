// The candidate pass writes toDistance(relevance(...)) out by hand in its loops (three copies: a term
// chunk's best case, its best and worst case where no cosine weighs, and `bounded`'s), so V8 inlines it
// (latency-log.md, warm36). Comparing with the pass's exhaustive mode cannot catch a slip in them (both
// run the same copies); so the picks are compared here with bounds worked out through relevance itself,
// from the same real parts (path signals and postings, term BM25s, definition bounds, cosines), over chunks
// whose certain symbol boost is below their possible one (find_related's pasted block, definition boosts).
import { describe, expect, it } from 'vitest';
import { lexicalScore, relevance, toDistance } from '../../../src/rank/relevance.js';
import { bundledLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan } from '../../../src/rank/plan.js';
import { halfValues, toFloat16 } from '../../../src/workspace/packed/float16.js';
import type { CandidateQuery } from '../../../src/workspace/search/candidate-query.js';
import { cosineKernelNow, halfCosine } from '../../../src/workspace/search/chunk-cosines.js';
import { selectCandidates } from '../../../src/workspace/search/candidates.js';
import { coveredPaths } from '../../../src/workspace/search/covered-paths.js';
import { definitionBounds } from '../../../src/workspace/search/definition-bounds.js';
import { termBm25s } from '../../../src/workspace/search/term-counts.js';
import { limitOf } from '../../../src/workspace/search/threshold.js';
import { BLANK, HAS_TOKENS, emptySnapshot, patchSnapshot, type ChunkRow, type Snapshot } from '../../../src/workspace/snapshot/snapshot.js';
import { TermCollector } from '../../../src/workspace/snapshot/term-collector.js';
import { mulberry32 } from '../../helpers/seeded.js';
import { idents } from '../../helpers/snapshots.js';

const DIM = 32;
const WORDS = ['retry', 'upload', 'failed', 'config', 'parse', 'session', 'token', 'cache', 'handler', 'request', 'queue', 'worker'];
// Plain identifiers, and names that are not (a definition's line holds them, but not as one identifier).
const NAMES = ['retryUpload', 'parseConfig', 'SessionStore', 'cacheToken', 'upload_file', 'handleRequest', 'QueueWorker', 'Session::Store', 'retry-upload', 'Config.parse', 'cache$token', 'queue.worker'];
const rnd = mulberry32(36);
const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
const unit = (v: Float32Array) => { const norm = Math.hypot(...v); return v.map((x) => x / norm); };
const centers = Array.from({ length: 5 }, () => Float32Array.from({ length: DIM }, () => rnd() - 0.5));

function snapshot(): Snapshot {
  const terms = new TermCollector();
  const rows: ChunkRow[] = [];
  // Paths that hold query words (a path match, path terms) or none; test files, __init__.py and .d.ts (priors below 1).
  const dirs = (f: number) => [`${pick(WORDS)}-dir`, `tests/mod-${f % 9}`, `mod-${f % 7}`, `${pick(WORDS)}/${pick(WORDS)}`][f % 4];
  const names = (f: number) => [`${pick(WORDS)}-${f}.ts`, `part-${f}.py`, `test_${pick(WORDS)}_${f}.py`, `__init__${f}/__init__.py`, `${pick(WORDS)}-${f}.d.ts`, `part-${f}.go`][f % 6];
  const keys = Array.from({ length: 240 }, (_, f) => `/t/${dirs(f)}/${names(f)}`).sort();
  for (const key of keys) {
    const center = pick(centers);
    for (let c = 0; c < 4; c++) {
      const defs = rnd() < 0.45 ? [pick(NAMES)] : [];
      const text = Array.from({ length: Math.floor(rnd() * 5) }, () => (rnd() < 0.55 ? pick(WORDS) : `x${Math.floor(rnd() * 40)}`)).join(' ');
      terms.add(rows.length, idents(terms, `${text} ${defs.join(' ')}`));
      terms.addDefs(rows.length, defs);
      rows.push({ path: key, start: c * 48, end: c * 48 + 48, hasTokens: rnd() > 0.05, chars: 100 + Math.floor(rnd() * 1400), blank: rnd() < 0.03, defs, halves: toFloat16(unit(center.map((x) => x + 0.8 * (rnd() - 0.5)))) });
    }
  }
  const files = keys.map((key) => ({ key, size: 1, mtime: 1, hash: key, kind: 'text' as const, lines: 192 }));
  return patchSnapshot(emptySnapshot(DIM, '1.1'), { dropChunksOf: new Set(), dropFiles: new Set(), files, rows, terms }, '1.1');
}

/**
 * The chunks the pass must pick, each bounded through toDistance(relevance(...)): best case at the possible
 * symbol boost, worst at the certain one; kept where the best case reaches the heapSize-th least worst case.
 * Also how many eligible chunks have a certain boost below their possible one.
 */
function reference(s: Snapshot, q: CandidateQuery): { picked: number[]; exactly: Map<number, number>; apart: number; apartPrior: number; apartPath: number } {
  const { plan } = q;
  const n = s.start.length;
  const lexicalOnly = plan.mode === 'lexical' || !(plan.weights.semantic > 0);
  const { k1, b, avgdl, tokensPerChar } = plan.bm25;
  const idf = Float64Array.from(plan.terms, (t) => t.idf);
  // The parts' arrays are reused by their next call: copied.
  const p = coveredPaths(s, q);
  const paths = { covered: Uint8Array.from(p.covered), pathMatchOf: Float64Array.from(p.pathMatchOf), priorOf: Float64Array.from(p.priorOf), pathLengthOf: Int32Array.from(p.pathLengthOf), pathStart: Int32Array.from(p.pathStart), pathEnd: Int32Array.from(p.pathEnd), pathTerm: [...p.pathTerm], pathCount: [...p.pathCount] };
  const t = termBm25s(s, plan, p, idf);
  if (!t) throw new Error('expected the term-at-a-time BM25s');
  const held = Uint8Array.from(t.held);
  const bm25Of = Float64Array.from(t.bm25);
  const defs = definitionBounds(s, q, plan);
  const possible = defs ? Float64Array.from(defs.possible) : new Float64Array(n);
  const certain = defs ? Float64Array.from(defs.certain) : new Float64Array(n);
  const kernel = q.resident && !lexicalOnly ? cosineKernelNow(s.halves, s.dim) : null;
  kernel?.setQuery(q.query);
  const one = new Float64Array(n);
  const values = halfValues();
  const cosine = (c: number) => {
    if (!kernel) return halfCosine(s.halves, values, c * s.dim, q.query, s.dim);
    kernel.cosines(c, c + 1, one);
    return one[c];
  };
  const limit = limitOf(q);
  const bounds: [number, number, number][] = [];
  let apart = 0;
  let apartPrior = 0;
  let apartPath = 0;
  for (let f = 0; f < s.files.length; f++) {
    if (paths.covered[f] === 0) continue;
    const signals = { fileStem: '', pathMatch: paths.pathMatchOf[f], prior: paths.priorOf[f] };
    const from = Math.max(0, paths.pathStart[f]);
    const to = paths.pathEnd[f];
    const { firstChunk, chunkCount } = s.files[f];
    for (let c = firstChunk; c < firstChunk + chunkCount; c++) {
      const hasTokens = (s.flags[c] & HAS_TOKENS) !== 0;
      const blank = (s.flags[c] & BLANK) !== 0;
      let bm25 = 0;
      if (held[c] === 1) bm25 = bm25Of[c];
      else if (to > from) {
        // BM25 of the path's terms alone, at the chunk's length (the path's length counts in it).
        const norm = k1 * (1 - b + (b * ((s.chars[c] + paths.pathLengthOf[f]) * tokensPerChar)) / avgdl);
        for (let i = from; i < to; i++) bm25 += idf[paths.pathTerm[i]] * (paths.pathCount[i] * (k1 + 1)) / (paths.pathCount[i] + norm);
      }
      if (lexicalOnly ? !(bm25 > 0 && !blank) : !hasTokens && held[c] !== 1) continue;
      if (plan.mode === 'semantic' && !hasTokens) continue;
      const semantic = lexicalOnly || !hasTokens ? 0 : cosine(c);
      const lexical = lexicalScore(bm25, plan);
      const lo = toDistance(relevance(semantic, lexical, possible[c], signals, plan));
      const hi = toDistance(relevance(semantic, lexical, certain[c], signals, plan));
      if (certain[c] < possible[c]) { apart++; if (signals.prior < 1) apartPrior++; if (signals.pathMatch > 0) apartPath++; }
      bounds.push([c, lo, hi]);
      limit.offer(lo, hi);
    }
  }
  const picked = bounds.filter(([, lo]) => lo < 1 && lo <= limit.value).map(([c]) => c);
  picked.sort((x, y) => (s.chunkFile[x] - s.chunkFile[y]) || (x - y));
  // Where no cosine weighs, the picks whose best case is their worst, with that distance (the pass's `exactly`).
  const exactly = new Map(lexicalOnly ? bounds.filter(([, lo, hi]) => lo === hi && lo < 1 && lo <= limit.value).map(([c, lo]) => [c, lo]) : []);
  return { picked, exactly, apart, apartPrior, apartPath };
}

describe('the candidate pass\'s distances written out', () => {
  it('pick what bounds worked out through relevance pick, where a chunk\'s certain symbol boost is below its possible one', () => {
    const snap = snapshot();
    // The same rows in an array of their own, which never gets a kernel: term chunks bounded by `bounded`.
    const rows = { ...snap, halves: Uint16Array.from(snap.halves) };
    expect(cosineKernelNow(snap.halves, DIM)).not.toBeNull();
    const display = snap.files.map((f) => f.key.slice(3));
    // find_related's chunk: names and words, ranked by its words alone (semantic weight 0).
    const pasted = 'parseConfig handleRequest upload_file cacheToken retry failed uploads session token cache QueueWorker request queue worker handler config parse';
    expect(buildRankPlan(pasted, 'hybrid', bundledLexicon()).weights.semantic).toBe(0);
    let compared = 0;
    let known = 0;
    let apart = 0;
    let apartPrior = 0;
    let apartPath = 0;
    for (const [text, mode] of [[pasted, 'hybrid'], [pasted, 'lexical'], ['retry failed uploads', 'lexical'], ['retry failed uploads', 'hybrid'], ['session token cache handler', 'hybrid'], ['RetryUpload', 'hybrid'], ['upload', 'lexical'], ['queue worker request', 'hybrid']] as const) {
      const plan = buildRankPlan(text, mode, bundledLexicon());
      for (const [heapSize, maxDistance] of [[1, undefined], [2, undefined], [3, undefined], [5, undefined], [8, undefined], [13, undefined], [21, undefined], [34, undefined], [Infinity, 0.6], [5, 0.5]] as const) {
        const query = unit(pick(centers).map((x) => x + 0.5 * (rnd() - 0.5)));
        for (const s of [snap, rows]) {
          const q = { plan, query, display, heapSize, maxDistance, resident: s === snap };
          const want = reference(s, q);
          const exactly = new Map<number, number>();
          const picked = selectCandidates(s, q, undefined, exactly);
          const what = `${mode} "${text.slice(0, 30)}" heap ${heapSize} ${s === snap ? 'kernel' : 'rows'}`;
          expect(picked, what).toEqual(want.picked);
          expect([...exactly].sort((x, y) => x[0] - y[0]), what).toEqual([...want.exactly].sort((x, y) => x[0] - y[0]));
          if (exactly.size > 0) known++;
          if (want.apart > 0) apart++;
          if (want.apartPrior > 0) apartPrior++;
          if (want.apartPath > 0) apartPath++;
          compared++;
        }
      }
    }
    expect(compared).toBe(160);
    // Most cases hold chunks whose symbol bounds differ, in files whose prior is below 1 and whose path matches.
    expect(apart).toBeGreaterThan(100);
    expect(apartPrior).toBeGreaterThan(100);
    expect(apartPath).toBeGreaterThan(100);
    // Where no cosine weighs, distances known exactly were compared too (`exactly`).
    expect(known).toBeGreaterThan(50);
  });
});
