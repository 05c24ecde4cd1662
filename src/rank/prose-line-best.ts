// The exact bound on the best line of a prose file for a plan, line by line from its terms' postings
// (proseBest; with a floor, lines past it skipped on a rougher bound first), and each line's own bound
// with its own cosine (proseLineReach). Bounds from a few sums, no line visited: prose-reach.ts.
import type { ProseLineTerms } from '../types.js';
import type { PathSignals } from './path-signals.js';
import type { RankPlan } from './plan.js';
import { PROSE_B, PROSE_K1, proseLexical, type ProseStats } from './prose.js';
import { addLineGramBm25, addLinesGramBm25, type DocumentGrams } from './prose-doc-grams.js';
import { KEY_MOST, type PackedProseLines } from './prose-lines-build.js';
import { keysOf, locateGrams, locateKeys, located, statsFor } from './prose-line-keys.js';
import { greatestOf, proseFileBestDistance, proseReach, sameReach } from './prose-reach.js';
import { sweptLexical } from './prose-sweep.js';

/** Scratch of proseBest (zero between calls): per line, its BM25, its window's and its grams' so far; per term, its df and key's index. */
let ownSum = new Float64Array(1024);
let windowSum = new Float64Array(1024);
let gramSum = new Float64Array(1024);
let held = new Int32Array(1024);
/** Scratch of proseBest with a floor (zero between calls): 1 for a line whose grams' part is worked out. */
let liveMask = new Float64Array(1024);
let liveLines = new Int32Array(1024);
/** Scratch of proseBest: per power of 2, gramReach in lines at least that long (-1: not worked out yet). */
const mostAt = new Float64Array(32);
let df = new Float64Array(16);
let at = new Int32Array(16);

/** Scratch of proseBest: per power of 2 (gramReach's `b`), the greatest and least of its grams' parts; how many grams it summed. */
const reachMax = new Float64Array(32);
const reachMin = new Float64Array(32);
let reachHeld = 0;

/**
 * A lower bound on the distance of every line of the file for a plan (kept per file for the last plan:
 * the pipeline asks once proseReach is within reach): its lines' lexical scores (the line's BM25 and
 * its window's, as lineLexical adds them, from the parts rounded up) with a cosine of `cosine` (1, or a
 * bound on its lines' cosines: embed/line-cosines.ts). `signals`: the path's for the plan, if known.
 *
 * With `floor` (the distance a line must beat to matter), a bound above it may come back without the
 * grams' part worked out line by line (issue 30: a pasted chunk's ~100 grams are in most lines of a
 * document, and that part was most of find_related's time): each line's words exactly, its grams'
 * part at most gramReach (every gram the file holds at its most count, in its shortest line). A
 * line's lexical score grows with each part (proseLexical), so this is at most the exact bound's
 * distance; kept for the plan only when it is above the floor, which only falls within a search.
 */
