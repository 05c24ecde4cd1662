// A prose file's lines counted, in order, into the statistics its lines' BM25 takes (rank/prose.ts):
// each plan term's document frequency over the file's lines, and what bounds its best line.
import { isAscii } from './lexical/words.js';
import type { RankPlan } from './plan.js';
import { lineGrams, lineLexical, lineTerms, PROSE_DF_CHARS, PROSE_DF_LINES, type LineTerms, type ProseStats } from './prose.js';
import { MANY_TERMS, probeOf } from './term-index.js';

/**
 * Which of these lines hold a term's probe (1), found in one pass over their text: countTerms' ASCII
 * path counts only identifiers around a probe, so a line without one holds no term and is not counted
 * line by line. Null (count every line) when the text is not ASCII or the query has many terms.
 */
function linesWithProbes(lines: string[], plan: RankPlan): Uint8Array | null {
  if (plan.terms.length > MANY_TERMS) return null;
  const probes = plan.terms.map(probeOf);
  if (probes.some((p) => p === '')) return null;
  return linesHolding(lines, probes);
}

/**
 * Which of these ASCII lines hold one of the strings (lower-case) in their lower-cased text: a line's
 * grams are pieces of its lower-cased words, so a line without a gram's text holds no gram. Null (look
 * at every line) when the text is not ASCII or there are too many strings to look for.
 */
function linesWithGrams(lines: string[], plan: RankPlan): Uint8Array | null {
  const grams = plan.prose?.grams ?? [];
  return grams.length > 4 * MANY_TERMS ? null : linesHolding(lines, grams);
}

function linesHolding(lines: string[], probes: string[]): Uint8Array | null {
  if (lines.length < 2) return null;
  const text = lines.join('\n');
  if (!isAscii(text)) return null;
  const lower = text.toLowerCase();
  const ends = new Int32Array(lines.length);
  for (let i = 0, at = 0; i < lines.length; i++) { at += lines[i].length; ends[i] = at; at++; }
  const maybe = new Uint8Array(lines.length);
  for (const probe of probes) {
    let line = 0;
    for (let p = lower.indexOf(probe); p >= 0; p = lower.indexOf(probe, p + 1)) {
      while (ends[line] < p) line++;
      maybe[line] = 1;
    }
  }
  return maybe;
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
    const grams = this.gramDf.length > 0 ? linesWithGrams(lines, this.plan) : new Uint8Array(lines.length);
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
      const lineGramsOf = row ?? (grams && grams[i] === 0 ? null : lineGrams(line, this.plan));
      if (lineGramsOf) for (const g of lineGramsOf.grams) this.gramDf[g]++;
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
    const n = this.docs;
    const idf = Array.from(this.df, (df) => Math.log(1 + (n - df + 0.5) / (df + 0.5)));
    const norm = idf.length * Math.log(1 + (n + 0.5) / 0.5);
    const gramIdf = Array.from(this.gramDf, (df) => Math.log(1 + (n - df + 0.5) / (df + 0.5)));
    const gramNorm = gramIdf.length * Math.log(1 + (n + 0.5) / 0.5);
    return { idf, norm, avgChars: n > 0 ? this.chars / n : 1, gramIdf, gramNorm };
  }
}
