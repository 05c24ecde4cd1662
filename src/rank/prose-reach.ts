// Bounds on the best line of a prose file for a plan from a few sums per term and gram, no line visited
// (proseReach), and the least distance a line of a given lexical score can have (proseFileBestDistance):
// what lets a search skip a prose file, or list a kept one, without reading it. The exact bound, line by
// line, is prose-line-best.ts's.
import type { ProseLineTerms } from '../types.js';
import { pathSignals, type PathSignals } from './path-signals.js';
import type { RankPlan } from './plan.js';
import { PROSE_B, PROSE_K1, proseBestDistance, proseLexical, type ProseStats } from './prose.js';
import { gramIdsOf } from './prose-doc-grams.js';
import { gramHolders } from './prose-gram-holders.js';
import { KEY_MOST, type PackedProseLines } from './prose-lines-build.js';
import { keysOf, locateGrams, locateKeys, located } from './prose-line-keys.js';
import { sweptLexical, sweptLexicalOf } from './prose-sweep.js';

/** Scratch of proseReach: per plan term, its key's index in the file and its df. */
let df = new Float64Array(16);
let at = new Int32Array(16);

/** Scratch of proseReach: what proseLexical reads of a file's statistics (its norms). */
const norms: ProseStats = { idf: [], norm: 0, avgChars: 1, gramIdf: [], gramNorm: 0 };

/** Lucene's idf of a document frequency over n documents (prose-counter.ts idfOf's). */
const idfOf = (df: number, n: number): number => Math.log(1 + (n - df + 0.5) / (df + 0.5));

/**
 * A lower bound on the distance of every line of the file for a plan, from a few sums per term and gram
 * (no line visited, nothing made): each term's best line part and best window part (PackedProseLines.keyMost)
 * summed as if one line held them all, and each gram the file holds at its most in a line (gramMost) in
 * the shortest line that holds a plan term (keyMost's shortest line: only such a line scores), with the file's idf and a cosine of `cosine` (1, or a bound on its lines'
 * cosines: embed/line-cosines.ts). At most proseBest, so a file skipped on it is one proseBest skips; kept
 * per file for the last plan and cosine (`signals`: the path's for the plan, pathSignals', if known).
 */
export function proseReach(terms: ProseLineTerms, plan: RankPlan, path: string, signals?: PathSignals, cosine = 1): number {
  const t = terms as PackedProseLines;
  // Kept per path too: one file's kept terms may be asked under two names (a root given as `.` and as an
  // absolute path), and the path's signals are part of the bound.
  if (t.reachPlan && t.reachPath === path && sameReach(t.reachPlan, plan)) {
    // The same plan with another bound on the cosine: its lexical part is the same.
    if (t.reachCosine !== cosine) { t.reach = proseFileBestDistance(t.reachLexical, path, plan, t.signals!, cosine); t.reachCosine = cosine; }
    return t.reach;
  }
  // A swept document (a kept one: prose-sweep.ts) has its best line's exact score from the sweep.
  const swept = sweptLexical(t, plan);
  let lexical = swept ?? 0;
  const keys = swept === undefined ? keysOf(plan) : null;
  const nTerms = keys?.length ?? 0;
  if (at.length < nTerms) { at = new Int32Array(nTerms * 2); df = new Float64Array(nTerms * 2); }
  if (keys && locateKeys(t, keys, at, df)) {
    const n = t.docs;
    let own = 0;
    let window = 0;
    let least = Infinity;
    for (let k = 0; k < nTerms; k++) {
      const x = at[k];
      if (x < 0) continue;
      const idf = idfOf(df[k], n);
      own += idf * t.keyMost[KEY_MOST * x + 1];
      window += idf * t.keyMost[KEY_MOST * x + 2];
      least = Math.min(least, t.keyMost[KEY_MOST * x + 3]);
    }
    // A gram's part in a line grows with its count there and falls with the line's length (its norm); only
    // a line that holds a term scores, so it is at least as long as the shortest line that holds one.
    const norm = PROSE_K1 * (1 - PROSE_B + (PROSE_B * least) / (n > 0 ? t.chars / n : 1));
    let grams = 0;
    /** How many of the plan's grams the file holds, and the greatest and least of their parts. */
    let nHeld = 0;
    let gramMax = 0;
    let gramMin = Infinity;
    const holders = t.grams.slot >= 0 ? gramHolders(plan) : null;
    let nGrams: number;
    if (holders) {
      // A registered document: only the plan's grams it holds (ascending, as the loop below adds them), not all the plan's.
      nGrams = gramIdsOf(plan)!.length;
      const { df: dfs, most: mosts } = holders;
      for (let j = holders.start[t.grams.slot]; j < holders.start[t.grams.slot + 1]; j++) {
        const most = mosts[j];
        const v = idfOf(dfs[j], n) * (most * (PROSE_K1 + 1)) / (most + norm);
        grams += v;
        nHeld++;
        if (v > gramMax) gramMax = v;
        if (v < gramMin) gramMin = v;
      }
    } else {
      nGrams = locateGrams(t, plan);
      const { gramAt, gramDf, gramMostAt } = located;
      for (let g = 0; g < nGrams; g++) {
        if (gramAt[g] < 0) continue;
        const most = gramMostAt[g];
        const v = idfOf(gramDf[g], n) * (most * (PROSE_K1 + 1)) / (most + norm);
        grams += v;
        nHeld++;
        if (v > gramMax) gramMax = v;
        if (v < gramMin) gramMin = v;
      }
    }
    // No line holds more of the plan's grams than the most distinct grams any line holds: at most that
    // many of the parts above, the greatest (a document of short lines, a query of many grams).
    const d = t.grams.mostLineGrams;
    if (d !== undefined) grams = greatestOf(d, nHeld, gramMax, gramMin, grams);
    // proseStatsOf's norms.
    norms.norm = nTerms * Math.log(1 + (n + 0.5) / 0.5);
    norms.gramNorm = nGrams * Math.log(1 + (n + 0.5) / 0.5);
    lexical = proseLexical(own, window, grams, norms);
  }
  t.signals = signals ?? pathSignals(path, plan);
  // A margin for the order of the floats' additions, as proseBest's.
  t.reachLexical = lexical > 0 ? lexical * (1 + 1e-9) : 0;
  t.reach = proseFileBestDistance(t.reachLexical, path, plan, t.signals, cosine);
  t.reachPlan = plan;
  t.reachPath = path;
  t.reachCosine = cosine;
  return t.reach;
}