export function proseBest(terms: ProseLineTerms, plan: RankPlan, path: string, signals?: PathSignals, floor = -Infinity, cosine = 1): number {
  const t = terms as PackedProseLines;
  if (t.plan && t.bestCosine === cosine && t.bestPath === path && sameReach(t.plan, plan)) return t.best;
  const reach = proseReach(terms, plan, path, signals, cosine);
  // A swept document's reach is its exact bound already.
  if (sweptLexical(t, plan) !== undefined) {
    t.best = reach;
    t.plan = plan;
    t.bestPath = path;
    t.bestCosine = cosine;
    return reach;
  }
  const keys = keysOf(plan);
  const nTerms = keys.length;
  if (at.length < nTerms) { at = new Int32Array(nTerms * 2); df = new Float64Array(nTerms * 2); }
  // No term here: no line scores lexically, and proseReach's bound is the one (its lines' cosines at most `cosine`).
  const found = locateKeys(t, keys, at, df);
  // The plan's grams in the file: located once here for its statistics (unless kept) and its lines' grams below.
  const nGrams = found ? locateGrams(t, plan) : 0;
  const { gramAt } = located;
  const stats = !found ? null : statsFor(t, plan, df, nTerms, nGrams);
  let lexical = 0;
  if (stats) {
    const h = sumTermsByLine(t, nTerms, stats);
    // Lines whose grams' part is worked out exactly (take > 0): all that hold a term, or with a floor those
    // whose bound with that part at its most is within it.
    let take = ownSum;
    /** With a floor, the least distance of the lines left out of `take` (their bound with the grams at their most). */
    let roughOut = Infinity;
    let searched = false;
    if (nGrams > 0 && floor > -Infinity) {
      // First with the grams' part at its most in any line (gramReach), line by line: a line whose bound is
      // past the floor cannot enter, so its grams are not counted (issue 30: a pasted chunk's ~100 grams are
      // in most lines of a document, and counting them was most of find_related's time); past the floor
      // on every line, the file is out of reach.
      let least = Infinity;
      for (let k = 0; k < nTerms; k++) if (at[k] >= 0) least = Math.min(least, t.keyMost[KEY_MOST * at[k] + 3]);
      // In a line of at least L characters (the greatest power of 2 not past its length, or the shortest
      // line that holds a term), worked out once per L: the part falls as the line grows.
      mostAt.fill(-1);
      let roughOutLexical = 0;
      let live = 0;
      // With each line's count of distinct grams (a counted document), its grams' part is at most that
      // many of their parts at their most, the greatest (gramReach's greatest and least: reachMax, reachMin).
      const lineGrams = t.grams.lineGrams;
      for (let q = 0; q < h; q++) {
        const i = held[q];
        const b = 31 - Math.clz32(Math.max(1, t.lengths[i]));
        let most = mostAt[b] >= 0 ? mostAt[b] : (mostAt[b] = gramReach(t, stats, nGrams, Math.max(least, 2 ** b), b));
        if (lineGrams) most = Math.min(most, greatestOf(lineGrams[i], reachHeld, reachMax[b], reachMin[b], most));
        const r = proseLexical(ownSum[i], windowSum[i], most, stats);
        if (r <= roughOutLexical) continue;
        if (proseFileBestDistance(r > 0 ? r * (1 + 1e-9) : 0, path, plan, t.signals!, cosine) > floor) roughOutLexical = r;
        else { liveMask[i] = 1; liveLines[live++] = i; }
      }
      roughOut = proseFileBestDistance(roughOutLexical > 0 ? roughOutLexical * (1 + 1e-9) : 0, path, plan, t.signals!, cosine);
      if (live === 0) {
        clearSums(t, nTerms, h);
        t.best = roughOut;
        t.plan = plan;
        t.bestPath = path;
        t.bestCosine = cosine;
        return roughOut;
      }
      take = liveMask;
      // A few lines: each gram's count in each found by a search of the gram's lines, not by a walk over them all.
      if (gramSearchCheaper(t.grams, nGrams, live)) { addLinesGramBm25(t.grams, gramAt, nGrams, t.lengths, stats, liveLines, live, gramSum); searched = true; }
    }
    // The grams' part of the lines taken (only lines that hold a term score): exact, from their words' counts.
    if (nGrams > 0 && !searched) addLineGramBm25(t.grams, gramAt, nGrams, t.lengths, stats, take, gramSum);
    for (let q = 0; q < h; q++) {
      const i = held[q];
      if (take[i] > 0) lexical = Math.max(lexical, proseLexical(ownSum[i], windowSum[i], gramSum[i], stats));
      ownSum[i] = 0;
      gramSum[i] = 0;
      liveMask[i] = 0;
    }
    for (let k = 0; k < nTerms; k++) {
      const x = at[k];
      if (x >= 0) for (let j = t.winStart[x]; j < t.winStart[x + 1]; j++) windowSum[t.winLine[j]] = 0;
    }
    // A line left out is past the floor on its bound, so when the lines taken are within it they hold the
    // best line and this is the exact bound (the floor only falls, so a bound past it is kept for the plan).
    if (roughOut < Infinity) {
      const d = Math.min(roughOut, proseFileBestDistance(lexical > 0 ? lexical * (1 + 1e-9) : 0, path, plan, t.signals!, cosine));
      t.best = d;
      t.plan = plan;
      t.bestPath = path;
      t.bestCosine = cosine;
      return d;
    }
  }
  // A margin for the order of the floats' additions (the workers add the same parts in other sums).
  t.best = stats ? proseFileBestDistance(lexical > 0 ? lexical * (1 + 1e-9) : 0, path, plan, t.signals!, cosine) : reach;
  t.plan = plan;
  t.bestPath = path;
  t.bestCosine = cosine;
  return t.best;
}

/**
 * A lower bound on the distance of every line of the file for a plan, line by line (issue 30): each line
 * that holds a term at its own lexical bound (its words' parts as proseBest takes them, its grams' part
 * exact) with its own cosine bound (`cosineOf(line)`: at least its cosine; Infinity when unknown), the
 * others at a lexical score of 0 (they score by their cosine alone). `cosine` bounds every line's cosine
 * (the file's, as proseBest takes it): each line's is taken at the least of the two. proseBest pairs the
 * best line's lexical score with the best line's cosine, seldom one line's: a find_related's ~90 prose
 * documents a call within reach on it, read and scored for no line of theirs to enter.
 */
