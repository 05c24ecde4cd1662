// A prose file's lines as term postings (types.ts ProseLineTerms, built by prose-lines-build.ts): each
// line's words counted as countTerms counts them (a folded whole word, and the stem of each of its
// parts), with each line's and each window's BM25 part per key worked out once, so a query's ProseStats
// (exact) and bounds on its best line (at least ProseCounter.bestLexical) come from a few sums, without
// the file's text.
import type { ProseLineTerms } from '../types.js';
import { pathSignals, type PathSignals } from './path-signals.js';
import type { RankPlan } from './plan.js';
import { PROSE_B, PROSE_K1, proseBestDistance, proseLexical, type ProseStats } from './prose.js';
import { proseStatsOf } from './prose-counter.js';
import { addLineGramBm25, addLinesGramBm25, gramHolders, gramIdsOf, gramIndexIn, type DocumentGrams } from './prose-doc-grams.js';
import { KEY_MOST, keyCount, keyIdOf, proseTermKeys, releaseProseLines as releaseLines, type PackedProseLines } from './prose-lines-build.js';
import { sweepDocument, sweptLexical, sweptLexicalOf, unsweepDocument } from './prose-sweep.js';

export { ProseLinesBuilder } from './prose-lines-build.js';
export { prepareSweep } from './prose-sweep.js';

/**
 * Bounds a kept document's lines with the others' from now on (prose-sweep.ts: one pass over every kept
 * document's lists for a plan, not a visit to each document).
 */
export function sweepProseLines(terms: ProseLineTerms): void {
  sweepDocument(terms as PackedProseLines);
}

/** Lets a file's line terms go (its keeper dropped them): its grams are no longer found, nor its lines swept, for later queries. */
export function releaseProseLines(terms: ProseLineTerms): void {
  unsweepDocument(terms as PackedProseLines);
  releaseLines(terms);
}

/**
 * Per plan terms list (shared by a plan made again for the same query), its prose terms' key ids
 * (proseTermKeys: its terms', then its numbers'; -1: a key no file holds), and how many keys there were
 * then (-1: all found).
 */
const planKeys = new WeakMap<RankPlan['terms'], { keys: Int32Array; known: number }>();
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

/** The plan's terms' key ids, looked up again while one is unknown and new keys have come in since. */
function keysOf(plan: RankPlan): Int32Array {
  const kept = planKeys.get(plan.terms);
  if (kept && (kept.known === -1 || kept.known === keyCount())) return kept.keys;
  const keys = Int32Array.from(proseTermKeys(plan), (key) => keyIdOf(key) ?? -1);
  planKeys.set(plan.terms, { keys, known: keys.includes(-1) ? keyCount() : -1 });
  return keys;
}

/**
 * Each plan term's key in the file (`at`: its index in the file's ids, -1 when absent) and document
 * frequency over the file's lines (`df`: the count of lines that hold it); whether any is there.
 */
function locateKeys(t: PackedProseLines, keys: Int32Array, at: Int32Array, df: Float64Array): boolean {
  let any = false;
  for (let k = 0; k < keys.length; k++) {
    const x = keys[k] < 0 ? -1 : t.indexOf(keys[k]);
    at[k] = x;
    df[k] = x >= 0 ? t.keyMost[KEY_MOST * x] : 0;
    if (x >= 0) any = true;
  }
  return any;
}

/**
 * Whether none of the file's lines holds a plan term or number: every line's LineTerms null (what
 * counting each line gives: rank/prose.ts lineTerms), so every line's lexical score is 0.
 */
export function proseHoldsNoTerm(terms: ProseLineTerms, plan: RankPlan): boolean {
  const t = terms as PackedProseLines;
  const keys = keysOf(plan);
  for (let k = 0; k < keys.length; k++) if (keys[k] >= 0 && t.indexOf(keys[k]) >= 0) return false;
  return true;
}

/** Scratch: per plan gram, its index in the file's grams (-1: absent), its document frequency there and its most in a line (0 when absent). */
let gramAt = new Int32Array(64);
let gramDf = new Float64Array(64);
let gramMostAt = new Float64Array(64);

