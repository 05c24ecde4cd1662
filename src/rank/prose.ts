// Prose files (documents: .txt, .md, .rst, ...) are ranked line by line in the hybrid and lexical
// modes, not by 48-line chunks: a question over a document wants the sentence that answers it. Their
// BM25 takes its document frequencies from the file's own lines (the shipped lexicon counts code).
import type { RankPlan } from './plan.js';
import { countTerms } from './chunk-scorer.js';
import { toDistance } from './relevance.js';
import { pathSignals, type PathSignals } from './path-signals.js';
import { forEachGram, gramKey } from './lexical/grams.js';
import { textNumbers } from './lexical/words.js';

/** Extensions of prose: plain text and the markup languages people write documents in. */
const PROSE_EXTENSIONS = new Set([
  'txt', 'text', 'md', 'markdown', 'mdown', 'mkd', 'rst', 'adoc', 'asciidoc', 'tex', 'org', 'textile', 'rdoc', 'pod',
]);
/** Files without an extension that are documents by convention (any case; `README`, `LICENSE`, ...). */
const PROSE_NAMES = new Set([
  'readme', 'license', 'licence', 'copying', 'authors', 'contributors', 'changelog', 'changes', 'news',
  'notice', 'history', 'install', 'todo', 'contributing', 'thanks', 'credits',
]);

/**
 * Whether a file is prose, by its name alone (the same answer on every machine and in the index,
 * before a byte is read): a prose extension, or a conventional document name without one. Other
 * files without an extension (scripts, Makefile, stdin) rank as code, as before.
 */
export function isProsePath(path: string): boolean {
  const file = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1).toLowerCase();
  const dot = file.lastIndexOf('.');
  if (dot > 0) return PROSE_EXTENSIONS.has(file.slice(dot + 1));
  return PROSE_NAMES.has(file);
}

/** What the whole prose file tells its lines' BM25: each plan term's idf, and the mean line length. */
export interface ProseStats {
  /** Lucene's idf per plan term, over the file's non-blank lines as documents. */
  idf: number[];
  /**
   * What BM25 is mapped to 0..1 against: the idf sum the query's terms would have if each were in one
   * line only. A line holding each term once, each rare in the file, scores about 0.5; terms found in
   * every line score near 0, so files rank against each other on one scale (a file that repeats the
   * query's words in every line does not crowd out the one line elsewhere that holds them).
   */
  norm: number;
  /** Mean length (UTF-16 units) of the non-blank lines. */
  avgChars: number;
  /** The idf of each of the query's grams (plan.prose.grams) over the same lines, and their `norm`. */
  gramIdf: number[];
  gramNorm: number;
}

/**
 * A prose file's document frequencies are counted over its first lines, up to this many lines or
 * characters, whichever comes first (a longer file's later lines are ranked with them), so the
 * pipeline holds a bounded part of a file back until its statistics are known (6,000 lines of 16 KB
 * held whole cost +300 MB of memory).
 */
export const PROSE_DF_LINES = 50_000;
export const PROSE_DF_CHARS = 4 << 20;

/**
 * BM25's k1 and b for prose lines: a line is one sentence, where a word said twice rarely means more
 * (a low k1 saturates early) and length says less than across pages (a low b). Chosen on the first 40
 * question ids of the prose dev set with the gram field below (k1 0.4-0.9 and b 0.3-0.5 within 0.003
 * there; Lucene's 1.2 / 0.75 0.006 lower), checked on the next 40 (docs/models.md).
 */
export const PROSE_K1 = 0.6;
export const PROSE_B = 0.5;

/**
 * BM25 of one line (lengths in characters) with the file's statistics; `tf` holds the line's term
 * counts (the terms in `touched`, summed in plan order so every path adds the same floats).
 */
export function proseBm25(tf: Float64Array, touched: number[], length: number, s: ProseStats): number {
  const norm = PROSE_K1 * (1 - PROSE_B + (PROSE_B * length) / s.avgChars);
  let sum = 0;
  touched.sort((a, b) => a - b);
  for (const t of touched) {
    const f = tf[t];
    if (f > 0) sum += s.idf[t] * (f * (PROSE_K1 + 1)) / (f + norm);
  }
  return sum;
}

/**
 * How many lines on each side of a prose line form its window (the lines around it that its score also
 * reads): pieces of a prose file carry at least this many context lines (pipeline.ts).
 */
