// Picks, from every indexed chunk, the few that can be among a query's results: each chunk's relevance
// is bounded from the index alone (its unit vector's cosine, BM25 from the term postings and its
// file's path terms, and the certain and possible symbol boosts from the defined-name postings), and
// only chunks whose best case reaches the heap's worst guaranteed case are kept. The pipeline then
// scores those exactly, with the same code as a one-shot scan, so indexed answers equal one-shot ones.
// This module wires the steps: term-counts.ts, definition-bounds.ts, covered-paths.ts,
// covered-cosines.ts, threshold.ts.
import { chunkBestDistance, lexicalScore, relevance, toDistance, type KnownSignals } from '../../rank/relevance.js';
import { type PathSignals } from '../../rank/path-signals.js';
import { BLANK, HAS_TOKENS, type Snapshot } from '../snapshot/snapshot.js';
import { halfValues } from '../packed/float16.js';
import { halfCosine } from './chunk-cosines.js';
import type { CandidateCounts, CandidateQuery } from './candidate-query.js';
import { coveredChunks, coveredCosines } from './covered-cosines.js';
import { coveredPaths } from './covered-paths.js';
import { definitionBounds } from './definition-bounds.js';
import { lineTermCounts, termBm25s } from './term-counts.js';
import { choose, leastOf, limitOf, quickSelect } from './threshold.js';
import { work } from './work-arrays.js';