/**
 * proseReach at a cosine of 1 (the same float), not kept with the file: a swept document's from the sweep's
 * best line and its path's `signals` for the plan, with nothing else looked at (a search lists every kept
 * document by it: prose-source.ts); another's by proseReach.
 */
export function proseReachListed(terms: ProseLineTerms, plan: RankPlan, path: string, signals: PathSignals): number {
  return reachListed(sweptLexical(terms as PackedProseLines, plan), terms, plan, path, signals);
}

/** proseReachListed for many documents of one plan (a search lists ~1,400): the sweep's bests looked up once. */
export function proseReachListedOf(plan: RankPlan): (terms: ProseLineTerms, path: string, signals: PathSignals) => number {
  const swept = sweptLexicalOf(plan);
  return (terms, path, signals) => reachListed(swept(terms as PackedProseLines), terms, plan, path, signals);
}

function reachListed(swept: number | undefined, terms: ProseLineTerms, plan: RankPlan, path: string, signals: PathSignals): number {
  if (swept === undefined) return proseReach(terms, plan, path, signals);
  // proseReach's margin, as it keeps reachLexical.
  return proseFileBestDistance(swept > 0 ? swept * (1 + 1e-9) : 0, path, plan, signals, 1);
}

/** A line's count of distinct grams (DocumentGrams.lineGrams) that is not known exactly (it holds this many or more). */
export const LINE_GRAMS_UNKNOWN = 0xffff;

/**
 * At least the sum of the greatest `d` of `n` positive parts whose greatest is `max`, least `min` and sum
 * `sum` (with a margin for the floats): d times the greatest, and the sum less n - d times the least.
 * `sum` itself when d is not known to be fewer (a count of LINE_GRAMS_UNKNOWN or more).
 */
export function greatestOf(d: number, n: number, max: number, min: number, sum: number): number {
  if (d >= n || d >= LINE_GRAMS_UNKNOWN) return sum;
  return Math.min(sum, d * max, sum - (n - d) * min) * (1 + 1e-9);
}

/**
 * Whether two plans bound a file alike: the same object, or one planned again with another weight on
 * the cosine only where that weight agrees (buildRankPlan shares a query's terms, weights and path words).
 */
export function sameReach(a: RankPlan, b: RankPlan): boolean {
  return a === b || (a.terms === b.terms && a.weights === b.weights && a.pathWords === b.pathWords && a.mode === b.mode
    && a.pathPriors === b.pathPriors && a.dataPrior === b.dataPrior && a.prose?.semantic === b.prose?.semantic
    && a.prose?.grams === b.prose?.grams);
}

/**
 * The least distance a line of a prose file of this best lexical score can have (a cosine of `cosine`: 1,
 * or a bound on its lines'): Infinity when no line can score (no term, no weight on the cosine).
 * ProseFile.bestDistance's rule.
 */
export function proseFileBestDistance(lexical: number, path: string, plan: RankPlan, signals?: PathSignals, cosine = 1): number {
  if (lexical === 0 && !((plan.prose?.semantic ?? 0) > 0)) return Infinity;
  return proseBestDistance(lexical, signals ?? pathSignals(path, plan), plan, cosine);
}