export const PROSE_WINDOW_LINES = 1;

/**
 * Weight of a prose line's window beside the line itself in its lexical score. The window is the line
 * with the line just before and just after it, one BM25 over their words together (the file's df, the
 * window's length against 3 mean lines): a line that holds the question's words in the company of the
 * lines around it that hold the others (a sentence continuing the one that names the subject: "It
 * was built by ...") is likelier the passage asked about. Only a line holding a query term itself gets
 * its window's score: a line with none is not lifted by its neighbours (it would list the lines
 * around every match), so what bounds a line without a term is unchanged (proseTermlessBound). A
 * blank neighbour adds nothing: a window does not reach across a paragraph break. Chosen on the first
 * 40 question ids of the prose dev set (bench/prose/context-probe.ts: weights 0.3-0.5 within 0.002
 * there; lifting lines without a term as well scored the same there and 0.001-0.004 more on the later
 * samples; a 2-line window won there by 0.016 and lost on both later samples), checked on the next
 * 40 and 40 (docs/models.md).
 */
export const PROSE_CONTEXT = 0.5;

/** BM25 of a prose line's window: the summed term counts of its lines, `chars` the window's length. */
export function proseWindowBm25(tf: Float64Array, touched: number[], chars: number, s: ProseStats): number {
  return proseBm25(tf, touched, chars / (2 * PROSE_WINDOW_LINES + 1), s);
}

/**
 * Weight of a prose line's grams (lexical/grams.ts: runs of 3 code points inside its words) beside its
 * words in its lexical score: a second BM25, over the grams of the query's words, with the file's df.
 * It reads a word's other forms (Arabic's attached article and conjunctions, German, Hindi and
 * Spanish endings) where the whole words differ, the same rule in every script. Only a line that holds
 * a query term gets it (as its window), so what bounds a line without one is unchanged. Chosen on the
 * first 40 question ids of the prose dev set (0.4-0.6 within 0.002 there; +0.03 mean MRR@10 with
 * PROSE_K1 and PROSE_B, Arabic +0.07, Hindi +0.07), checked on the next 40 (docs/models.md).
 */
export const PROSE_GRAMS = 0.5;

/** A line's grams among the plan's (ascending indices of plan.prose.grams) and how often it holds each. */
export interface LineGrams { grams: number[]; gramCounts: number[] }

/** A line's plan terms (ascending) and how often it holds each, with its grams; null when it holds no term. */
export type LineTerms = ({ terms: number[]; counts: number[] } & LineGrams) | null;

/**
 * How many terms a prose line's BM25 counts (its own and its window's: the indices of LineTerms.terms and
 * ProseStats.idf): the plan's terms, then the query's numbers (plan.prose.numbers; lexical/words.ts
 * textNumbers). A bare number is no word (code's line numbers and hex would flood BM25), but in a
 * document the year or count a question names is in the line that answers it: on the prose dev set the
 * numbers as terms take the default from 0.775 / 0.864 / 0.791 to 0.777 / 0.864 / 0.797 mean MRR@10 on
 * question ids 0-39 / 40-79 / 80-279, no language lower (bench/prose/sent-variants.ts `num-all`,
 * docs/models.md). They are terms like the others: a line that holds only a number holds a term.
 */
export function proseTermCount(plan: RankPlan): number {
  return plan.terms.length + (plan.prose?.numbers.length ?? 0);
}

/** Counts the plan's numbers a line holds into `tf` at their term indices (proseTermCount), noting new ones in `touched`. */
export function countNumbers(line: string, plan: RankPlan, tf: Float64Array, touched: number[]): void {
  const numbers = plan.prose?.numbers;
  if (!numbers || numbers.length === 0) return;
  const first = plan.terms.length;
  for (const n of textNumbers(line)) {
    const k = numbers.indexOf(n);
    if (k < 0) continue;
    if (tf[first + k] === 0) touched.push(first + k);
    tf[first + k]++;
  }
}

/** A line's LineTerms (countTerms and countNumbers; `tf` and `touched` are scratch, left zeroed and empty). */
export function lineTerms(line: string, plan: RankPlan, tf: Float64Array, touched: number[]): LineTerms {
  touched.length = 0;
  countTerms(line, plan, tf, touched);
  countNumbers(line, plan, tf, touched);
  if (touched.length === 0) return null;
  touched.sort((a, b) => a - b);
  const counts = touched.map((t) => tf[t]);
  for (const t of touched) tf[t] = 0;
  const terms = touched.slice();
  touched.length = 0;
  return { terms, counts, ...lineGrams(line, plan) };
}

