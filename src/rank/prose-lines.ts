// A prose file's lines as term postings (types.ts ProseLineTerms): each line's words counted as
// countTerms counts them (a folded whole word, and the stem of each of its parts), with each line's and
// each window's BM25 part per key worked out once, so a query's ProseStats (exact) and a bound on its
// best line (at least ProseCounter.bestLexical) come from a few sums, without the file's text.
import type { ProseLineTerms } from '../types.js';
import { pathSignals, type PathFacts, type PathSignals } from './chunk-scorer.js';
import { identifierParts, stem } from './lexical/terms.js';
import { fold, isAscii, textWords } from './lexical/words.js';
import type { RankPlan } from './plan.js';
import {
  PROSE_B, PROSE_DF_CHARS, PROSE_DF_LINES, PROSE_K1, PROSE_WINDOW_LINES, proseBestDistance, proseBm25, proseLexical, proseWindowBm25, type ProseStats,
} from './prose.js';
import { isBlank, proseStatsOf } from './prose-counter.js';
import {
  addLineGramBm25, documentGrams, gramHolders, gramIdsOf, gramIndexIn, noteWordGrams, registerGrams, releaseGrams, type DocumentGrams, type WordPostings,
} from './prose-doc-grams.js';

/**
 * Keys of every file's postings, interned once per process: a file keeps sorted key ids, not strings
 * ('w' + a folded whole word, 's' + a part's stem).
 */
const keyIds = new Map<string, number>();
/**
 * At most this many keys are interned (a process that lives on over many document trees would grow the
 * table without end): past it, a new file keeps no line terms and is read and counted as before.
 */
const MAX_KEYS = 1 << 20;
const idOf = (key: string): number => {
  let id = keyIds.get(key);
  if (id === undefined) { id = keyIds.size; keyIds.set(key, id); noteWordGrams(id, key); }
  return id;
};

/** Whether a line's words, folded, are the words of its folded text (what forEachGram cuts): almost always. */
function sameWords(words: string[], foldedWords: string[]): boolean {
  return words.length === foldedWords.length && words.every((w, i) => fold(w) === foldedWords[i]);
}

/** Lines are numbered in 16 bits: a file's statistics count at most PROSE_DF_LINES lines (a longer one keeps none). */
if (PROSE_DF_LINES > 0xffff) throw new Error('prose line numbers need more than 16 bits');

/** A float32 at least `x` (x >= 0): fround's relative error is at most 2^-24. */
const up = (x: number): number => Math.fround(x * (1 + 1e-6));

/** Builds a file's ProseLineTerms from its lines, in order (as the pipeline's ProseCounter sees them). */
export class ProseLinesBuilder {
  private readonly lengths: number[] = [];
  private readonly blank: boolean[] = [];
  private docs = 0;
  private chars = 0;
  private seen = 0;
  /** Per key id, flat (line, count) pairs in line order. */
  private readonly byKey = new Map<number, number[]>();
  private readonly line = new Map<number, number>();

  /**
   * True once the key table is full (MAX_KEYS) while this file is counted, or a line's words differ from
   * those forEachGram cuts (the folded text's words: its grams would not be its words' grams), or a word
   * is counted more than a count's 16 bits hold in a line: it keeps none.
   */
  private over = false;

  /** True once the file is longer than what its statistics count (PROSE_DF_LINES, PROSE_DF_CHARS): no bound then. */
  get full(): boolean {
    return this.lengths.length >= PROSE_DF_LINES || this.seen >= PROSE_DF_CHARS;
  }

  add(text: string): void {
    if (this.full || this.over) return;
    if (keyIds.size >= MAX_KEYS) { this.over = true; return; }
    const at = this.lengths.length;
    this.lengths.push(text.length);
    this.seen += text.length;
    const blank = isBlank(text);
    this.blank.push(blank);
    if (blank) return;
    this.docs++;
    this.chars += text.length;
    const counts = this.line;
    const words = textWords(text);
    if (!isAscii(text) && !sameWords(words, textWords(fold(text)))) { this.over = true; return; }
    for (const word of words) {
      const w = idOf('w' + fold(word));
      counts.set(w, (counts.get(w) ?? 0) + 1);
      for (const part of identifierParts(word)) {
        const s = idOf('s' + stem(part));
        counts.set(s, (counts.get(s) ?? 0) + 1);
      }
    }
    for (const [id, n] of counts) {
      if (n > 0xffff) { this.over = true; return; }
      const list = this.byKey.get(id);
      if (list) list.push(at, n); else this.byKey.set(id, [at, n]);
    }
    counts.clear();
  }

