// A prose file's lines counted, in order, into the statistics its lines' BM25 takes (rank/prose.ts):
// each plan term's document frequency over the file's lines, and what bounds its best line.
import { isAscii } from './lexical/words.js';
import type { RankPlan } from './plan.js';
import { lineLexical, lineTerms, PROSE_DF_CHARS, PROSE_DF_LINES, type LineTerms, type ProseStats } from './prose.js';
import { MANY_TERMS, probeOf } from './term-index.js';

/**
 * Which of these lines hold a term's probe (1), found in one pass over their text: countTerms' ASCII
 * path counts only identifiers around a probe, so a line without one holds no term and is not counted
 * line by line. Null (count every line) when the text is not ASCII or the query has many terms.
 */
function linesWithProbes(lines: string[], plan: RankPlan): Uint8Array | null {
  if (plan.terms.length > MANY_TERMS || lines.length < 2) return null;
  const probes = plan.terms.map(probeOf);
  if (probes.some((p) => p === '')) return null;
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
    this.tf = new Float64Array(plan.terms.length);
  }

  /** True once PROSE_DF_LINES lines or PROSE_DF_CHARS characters are counted: the statistics are final. */
  get full(): boolean {
    return this.lines >= PROSE_DF_LINES || this.seen >= PROSE_DF_CHARS;
  }

  add(lines: string[]): void {
    const maybe = linesWithProbes(lines, this.plan);
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
    return proseStatsOf(this.df, this.docs, this.chars);
  }
}

/**
 * ProseStats from each plan term's document frequency over `docs` non-blank lines of `chars` characters
 * in all (the counter's, and the index's prose line terms: rank/prose-lines.ts).
 */
export function proseStatsOf(df: ArrayLike<number>, docs: number, chars: number): ProseStats {
  const n = docs;
  const idf = Array.from(df, (d) => Math.log(1 + (n - d + 0.5) / (d + 0.5)));
  const norm = idf.length * Math.log(1 + (n + 0.5) / 0.5);
  return { idf, norm, avgChars: n > 0 ? chars / n : 1 };
}