/**
 * Each line's LineTerms (lineTerms), in a list made by push: the kind of the prose counter's rows, which
 * lineLexical reads as well. `lines.map(...)` made packed or holey lists, by whether V8 had compiled `map`
 * there, and lineLexical's code, compiled for one, was dropped at the other ("wrong map", branch jit35).
 */
export function linesTerms(lines: readonly string[], plan: RankPlan, tf: Float64Array, touched: number[]): LineTerms[] {
  const out: LineTerms[] = [];
  for (const line of lines) out.push(lineTerms(line, plan, tf, touched));
  return out;
}

/** Keyed by the plan's grams list, which a plan made again for the same query shares. */
const gramIndexes = new WeakMap<readonly string[], Map<number | string, number>>();

/**
 * A plan's grams list by gram key (gramKey): each gram's index in the list, made once per list. Set one
 * by one, not from `[key, i]` pairs: a pair whose key is past V8's small integers (most gram keys) is an
 * array of doubles, so every index came out a boxed double, and so did every gram list and scratch list
 * fed from them (run grams, the prose counter's touched lists, by their allocation sites); V8 compiled
 * the prose counter's loops for one kind and dropped them at the other ("wrong map" in asciiLineTerms
 * and countRun, branch jit35). The same numbers either way.
 */
export function gramIndexOf(list: readonly string[]): Map<number | string, number> {
  let index = gramIndexes.get(list);
  if (!index) {
    index = new Map();
    for (let i = 0; i < list.length; i++) index.set(gramKey(list[i]), i);
    gramIndexes.set(list, index);
  }
  return index;
}

/** The plan's grams a line holds (ascending) and how often (textGrams of the line). */
export function lineGrams(line: string, plan: RankPlan): LineGrams {
  const list = plan.prose?.grams ?? [];
  if (list.length === 0) return { grams: [], gramCounts: [] };
  const index = gramIndexOf(list);
  const found = new Map<number, number>();
  const map = index;
  forEachGram(line, (g) => {
    const i = map.get(g);
    if (i !== undefined) found.set(i, (found.get(i) ?? 0) + 1);
  });
  const grams = [...found.keys()].sort((a, b) => a - b);
  return { grams, gramCounts: grams.map((g) => found.get(g)!) };
}

/**
 * The lexical score (proseLexical) of line `i` among consecutive lines of one file: `rows` their
 * LineTerms, `length(j)` the length of line j; its window is clipped to the lines given (a piece's
 * context lines, or the whole file). The workers and a file's best-line bound (prose-counter.ts) both
 * call it, so they add the same floats. `tf` and `touched` are scratch.
 */
export function lineLexical(rows: LineTerms[], length: (j: number) => number, i: number, s: ProseStats, tf: Float64Array, touched: number[]): number {
  const own = rows[i];
  if (!own) return 0;
  const lo = Math.max(0, i - PROSE_WINDOW_LINES);
  const hi = Math.min(rows.length - 1, i + PROSE_WINDOW_LINES);
  let chars = 0;
  for (let j = lo; j <= hi; j++) chars += length(j);
  return proseLexical(bm25Of([own], length(i), s, tf, touched, false), bm25Of(rows.slice(lo, hi + 1), chars, s, tf, touched, true), gramBm25(own, length(i), s), s);
}

/** BM25 of a line's grams (ProseStats.gramIdf; proseBm25's formula, summed in ascending order as it sums). */
export function gramBm25(row: LineGrams, chars: number, s: ProseStats): number {
  const norm = PROSE_K1 * (1 - PROSE_B + (PROSE_B * chars) / s.avgChars);
  let sum = 0;
  row.grams.forEach((g, k) => {
    const f = row.gramCounts[k];
    sum += s.gramIdf[g] * (f * (PROSE_K1 + 1)) / (f + norm);
  });
  return sum;
}