  /** The file's line terms; null when it is longer than its statistics count (ProseFile gives no bound then) or the key table is full. */
  done(): ProseLineTerms | null {
    if (this.full || this.over) return null;
    const { lengths, blank } = this;
    const n = lengths.length;
    // BM25 parts with an idf of 1: a query's part for a term is its idf times these (proseBm25 is a sum of such parts).
    const unit: ProseStats = { idf: [1], norm: 1, avgChars: this.docs > 0 ? this.chars / this.docs : 1, gramIdf: [], gramNorm: 0 };
    const tf = new Float64Array(1);
    const one = [0];
    const ids = Int32Array.from(this.byKey.keys()).sort();
    const ownStart = new Int32Array(ids.length + 1);
    const winStart = new Int32Array(ids.length + 1);
    const ownLine: number[] = [];
    const ownCount: number[] = [];
    const ownPart: number[] = [];
    const winLine: number[] = [];
    const winPart: number[] = [];
    const fw = new Map<number, number>();
    ids.forEach((id, k) => {
      const list = this.byKey.get(id)!;
      for (let j = 0; j < list.length; j += 2) {
        tf[0] = list[j + 1];
        ownLine.push(list[j]);
        ownCount.push(list[j + 1]);
        ownPart.push(up(proseBm25(tf, one, lengths[list[j]], unit)));
        // The windows that hold this line: those centred on it and on its neighbours (lineLexical's).
        for (let c = Math.max(0, list[j] - PROSE_WINDOW_LINES); c <= Math.min(n - 1, list[j] + PROSE_WINDOW_LINES); c++) {
          if (!blank[c]) fw.set(c, (fw.get(c) ?? 0) + list[j + 1]);
        }
      }
      for (const [c, f] of fw) {
        let chars = 0;
        for (let x = Math.max(0, c - PROSE_WINDOW_LINES); x <= Math.min(n - 1, c + PROSE_WINDOW_LINES); x++) chars += lengths[x];
        tf[0] = f;
        winLine.push(c);
        winPart.push(up(proseWindowBm25(tf, one, chars, unit)));
      }
      fw.clear();
      ownStart[k + 1] = ownLine.length;
      winStart[k + 1] = winLine.length;
    });
    // Per key, its best line's part and its best window's (a bound on a line's sum, term by term).
    const ownMost = new Float32Array(ids.length);
    const winMost = new Float32Array(ids.length);
    for (let k = 0; k < ids.length; k++) {
      for (let j = ownStart[k]; j < ownStart[k + 1]; j++) ownMost[k] = Math.max(ownMost[k], ownPart[j]);
      for (let j = winStart[k]; j < winStart[k + 1]; j++) winMost[k] = Math.max(winMost[k], winPart[j]);
    }
    let shortest = Infinity;
    for (let i = 0; i < n; i++) if (!blank[i]) shortest = Math.min(shortest, lengths[i]);
    const packed = new PackedProseLines(
      n, this.docs, this.chars, ids, Uint32Array.from(lengths), ownStart, Uint16Array.from(ownLine), Uint16Array.from(ownCount), Float32Array.from(ownPart),
      winStart, Uint16Array.from(winLine), Float32Array.from(winPart), ownMost, winMost, Number.isFinite(shortest) ? shortest : 0,
    );
    packed.grams = documentGrams(packed);
    registerGrams(packed.grams);
    packed.bytes += 14 * packed.grams.gramId.length + 6 * packed.grams.line.length + 8 * ids.length;
    return packed;
  }
}

/** Lets a file's line terms go (its keeper dropped them): its grams are no longer found for later queries. */
export function releaseProseLines(terms: ProseLineTerms): void {
  releaseGrams((terms as PackedProseLines).grams);
}

/**
 * ProseLineTerms in typed arrays: sorted key ids; key k's lines, and each one's BM25 part with an idf of
 * 1, at [ownStart[k], ownStart[k + 1]) (how many is its document frequency); the non-blank lines whose
 * window holds it, and the window's part, at [winStart[k], winStart[k + 1]). Parts are rounded up.
 */
class PackedProseLines implements ProseLineTerms, WordPostings {
  bytes: number;
  /** The document's grams (prose-doc-grams.ts): set once built. */
  grams!: DocumentGrams;
  /** The last plan proseBest was asked about, and its answer. */
  plan: RankPlan | null = null;
  best = 0;
  /** The last plan proseReach was asked about, its answer and the path's signals for it. */
  reachPlan: RankPlan | null = null;
  reach = 0;
  signals: PathSignals | null = null;
  /** The statistics proseLineStats last worked out, and for which plan (the file read after its bound: pipeline.ts). */
  statsPlan: RankPlan | null = null;
  stats: ProseStats | null = null;

