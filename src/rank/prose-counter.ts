// A prose file's lines counted, in order, into the statistics its lines' BM25 takes (rank/prose.ts):
// each plan term's document frequency over the file's lines, and what bounds its best line.
import { asciiGramHits } from './lexical/grams.js';
import { isAscii } from './lexical/words.js';
import type { RankPlan } from './plan.js';
import { lineGrams, lineLexical, lineTerms, PROSE_DF_CHARS, PROSE_DF_LINES, type LineTerms, type ProseStats } from './prose.js';
import { probeOf } from './term-index.js';

/** Above this many grams (4 per term of a query's 24), lines are cut one by one rather than found in one pass. */
const MANY_GRAMS = 96;

/**
 * Which of these lines hold a term's probe (1), found in one pass over their text: countTerms' ASCII
 * path counts only identifiers around a probe, so a line without one holds no term and is not counted
 * line by line. Null (count every line) when the text is not ASCII.
 */
function linesWithProbes(lines: string[], plan: RankPlan): Uint8Array | null {
  const probes = plan.terms.map(probeOf);
  if (probes.some((p) => p === '')) return null;
  return linesHolding(lines, probes);
}

function linesHolding(lines: string[], probes: string[]): Uint8Array | null {
  const text = asciiText(lines);
  if (text === null) return null;
  const maybe = new Uint8Array(lines.length);
  const lineOf = lineFinder(lines);
  for (const probe of probes) {
    for (let p = text.indexOf(probe); p >= 0; p = text.indexOf(probe, p + 1)) maybe[lineOf(p)] = 1;
  }
  return maybe;
}

/**
 * The plan's grams each of these lines holds (ascending; undefined: none), found in one pass over their
 * text (asciiGramHits) rather than line by line. Null (cut every line) when the text is not ASCII or
 * the query has many grams.
 */
function gramsByLine(lines: string[], plan: RankPlan): (number[] | undefined)[] | null {
  const grams = plan.prose?.grams ?? [];
  if (grams.length > MANY_GRAMS) return null;
  const text = asciiText(lines);
  if (text === null) return null;
  const held: (number[] | undefined)[] = new Array(lines.length);
  // Grams are looked for in index order, so each line's list comes out ascending.
  const lineOf = lineFinder(lines);
  asciiGramHits(text, grams, (at, g) => {
    const list = (held[lineOf(at)] ??= []);
    if (list[list.length - 1] !== g) list.push(g);
  });
  return held;
}

/** The lines joined by \n and lower-cased, when there are two or more and all are ASCII; else null. */
function asciiText(lines: string[]): string | null {
  if (lines.length < 2) return null;
  const text = lines.join('\n');
  return isAscii(text) ? text.toLowerCase() : null;
}

/** The line (index) of a position in asciiText(lines), by binary search over the lines' ends. */
function lineFinder(lines: string[]): (at: number) => number {
  const ends = new Int32Array(lines.length);
  for (let i = 0, at = 0; i < lines.length; i++) { at += lines[i].length; ends[i] = at; at++; }
  return (at) => {
    let lo = 0;
    let hi = lines.length - 1;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (ends[mid] < at) lo = mid + 1; else hi = mid; }
    return lo;
  };
}

/** Counts a prose file's lines, in order, into its ProseStats. */
export class ProseCounter {
  private readonly df: Float64Array;
  private readonly gramDf: Float64Array;
  private readonly tf: Float64Array;
  private readonly touched: number[] = [];
  private docs = 0;
  private chars = 0;
  lines = 0;
  /** Characters of every counted line, blank ones included (the cap on what is held back). */
  private seen = 0;
  /** The length of every counted line, blank ones included (a window's length: proseWindowBm25). */
  private readonly lengths: number[] = [];
  /** Each counted line's terms (null: none, or blank), for its best line's bound. */
  private readonly rows: LineTerms[] = [];

  constructor(private readonly plan: RankPlan) {
    this.df = new Float64Array(plan.terms.length);
    this.gramDf = new Float64Array(plan.prose?.grams.length ?? 0);
    this.tf = new Float64Array(plan.terms.length);
  }

  /** True once PROSE_DF_LINES lines or PROSE_DF_CHARS characters are counted: the statistics are final. */
  get full(): boolean {
    return this.lines >= PROSE_DF_LINES || this.seen >= PROSE_DF_CHARS;
  }

  add(lines: string[]): void {
    const maybe = linesWithProbes(lines, this.plan);
    const grams = this.gramDf.length > 0 ? gramsByLine(lines, this.plan) : [];
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      if (this.full) return;
      this.lines++;
      this.seen += line.length;
      this.lengths.push(line.length);
      const blank = line.trim() === '';
      const row = blank || (maybe && maybe[i] === 0) ? null : lineTerms(line, this.plan, this.tf, this.touched);
      this.rows.push(row);
      if (blank) continue;
      this.docs++;
      this.chars += line.length;
      if (row) for (const t of row.terms) this.df[t]++;
      // Every line's grams count in their df, a line without a term too (its grams are not kept).
      const held = row ? row.grams : grams ? grams[i] : lineGrams(line, this.plan).grams;
      if (held) for (const g of held) this.gramDf[g]++;
    }
  }

  /**
   * The highest lexical score (proseLexical: the line's BM25 and its window's, as the workers compute
   * them) of a counted line, with the file's statistics. Exact for a file counted whole (every line and
   * both neighbours of each were counted).
   */
  bestLexical(s: ProseStats): number {
    let best = 0;
    for (let i = 0; i < this.rows.length; i++) {
      if (this.rows[i]) best = Math.max(best, lineLexical(this.rows, (j) => this.lengths[j], i, s, this.tf, this.touched));
    }
    return best;
  }

  stats(): ProseStats {
    return proseStatsOf(this.df, this.gramDf, this.docs, this.chars);
  }
}

/**
 * ProseStats from each plan term's and each plan gram's document frequency over `docs` non-blank lines
 * of `chars` characters in all (the counter's, and the index's prose line terms: rank/prose-lines.ts).
 */
export function proseStatsOf(df: ArrayLike<number>, gramDf: ArrayLike<number>, docs: number, chars: number): ProseStats {
  const n = docs;
  const idf = Array.from(df, (d) => Math.log(1 + (n - d + 0.5) / (d + 0.5)));
  const norm = idf.length * Math.log(1 + (n + 0.5) / 0.5);
  const gramIdf = Array.from(gramDf, (d) => Math.log(1 + (n - d + 0.5) / (d + 0.5)));
  const gramNorm = gramIdf.length * Math.log(1 + (n + 0.5) / 0.5);
  return { idf, norm, avgChars: n > 0 ? chars / n : 1, gramIdf, gramNorm };
}