/** BM25 of the summed counts of `rows` (a line, or a window of lines: `window`), `chars` long. */
function bm25Of(rows: LineTerms[], chars: number, s: ProseStats, tf: Float64Array, touched: number[], window: boolean): number {
  touched.length = 0;
  for (const row of rows) {
    if (!row) continue;
    row.terms.forEach((t, k) => { if (tf[t] === 0) touched.push(t); tf[t] += row.counts[k]; });
  }
  const score = window ? proseWindowBm25(tf, touched, chars, s) : proseBm25(tf, touched, chars, s);
  for (const t of touched) tf[t] = 0;
  touched.length = 0;
  return score;
}

/**
 * The lexical score of a prose line, 0..1: its own BM25 and its window's, each over ProseStats.norm,
 * weighted by PROSE_CONTEXT, and its grams' BM25 over gramNorm, weighted by PROSE_GRAMS, added and then
 * saturated once (x / (x + 1)); 0 for a line that holds no term (bm25 0), whatever its neighbours or
 * grams hold. Adding the fields' evidence before the one saturation (as BM25F adds a document's fields'
 * term counts before its saturation) rather than saturating each field and averaging: a line strong in
 * one field is not capped at that field's weight. On the prose dev set every language is level or higher
 * on both samples of ids 0-79 it was chosen on (mean MRR@10 0.772 -> 0.775, 0.859 -> 0.864) and on ids
 * 80-279 (0.787 -> 0.791; bench/prose/loss-probe.ts `comb-sum`, docs/models.md). Increasing in each
 * part, so the bounds built from it (prose-lines.ts, prose-counter.ts) stay bounds.
 */
export function proseLexical(bm25: number, windowBm25: number, gramBm25: number, s: ProseStats): number {
  if (!(s.norm > 0) || !(bm25 > 0)) return 0;
  const words = (1 - PROSE_CONTEXT) * (bm25 / s.norm) + PROSE_CONTEXT * (windowBm25 / s.norm);
  const sum = s.gramNorm > 0 ? (1 - PROSE_GRAMS) * words + PROSE_GRAMS * (gramBm25 / s.gramNorm) : words;
  return sum / (sum + 1);
}

/**
 * Relevance of a prose line: its cosine and its lexical score (proseLexical), weighted by
 * plan.prose.semantic (how much of the query the model knows), plus the path signals.
 */
export function proseRelevance(cosine: number, lexical: number, pathMatch: number, prior: number, plan: RankPlan): number {
  const w = plan.prose?.semantic ?? 0;
  return (w * Math.max(0, cosine) + (1 - w) * lexical + plan.weights.path * pathMatch) * prior;
}

/**
 * The most relevance a prose line that holds no plan term can have, whatever its neighbours hold (its
 * lexical score is 0: proseLexical): (w × 1 + path weight × pathMatch) × prior, a cosine being at most
 * 1. So it bounds every line of a file in which no line holds a term.
 */
export function proseTermlessBound(plan: RankPlan, pathMatch: number, prior: number): number {
  return proseRelevance(1, 0, pathMatch, prior, plan);
}

/** What a line's cosine may exceed 1 by in the kernels' floats (a generous margin: the bound below must hold). */
const COSINE_SLACK = 1e-3;

/**
 * The least distance a prose line of this lexical score (proseLexical) can have, whatever its cosine
 * (at most `cosine`: 1, or a bound on the file's lines' cosines, line-cosines.ts), a little lower for the
 * floats: a line whose best case is farther than the top-k's floor is not tokenized (prose-scoring.ts).
 */
export function proseBestDistance(lexical: number, path: { pathMatch: number; prior: number }, plan: RankPlan, cosine = 1): number {
  return toDistance(proseRelevance(cosine + COSINE_SLACK, lexical, path.pathMatch, path.prior, plan)) * (1 - COSINE_SLACK);
}

/**
 * The least distance any line of the prose file at `path` can have when none of its lines holds a plan
 * term: proseTermlessBound in distance (with its lines' cosines at most `cosine`), a little lower for the
 * floats. Infinity when such a line cannot score at all (no weight on the cosine: lexical mode, or a query
 * the model knows no word of): prose-scoring.ts writes nothing for it. `signals`: the path's for the plan, if known.
 */
export function termlessProseDistance(plan: RankPlan, path: string, cosine = 1, signals?: PathSignals): number {
  if (!((plan.prose?.semantic ?? 0) > 0)) return Infinity;
  return proseBestDistance(0, signals ?? pathSignals(path, plan), plan, cosine);
}