export function proseLineReach(terms: ProseLineTerms, plan: RankPlan, path: string, cosineOf: (line: number) => number, cosine: number): number {
  const t = terms as PackedProseLines;
  // proseReach keeps the path's signals with the file (t.signals).
  proseReach(terms, plan, path, undefined, cosine);
  const signals = t.signals!;
  // A line that holds no term: its lexical score is 0.
  let least = proseFileBestDistance(0, path, plan, signals, cosine);
  const keys = keysOf(plan);
  const nTerms = keys.length;
  if (at.length < nTerms) { at = new Int32Array(nTerms * 2); df = new Float64Array(nTerms * 2); }
  if (!locateKeys(t, keys, at, df)) return least;
  const nGrams = locateGrams(t, plan);
  const { gramAt } = located;
  const stats = statsFor(t, plan, df, nTerms, nGrams);
  const h = sumTermsByLine(t, nTerms, stats);
  if (nGrams > 0) addLineGramBm25(t.grams, gramAt, nGrams, t.lengths, stats, ownSum, gramSum);
  for (let q = 0; q < h; q++) {
    const i = held[q];
    const lexical = proseLexical(ownSum[i], windowSum[i], gramSum[i], stats);
    const d = proseFileBestDistance(lexical > 0 ? lexical * (1 + 1e-9) : 0, path, plan, signals, Math.min(cosine, cosineOf(i)));
    if (d < least) least = d;
  }
  clearSums(t, nTerms, h);
  return least;
}

/**
 * Whether searching each of the plan's grams located in gramAt for `lines` lines (a binary search of its
 * lines each, ~8 steps) costs less than walking all their (line, count) entries.
 */
function gramSearchCheaper(d: DocumentGrams, nGrams: number, lines: number): boolean {
  const { gramAt, gramDf } = located;
  let entries = 0;
  let grams = 0;
  // A registered document's gram has an entry per line that holds it (its df, located already); another's
  // (the index's statistics file: prose-index.ts) are laid out otherwise.
  const counted = d.slot >= 0;
  for (let g = 0; g < nGrams; g++) {
    if (gramAt[g] < 0) continue;
    entries += counted ? gramDf[g] : d.lineStart[gramAt[g] + 1] - d.lineStart[gramAt[g]];
    grams++;
  }
  return lines * grams * 8 < entries;
}

/**
 * Adds each located term's BM25 parts into the scratch sums by line (ownSum, windowSum; sized for the file
 * first) and lists the lines that hold a term in `held`: how many. clearSums zeroes them again.
 */
function sumTermsByLine(t: PackedProseLines, nTerms: number, stats: ProseStats): number {
  if (ownSum.length < t.lines) {
    ownSum = new Float64Array(t.lines * 2); windowSum = new Float64Array(t.lines * 2); gramSum = new Float64Array(t.lines * 2); held = new Int32Array(t.lines * 2);
    liveMask = new Float64Array(t.lines * 2); liveLines = new Int32Array(t.lines * 2);
  }
  let h = 0;
  const { ownStart, ownLine, ownPart, winStart, winLine, winPart } = t;
  for (let k = 0; k < nTerms; k++) {
    const x = at[k];
    if (x < 0) continue;
    const w = stats.idf[k];
    for (let j = ownStart[x]; j < ownStart[x + 1]; j++) {
      const i = ownLine[j];
      if (ownSum[i] === 0) held[h++] = i;
      ownSum[i] += w * ownPart[j];
    }
    for (let j = winStart[x]; j < winStart[x + 1]; j++) windowSum[winLine[j]] += w * winPart[j];
  }
  return h;
}

/** Zeroes proseBest's scratch sums of the h held lines and of the windows of the terms located in `at`. */
function clearSums(t: PackedProseLines, nTerms: number, h: number): void {
  for (let q = 0; q < h; q++) { ownSum[held[q]] = 0; gramSum[held[q]] = 0; }
  for (let k = 0; k < nTerms; k++) {
    const x = at[k];
    if (x >= 0) for (let j = t.winStart[x]; j < t.winStart[x + 1]; j++) windowSum[t.winLine[j]] = 0;
  }
}

/**
 * At least the grams' BM25 (prose.ts gramBm25) of any line of the file that holds a plan term (only those
 * score), with its statistics: each plan gram located in gramAt counted at its most in a line (gramMost),
 * in a line of `shortest` characters (the shortest line holding a term: the least norm). A gram's part
 * grows with its count and falls with the line's length, and a line holds each gram at most gramMost
 * times, so every such line's sum is at most this one.
 */
function gramReach(t: PackedProseLines, s: ProseStats, nGrams: number, shortest: number, b: number): number {
  const { gramAt, gramMostAt } = located;
  const norm = PROSE_K1 * (1 - PROSE_B + (PROSE_B * shortest) / s.avgChars);
  let sum = 0;
  let max = 0;
  let min = Infinity;
  let n = 0;
  for (let g = 0; g < nGrams; g++) {
    if (gramAt[g] < 0) continue;
    const most = gramMostAt[g];
    const v = s.gramIdf[g] * (most * (PROSE_K1 + 1)) / (most + norm);
    sum += v;
    n++;
    if (v > max) max = v;
    if (v < min) min = v;
  }
  reachMax[b] = max;
  reachMin[b] = min;
  reachHeld = n;
  // A margin for the order of the additions (addLineGramBm25 adds the same terms per line).
  return sum * (1 + 1e-9);
}
