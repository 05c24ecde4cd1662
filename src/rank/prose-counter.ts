// A prose file's lines counted, in order, into the statistics its lines' BM25 takes (rank/prose.ts):
// each plan term's document frequency over the file's lines, and what bounds its best line.
import { Buffer, isAscii as bytesAscii } from 'node:buffer';
import { isAscii } from './lexical/words.js';
import type { RankPlan } from './plan.js';
import { lineGrams, lineLexical, lineTerms, PROSE_DF_CHARS, PROSE_DF_LINES, proseTermCount, type LineTerms, type ProseStats } from './prose.js';
import { asciiLineTerms, runScratch, type RunScratch } from './prose-run-terms.js';
import { anyOf, needlesPattern, probeOf } from './term-index.js';

/** line.trim() === '', without making a string for a line that starts with a visible ASCII character. */
export function isBlank(line: string): boolean {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c > 32 && c < 127) return false;
    if (c > 32) return line.trim() === '';
  }
  return line.trim() === '';
}

/** Lines whose terms a counter looked for, over the thread's life (tests: a probed count passes over most). */
let termLines = 0;
export function proseTermLines(): number {
  return termLines;
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
  private scratch: RunScratch | null = null;
  /**
   * Non-blank ASCII lines the probe passed over (their grams not counted): while none is, the counter's
   * statistics and rows are exactly a whole count's (ProseFile reuses them instead of counting again).
   */
  passed = 0;

  /**
   * `probe` (proseLineProbe): a counter that counts only the ASCII lines holding one of the plan's probes,
   * the others taken as lines without a term (which they are) and without grams (which they may hold):
   * each term's document frequency, the lines and their lengths come out exact, each gram's document
   * frequency at most its own, so bestLexical is at least the file's (a bound, not its statistics).
   */
  constructor(private readonly plan: RankPlan, readonly probe: ((line: string) => boolean) | null = null) {
    this.df = new Float64Array(proseTermCount(plan));
    this.gramDf = new Float64Array(plan.prose?.grams.length ?? 0);
    this.tf = new Float64Array(proseTermCount(plan));
  }

  /** True once PROSE_DF_LINES lines or PROSE_DF_CHARS characters are counted: the statistics are final. */
  get full(): boolean {
    return this.lines >= PROSE_DF_LINES || this.seen >= PROSE_DF_CHARS;
  }

  add(lines: string[]): void {
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      if (this.full) return;
      this.lines++;
      this.seen += line.length;
      this.lengths.push(line.length);
      if (isBlank(line)) { this.rows.push(null); continue; }
      let row: LineTerms;
      let held: number[] | undefined;
      // A line of ASCII text is counted by its identifier runs, in one pass whatever the plan's length
      // (a search per term cost a pass per term: 24 for a pasted file); others word by word.
      if (isAscii(line)) {
        if (this.probe && !this.probe(line)) {
          this.rows.push(null);
          this.passed++;
          this.docs++;
          this.chars += line.length;
          continue;
        }
        termLines++;
        const found = asciiLineTerms(line, this.plan, this.scratch ??= runScratch(this.plan));
        row = found.row;
        held = found.grams;
      } else {
        termLines++;
        row = lineTerms(line, this.plan, this.tf, this.touched);
        held = row ? row.grams : lineGrams(line, this.plan).grams;
      }
      this.rows.push(row);
      this.docs++;
      this.chars += line.length;
      if (row) for (const t of row.terms) this.df[t]++;
      // Every line's grams count in their df, a line without a term too (its grams are not kept).
      if (held) for (const g of held) this.gramDf[g]++;
    }
  }

  /**
   * A probed count of lines [from, to) of a batch (decode.ts decodeLines' lines) when their bytes are ASCII:
   * what add() counts of those lines, each line's length and blankness read from its bytes and its probes
   * found by one search of the range, so only the lines holding one are made strings. False (nothing
   * counted) for a counter without a probe or bytes that are not all ASCII: add() counts them.
   */
  addAscii(bytes: Uint8Array, offsets: Uint32Array, from: number, to: number): boolean {
    const probeAll = this.probe ? globalProbe(this.plan) : null;
    if (!probeAll || to <= from) return false;
    const base = offsets[from];
    const range = bytes.subarray(base, offsets[to]);
    if (!bytesAscii(range)) return false;
    const text = Buffer.from(range.buffer, range.byteOffset, range.byteLength).toString('latin1');
    probeAll.lastIndex = 0;
    let hit = probeAll.exec(text)?.index ?? Infinity;
    for (let i = from; i < to; i++) {
      if (this.full) return true;
      const start = offsets[i] - base;
      let end = offsets[i + 1] - base;
      // decodeLines' line: its \n and then one \r cut.
      if (end > start && range[end - 1] === 10) end--;
      if (end > start && range[end - 1] === 13) end--;
      const length = end - start;
      this.lines++;
      this.seen += length;
      this.lengths.push(length);
      if (asciiBlank(range, start, end)) { this.rows.push(null); continue; }
      this.docs++;
      this.chars += length;
      // A probe found before this line's end lies in it (none holds a line break): the next search from the next line.
      if (hit >= end) { this.rows.push(null); this.passed++; continue; }
      termLines++;
      const found = asciiLineTerms(text.slice(start, end), this.plan, this.scratch ??= runScratch(this.plan));
      this.rows.push(found.row);
      if (found.row) for (const t of found.row.terms) this.df[t]++;
      for (const g of found.grams) this.gramDf[g]++;
      probeAll.lastIndex = offsets[i + 1] - base;
      hit = probeAll.exec(text)?.index ?? Infinity;
    }
    return true;
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

/** isBlank of an ASCII line's bytes [start, end): only JavaScript's white space (tab, line breaks, space) in it. */
function asciiBlank(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = bytes[i];
    if (c !== 32 && (c < 9 || c > 13)) return false;
  }
  return true;
}