  constructor(
    readonly lines: number, readonly docs: number, readonly chars: number, readonly ids: Int32Array, readonly lengths: Uint32Array,
    readonly ownStart: Int32Array, readonly ownLine: Uint16Array, readonly ownCount: Uint16Array, readonly ownPart: Float32Array,
    readonly winStart: Int32Array, readonly winLine: Uint16Array, readonly winPart: Float32Array,
    /** Per key, the most of its ownPart and of its winPart; the shortest non-blank line's length. */
    readonly ownMost: Float32Array, readonly winMost: Float32Array, readonly shortest: number,
  ) {
    this.bytes = 4 * (ids.length + lengths.length + ownStart.length + winStart.length) + 8 * ownLine.length + 6 * winLine.length + 128;
  }

  /** The index of key `id` in ids, or -1. */
  indexOf(id: number): number {
    let lo = 0;
    let hi = this.ids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = this.ids[mid];
      if (v < id) lo = mid + 1; else if (v > id) hi = mid - 1; else return mid;
    }
    return -1;
  }
}

/**
 * Per plan terms list (shared by a plan made again for the same query), its terms' key ids (-1: a key no
 * file holds), and how many keys there were then (-1: all found).
 */
const planKeys = new WeakMap<RankPlan['terms'], { keys: Int32Array; known: number }>();
/** Scratch of proseBest (zero between calls): per line, its BM25, its window's and its grams' so far; per term, its df and key's index. */
let ownSum = new Float64Array(1024);
let windowSum = new Float64Array(1024);
let gramSum = new Float64Array(1024);
let held = new Int32Array(1024);
let df = new Float64Array(16);
let at = new Int32Array(16);

/** The plan's terms' key ids, looked up again while one is unknown and new keys have come in since. */
function keysOf(plan: RankPlan): Int32Array {
  const kept = planKeys.get(plan.terms);
  if (kept && (kept.known === -1 || kept.known === keyIds.size)) return kept.keys;
  const keys = Int32Array.from(plan.terms, (term) => keyIds.get((term.whole ? 'w' : 's') + term.key) ?? -1);
  planKeys.set(plan.terms, { keys, known: keys.includes(-1) ? keyIds.size : -1 });
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
    df[k] = x >= 0 ? t.ownStart[x + 1] - t.ownStart[x] : 0;
    if (x >= 0) any = true;
  }
  return any;
}

/** Scratch: per plan gram, its index in the file's grams (-1: absent), and its document frequency there. */
let gramAt = new Int32Array(64);
let gramDf = new Float64Array(64);