/** Sets gramAt, gramDf and gramMostAt for the plan's grams in the file (its gram table: prose-doc-grams.ts); how many grams the plan has. */
function locateGrams(t: PackedProseLines, plan: RankPlan): number {
  const gids = gramIdsOf(plan);
  const nGrams = gids?.length ?? 0;
  if (gramAt.length < nGrams) { gramAt = new Int32Array(nGrams * 2); gramDf = new Float64Array(nGrams * 2); gramMostAt = new Float64Array(nGrams * 2); }
  // A swept document (prose-sweep.ts) is only located here to be read (its statistics): a few binary
  // searches, not the plan's lists across every document.
  const holders = t.grams.slot >= 0 && t.sweepSlot < 0 ? gramHolders(plan) : null;
  if (holders) {
    // A registered document (a kept one): its grams among the plan's, found for all documents at once,
    // with their statistics read in order from the plan's lists (not from the document's arrays).
    gramAt.fill(-1, 0, nGrams);
    gramDf.fill(0, 0, nGrams);
    gramMostAt.fill(0, 0, nGrams);
    for (let j = holders.start[t.grams.slot]; j < holders.start[t.grams.slot + 1]; j++) {
      const g = holders.gram[j];
      gramAt[g] = holders.at[j];
      gramDf[g] = holders.df[j];
      gramMostAt[g] = holders.most[j];
    }
    return nGrams;
  }
  for (let g = 0; g < nGrams; g++) {
    const i = gids![g] < 0 ? -1 : gramIndexIn(t.grams, gids![g]);
    gramAt[g] = i;
    gramDf[g] = i >= 0 ? t.grams.gramDf[i] : 0;
    gramMostAt[g] = i >= 0 ? t.grams.gramMost[i] : 0;
  }
  return nGrams;
}

/** The file's statistics for the plan: exactly what ProseCounter.stats gives after reading it whole (kept for the last plan). */
export function proseLineStats(terms: ProseLineTerms, plan: RankPlan): ProseStats {
  const t = terms as PackedProseLines;
  if (t.stats && t.statsPlan && t.statsPlan.terms === plan.terms && t.statsPlan.prose?.grams === plan.prose?.grams) return t.stats;
  const keys = keysOf(plan);
  const dfs = new Float64Array(keys.length);
  locateKeys(t, keys, new Int32Array(keys.length), dfs);
  return statsOf(t, plan, dfs, locateGrams(t, plan));
}

/** proseLineStats from the plan's terms' document frequencies and its grams' (gramDf, as locateGrams left it): kept for the plan. */
function statsOf(t: PackedProseLines, plan: RankPlan, dfs: Float64Array, nGrams: number): ProseStats {
  t.stats = proseStatsOf(dfs, gramDf.subarray(0, nGrams), t.docs, t.chars);
  t.statsPlan = plan;
  return t.stats;
}

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
  const located = locateKeys(t, keys, at, df);
  // The plan's grams in the file: located once here for its statistics (unless kept) and its lines' grams below.
  const nGrams = located ? locateGrams(t, plan) : 0;
  const stats = !located ? null : statsFor(t, plan, nTerms, nGrams);
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
  const stats = statsFor(t, plan, nTerms, nGrams);
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

/** The file's statistics for this plan: those kept with its line terms when worked out for the same terms and grams. */
function statsFor(t: PackedProseLines, plan: RankPlan, nTerms: number, nGrams: number): ReturnType<typeof statsOf> {
  return t.stats && t.statsPlan && t.statsPlan.terms === plan.terms && t.statsPlan.prose?.grams === plan.prose?.grams ? t.stats
    : statsOf(t, plan, df.slice(0, nTerms), nGrams);
}

/**
 * Adds each located term's BM25 parts into the scratch sums by line (ownSum, windowSum; sized for the file
 * first) and lists the lines that hold a term in `held`: how many. clearSums zeroes them again.
 */
function sumTermsByLine(t: PackedProseLines, nTerms: number, stats: ReturnType<typeof statsOf>): number {
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

/** A line's count of distinct grams (DocumentGrams.lineGrams) that is not known exactly (it holds this many or more). */
const LINE_GRAMS_UNKNOWN = 0xffff;

/** Scratch of proseBest: per power of 2 (gramReach's `b`), the greatest and least of its grams' parts; how many grams it summed. */
const reachMax = new Float64Array(32);
const reachMin = new Float64Array(32);
let reachHeld = 0;

/**
 * At least the sum of the greatest `d` of `n` positive parts whose greatest is `max`, least `min` and sum
 * `sum` (with a margin for the floats): d times the greatest, and the sum less n - d times the least.
 * `sum` itself when d is not known to be fewer (a count of LINE_GRAMS_UNKNOWN or more).
 */
function greatestOf(d: number, n: number, max: number, min: number, sum: number): number {
  if (d >= n || d >= LINE_GRAMS_UNKNOWN) return sum;
  return Math.min(sum, d * max, sum - (n - d) * min) * (1 + 1e-9);
}

/**
 * Whether two plans bound a file alike: the same object, or one planned again with another weight on
 * the cosine only where that weight agrees (buildRankPlan shares a query's terms, weights and path words).
 */
function sameReach(a: RankPlan, b: RankPlan): boolean {
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