export type { CandidateCounts, CandidateQuery } from './candidate-query.js';

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
 * `exactly`, where given, gets the candidates whose distance is known exactly (no cosine weighs, and their
 * best case is their worst), by chunk; `termSignals`, where given and the cosine weighs, the term chunks whose
 * lexical and symbol signals are known exactly (their symbol's bounds meet), by chunk: the scorer then needs
 * only their cosine (embed/chunk-scoring.ts).
 */
export function selectCandidates(s: Snapshot, q: CandidateQuery, counts?: CandidateCounts, exactly?: Map<number, number>, termSignals?: Map<number, KnownSignals>): number[] {
  const { plan } = q;
  const n = s.start.length;
  const nTerms = plan.terms.length;
  const idf = Float64Array.from(plan.terms, (t) => t.idf);
  // The covered files' paths: their signals in typed arrays, their terms in term order (covered-paths.ts).
  const paths = coveredPaths(s, q);
  const { covered, pathMatchOf, priorOf, pathLengthOf, pathStart, pathEnd, pathTerm, pathCount } = paths;
  // The term chunks' BM25s worked out a term at a time where the lists allow it, else the counts laid out per chunk.
  const terms = termBm25s(s, plan, paths, idf);
  const tf = terms ? null : lineTermCounts(s, plan);
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

  const nFiles = files.length;
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
  // Per chunk bounded: its lexical signal and symbol, and 1 where it is a term chunk whose symbol is known (the bounds meet).
  const lexicalAt = work('lexicalAt', Float64Array, n);
  const symbolAt = work('symbolAt', Float64Array, n);
  const knownAt = work('knownAt', Uint8Array, n);
  let count = 0;
  let chunks = 0;
  let nCovered = 0;
  // The term chunks (held) and their BM25s, where worked out a term at a time.
  const held = terms?.held;
  const termBm25 = terms?.bm25;
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
  // toDistance(relevance(u, lexical, symbol, signals, plan)) and lexicalScore(bm25, plan) written out in the
  // loops with the plan's weights read once: relevance's operations in relevance's order (chunk-scorer.ts), so
  // the same floats. A call the loop does not inline passes and returns its doubles boxed: find_related's
  // ~20,000 term chunks a call were bounded through one (latency-log.md, warm36). Three copies (`bounded`, the
  // term chunks' where no cosine weighs, their best case): candidates-distances.test.ts checks the picks
  // against bounds worked out through relevance itself.
  const { semantic: wSemantic, symbol: wSymbol, path: wPath } = plan.weights;
  const wLexical = 1 - wSemantic;
  const { idfSum } = plan;
  // The file at hand's path signals (as `signals`, which the calls read).
  let pathMatch = 0;
  let prior = 1;
  const bounded = (c: number, semantic: number, lexical: number, possible: number, certain: number, term = true): void => {
    lexicalAt[count] = lexical;
    symbolAt[count] = possible;
    knownAt[count] = term && certain === possible ? 1 : 0;
    const fused = wSemantic * Math.max(0, semantic) + wLexical * lexical;
    const at = 1 / (1 + (fused + wSymbol * possible + wPath * pathMatch) * prior);
    lo[count] = at;
    // Most chunks have no definition bound (no line term): their worst case is their best.
    hi[count] = certain === possible ? at : 1 / (1 + (fused + wSymbol * certain + wPath * pathMatch) * prior);
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
    signals.pathMatch = pathMatch = pathMatchOf[f];
    signals.prior = prior = priorOf[f];
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
      if (held ? held[c] === 1 : filled !== undefined && filled[c] > 0) {
        termChunks++;
        const hasTokens = (flags[c] & HAS_TOKENS) !== 0;
        const bm25 = termBm25 ? termBm25[c] : bm25Of(c, pathLength, pFrom, pEnd);
        // A term chunk is kept in hybrid mode; lexically when its BM25 counts and it is not blank.
        if (lexicalOnly ? !(bm25 > 0 && (flags[c] & BLANK) === 0) : mode === 'semantic' && !hasTokens) continue;
        const lexical = idfSum > 0 ? bm25 / (bm25 + idfSum) : 0;
        const possible = possibleOf ? possibleOf[c] : 0;
        if (lexicalOnly || !hasTokens || all) {
          // bounded(c, semantic, lexical, possible, certain), written out (the loop's hottest call where no cosine weighs).
          const semantic = lexicalOnly || !hasTokens ? 0 : all![c];
          const certain = certainOf ? certainOf[c] : 0;
          lexicalAt[count] = lexical;
          symbolAt[count] = possible;
          knownAt[count] = certain === possible ? 1 : 0;
          const fused = wSemantic * Math.max(0, semantic) + wLexical * lexical;
          const at = 1 / (1 + (fused + wSymbol * possible + wPath * pathMatch) * prior);
          lo[count] = at;
          hi[count] = certain === possible ? at : 1 / (1 + (fused + wSymbol * certain + wPath * pathMatch) * prior);
          eligible[count++] = c;
        } else {
          termChunk[nTermChunks] = c;
          termLexical[nTermChunks] = lexical;
          // Every step is monotone in the cosine under rounding: a bound of it bounds the distance.
          const best = upper
            ? 1 / (1 + (wSemantic * Math.max(0, upper[c]) + wLexical * lexical + wSymbol * possible + wPath * pathMatch) * prior)
            : chunkBestDistance(lexical, possible, signals, plan);
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
    signals.pathMatch = pathMatch = pathMatchOf[f];
    signals.prior = prior = priorOf[f];
    bounded(c, cosineOf(c), termLexical[i], possibleOf ? possibleOf[c] : 0, certainOf ? certainOf[c] : 0);
    limit.offer(lo[count - 1], hi[count - 1]);
  };
  const boundRest = (f: number): void => {
    const file = files[f];
    signals.pathMatch = pathMatch = pathMatchOf[f];
    signals.prior = prior = priorOf[f];
    const pathLength = pathLengthOf[f];
    const pFrom = Math.max(0, pathStart[f]);
    const pEnd = pathEnd[f];
    const end = file.firstChunk + file.chunkCount;
    // The file's cosines at once (the kernel's rows are adjacent), where only bounds were known.
    if (exact) { kernel!.cosines(file.firstChunk, end, exact); cosines += file.chunkCount; }
    for (let c = file.firstChunk; c < end; c++) {
      if (held ? held[c] === 1 : filled !== undefined && filled[c] > 0) continue;
      const hasTokens = (flags[c] & HAS_TOKENS) !== 0;
      const bm25 = pEnd > pFrom ? bm25Of(c, pathLength, pFrom, pEnd) : 0;
      if (lexicalOnly ? !(bm25 > 0 && (flags[c] & BLANK) === 0) : !hasTokens) continue;
      bounded(c, lexicalOnly ? 0 : all ? all[c] : exact ? exact[c] : cosineOf(c), lexicalScore(bm25, plan), 0, 0, false);
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
  // Where no cosine weighs, a chunk whose best case is its worst is the distance the scoring works out
  // (threshold.ts LEXICAL_EPS): the pipeline need not count its lines unless it is shown (candidate-source.ts).
  if (exactly && lexicalOnly) for (let i = 0; i < count; i++) if (lo[i] === hi[i] && lo[i] < 1 && lo[i] <= limit.value) exactly.set(eligible[i], lo[i]);
  // Where the cosine weighs, a term chunk's lexical signal and symbol are the scoring's own floats (the same
  // argument; its BM25 from its postings, its symbol where its bounds meet); its cosine is its kept sum's.
  if (termSignals && !lexicalOnly && mode === 'hybrid') for (let i = 0; i < count; i++) if (knownAt[i] === 1 && lo[i] <= limit.value) termSignals.set(eligible[i], { lexical: lexicalAt[i], symbol: symbolAt[i] });
  // In snapshot order: by file (a patched snapshot's later files may own earlier chunks), then line.
  const chunkFile = s.chunkFile;
  out.sort((x, y) => (chunkFile[x] - chunkFile[y]) || (x - y));
  if (counts) Object.assign(counts, { chunks, bounded: count, cosines, files: nCovered, skippedFiles, termChunks, skippedTermChunks, laidOut: tf ? tf.term.length : 0 });
  return out;
}

/** Slack on a bound made of exact cosines and BM25 from the shortest chunk: a few roundings' worth, as a share of the distance. */
const BOUND_MARGIN = 1e-9;