/** A plan's line probes (proseLineProbe) and the same as one global regular expression (addAscii), by plan. */
const probes = new WeakMap<RankPlan, { line: ((line: string) => boolean) | null; all: RegExp | null }>();

/** Past this many probes a line tested against them all costs about what counting it does (a pasted block's plan). */
export const PROBED_MAX = 24;

function probesOf(plan: RankPlan): { line: ((line: string) => boolean) | null; all: RegExp | null } {
  let p = probes.get(plan);
  if (!p) {
    const needles = [...new Set([...plan.terms.map(probeOf), ...(plan.prose?.numbers ?? [])])];
    const few = needles.length <= PROBED_MAX;
    const all = few && needles.length > 0 && needles.every((n) => n.length > 0) ? new RegExp(needlesPattern(needles), 'gi') : null;
    p = { line: few ? anyOf(needles, true) : null, all };
    probes.set(plan, p);
  }
  return p;
}

/**
 * Whether an ASCII line may hold one of the plan's prose terms: it holds the probe of a term (term-index.ts
 * probeOf: a whole term's key, a part term's key less its last letter, which every word stemming to it
 * holds) or one of the query's numbers, in any case of its letters. A line without one holds no term
 * (asciiLineTerms finds none in it). null for a plan of more than PROBED_MAX probes.
 */
export function proseLineProbe(plan: RankPlan): ((line: string) => boolean) | null {
  return probesOf(plan).line;
}

/** proseLineProbe's probes as one regular expression, global, in any case of ASCII letters (null: none, or an empty one). */
function globalProbe(plan: RankPlan): RegExp | null {
  return probesOf(plan).all;
}

/**
 * ProseStats from each plan term's and each plan gram's document frequency over `docs` non-blank lines
 * of `chars` characters in all (the counter's, and the index's prose line terms: rank/prose-lines.ts).
 */
export function proseStatsOf(df: ArrayLike<number>, gramDf: ArrayLike<number>, docs: number, chars: number): ProseStats {
  const n = docs;
  // The idf of a term no line holds (and each norm's unit): the same float idfOf gives for a df of 0.
  const none = Math.log(1 + (n + 0.5) / 0.5);
  const idf = idfOf(df, n, none);
  const norm = idf.length * none;
  const gramIdf = idfOf(gramDf, n, none);
  const gramNorm = gramIdf.length * none;
  return { idf, norm, avgChars: n > 0 ? chars / n : 1, gramIdf, gramNorm };
}

/** Lucene's idf of each document frequency over n documents (a loop: a search takes it for every kept document). */
function idfOf(df: ArrayLike<number>, n: number, none: number): number[] {
  const out = new Array<number>(df.length);
  for (let i = 0; i < df.length; i++) out[i] = df[i] === 0 ? none : Math.log(1 + (n - df[i] + 0.5) / (df[i] + 0.5));
  return out;
}