/** Sets gramAt and gramDf for the plan's grams in the file (its gram table: prose-doc-grams.ts); how many grams the plan has. */
function locateGrams(t: PackedProseLines, plan: RankPlan): number {
  const gids = gramIdsOf(plan);
  const nGrams = gids?.length ?? 0;
  if (gramAt.length < nGrams) { gramAt = new Int32Array(nGrams * 2); gramDf = new Float64Array(nGrams * 2); }
  const holders = t.grams.slot >= 0 ? gramHolders(plan) : null;
  if (holders) {
    // A registered document (a kept one): its grams among the plan's, found for all documents at once.
    gramAt.fill(-1, 0, nGrams);
    gramDf.fill(0, 0, nGrams);
    for (let j = holders.start[t.grams.slot]; j < holders.start[t.grams.slot + 1]; j++) {
      const g = holders.gram[j];
      gramAt[g] = holders.at[j];
      gramDf[g] = t.grams.gramDf[holders.at[j]];
    }
    return nGrams;
  }
  for (let g = 0; g < nGrams; g++) {
    const i = gids![g] < 0 ? -1 : gramIndexIn(t.grams, gids![g]);
    gramAt[g] = i;
    gramDf[g] = i >= 0 ? t.grams.gramDf[i] : 0;
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
  const nGrams = locateGrams(t, plan);
  t.stats = proseStatsOf(dfs, gramDf.slice(0, nGrams), t.docs, t.chars);
  t.statsPlan = plan;
  return t.stats;
}

/** Scratch of proseReach: what proseLexical reads of a file's statistics (its norms). */
const norms: ProseStats = { idf: [], norm: 0, avgChars: 1, gramIdf: [], gramNorm: 0 };

/** Lucene's idf of a document frequency over n documents (prose-counter.ts idfOf's). */
const idfOf = (df: number, n: number): number => Math.log(1 + (n - df + 0.5) / (df + 0.5));

/**
 * A lower bound on the distance of every line of the file for a plan, from a few sums per term and gram
 * (no line visited, nothing made): each term's best line part and best window part (ownMost, winMost)
 * summed as if one line held them all, and each gram the file holds at its most in a line (gramMost) in
 * the file's shortest line, with the file's idf and a cosine of 1. At most proseBest, so a file skipped on
 * it is one proseBest skips; kept per file for the last plan (`facts`: the path's, if known).
 */
export function proseReach(terms: ProseLineTerms, plan: RankPlan, path: string, facts?: PathFacts): number {
  const t = terms as PackedProseLines;
  if (t.reachPlan && sameReach(t.reachPlan, plan)) return t.reach;
  const keys = keysOf(plan);
  const nTerms = keys.length;
  if (at.length < nTerms) { at = new Int32Array(nTerms * 2); df = new Float64Array(nTerms * 2); }
  let lexical = 0;
  if (locateKeys(t, keys, at, df)) {
    const n = t.docs;
    let own = 0;
    let window = 0;
    for (let k = 0; k < nTerms; k++) {
      const x = at[k];
      if (x < 0) continue;
      const idf = idfOf(df[k], n);
      own += idf * t.ownMost[x];
      window += idf * t.winMost[x];
    }
    // A gram's part in a line grows with its count there and falls with the line's length (its norm).
    const nGrams = locateGrams(t, plan);
    const norm = PROSE_K1 * (1 - PROSE_B + (PROSE_B * t.shortest) / (n > 0 ? t.chars / n : 1));
    let grams = 0;
    for (let g = 0; g < nGrams; g++) {
      const i = gramAt[g];
      if (i < 0) continue;
      const most = t.grams.gramMost[i];
      grams += idfOf(gramDf[g], n) * (most * (PROSE_K1 + 1)) / (most + norm);
    }
    // proseStatsOf's norms.
    norms.norm = nTerms * Math.log(1 + (n + 0.5) / 0.5);
    norms.gramNorm = nGrams * Math.log(1 + (n + 0.5) / 0.5);
    lexical = proseLexical(own, window, grams, norms);
  }
  t.signals = pathSignals(path, plan, facts);
  // A margin for the order of the floats' additions, as proseBest's.
  t.reach = proseFileBestDistance(lexical > 0 ? lexical * (1 + 1e-9) : 0, path, plan, t.signals);
  t.reachPlan = plan;
  return t.reach;
}

/**
 * A lower bound on the distance of every line of the file for a plan (kept per file for the last plan:
 * the pipeline asks once proseReach is within reach): its lines' lexical scores (the line's BM25 and
 * its window's, as lineLexical adds them, from the parts rounded up) with a cosine of 1. `facts`: the
 * path's, if known.
 */
export function proseBest(terms: ProseLineTerms, plan: RankPlan, path: string, facts?: PathFacts): number {
  const t = terms as PackedProseLines;
  if (t.plan && sameReach(t.plan, plan)) return t.best;
  const reach = proseReach(terms, plan, path, facts);
  const keys = keysOf(plan);
  const nTerms = keys.length;
  if (at.length < nTerms) { at = new Int32Array(nTerms * 2); df = new Float64Array(nTerms * 2); }
  // No term here: no line scores lexically, and proseReach's bound is the one (a cosine of 1).
  const stats = locateKeys(t, keys, at, df) ? proseLineStats(terms, plan) : null;
  let lexical = 0;
  if (stats) {
    if (ownSum.length < t.lines) {
      ownSum = new Float64Array(t.lines * 2); windowSum = new Float64Array(t.lines * 2); gramSum = new Float64Array(t.lines * 2); held = new Int32Array(t.lines * 2);
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
    // The grams' part of the lines that hold a term (only those score): exact, from their words' counts.
    const nGrams = locateGrams(t, plan);
    if (nGrams > 0) addLineGramBm25(t.grams, gramAt, nGrams, t.lengths, stats, ownSum, gramSum);
    for (let q = 0; q < h; q++) {
      const i = held[q];
      lexical = Math.max(lexical, proseLexical(ownSum[i], windowSum[i], gramSum[i], stats));
      ownSum[i] = 0;
      gramSum[i] = 0;
    }
    for (let k = 0; k < nTerms; k++) {
      const x = at[k];
      if (x >= 0) for (let j = winStart[x]; j < winStart[x + 1]; j++) windowSum[winLine[j]] = 0;
    }
  }
  // A margin for the order of the floats' additions (the workers add the same parts in other sums).
  t.best = stats ? proseFileBestDistance(lexical > 0 ? lexical * (1 + 1e-9) : 0, path, plan, t.signals!) : reach;
  t.plan = plan;
  return t.best;
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
 * The least distance a line of a prose file of this best lexical score can have (a cosine of 1):
 * Infinity when no line can score (no term, no weight on the cosine). ProseFile.bestDistance's rule.
 */
export function proseFileBestDistance(lexical: number, path: string, plan: RankPlan, signals?: PathSignals): number {
  if (lexical === 0 && !((plan.prose?.semantic ?? 0) > 0)) return Infinity;
  return proseBestDistance(lexical, signals ?? pathSignals(path, plan), plan);
}
