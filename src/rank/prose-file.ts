// One prose file on its way through the pipeline: its pieces are held back until its document
// frequencies are counted (the whole file, or its first PROSE_DF_LINES lines), then released with them.
import { decodeLines } from '../text/decode.js';
import type { Piece } from '../text/line-splitter.js';
import type { RankPlan } from './plan.js';
import type { ProseStats } from './prose.js';
import { ProseCounter, proseLineProbe } from './prose-counter.js';
import { proseFileBestDistance } from './prose-lines.js';

/** What a bound from a probed count (ProseCounter's `probe`) is raised by: the float sums' order, as proseReach's margin. */
const PROBED_MARGIN = 1e-9;

export class ProseFile {
  private held: Piece[] = [];
  private counter: ProseCounter;
  /** The file's statistics, once counted: every piece it releases is scored with them. */
  stats: ProseStats | null = null;

  /** True when every line was counted before the statistics were taken (released at the end, not at the cap). */
  private whole = false;

  /**
   * `known`: the file's statistics, when its source keeps them (rank/prose-lines.ts): nothing is held back then.
   * `probed`: count only the lines that may hold a term until the file is whole, for outOfReach's bound
   * (the lines counted again in full for the statistics only if the file is within reach or meets the cap,
   * and the probe passed over one of them).
   */
  constructor(private readonly plan: RankPlan, known?: ProseStats, probed = false) {
    this.counter = new ProseCounter(plan, probed && !known ? proseLineProbe(plan) : null);
    if (known) this.stats = known;
  }

  /**
   * The least distance any line of the file can have, once end() released it whole: its best lexical score
   * (the line's BM25 and its window's) with a cosine of 1 (rank/prose.ts); Infinity when no line can score (no term, no weight on the cosine).
   * 0 (no bound) for a file longer than the counted lines, whose later lines were not counted.
   */
  bestDistance(path: string): number {
    if (!this.whole || !this.stats) return 0;
    return proseFileBestDistance(this.counter.bestLexical(this.stats), path, this.plan);
  }

  /**
   * At most bestDistance once the file is read whole, from a probed count (ProseCounter's `probe`): each
   * term's document frequency and every line's length are exact, each gram's frequency at most its own, so
   * the gram idfs are at least the file's and the best lexical score at least its own. 0 (no bound) where
   * the count was not probed or the statistics are taken already (at the cap).
   */
  probedDistance(path: string): number {
    if (this.stats || !this.counter.probe) return 0;
    const lexical = this.counter.bestLexical(this.counter.stats());
    return proseFileBestDistance(lexical > 0 ? lexical * (1 + PROBED_MARGIN) : 0, path, this.plan);
  }

  /**
   * Whether no line of the file, read whole, can be nearer than `floor` by probedDistance: a file it skips,
   * bestDistance would skip. Call once every piece is pushed, before end().
   */
  outOfReach(path: string, floor: number): boolean {
    return floor < Infinity && this.probedDistance(path) > floor;
  }

  /** The pieces ready to score: none while the statistics are still being counted. */
  push(piece: Piece): Piece[] {
    if (this.stats) return [piece];
    // Score ranges tile the file in order, so these are the file's lines, each counted once.
    if (!this.counter.addAscii(piece.bytes, piece.offsets, piece.scoreFrom, piece.scoreTo)) {
      this.counter.add(decodeLines(piece.bytes, piece.offsets, piece.scoreFrom, piece.scoreTo));
    }
    this.held.push(piece);
    return this.counter.full ? this.release() : [];
  }

  /** At the end of the file: whatever is still held. */
  end(): Piece[] {
    if (this.stats) return [];
    this.whole = true;
    return this.release();
  }

  /**
   * The file cut short by the deadline: `more` (its complete lines read and not yet pushed) counted too, and
   * the pieces held released with the statistics of what was read (the document as far as it came), in order,
   * as many as fit in one batch (`maxLines` lines to score, `maxBytes` bytes): session 44 dropped them, so a
   * prose file the deadline cut before its statistics were taken had none of its lines scored.
   */
  cut(more: Piece[], maxLines: number, maxBytes: number): Piece[] {
    const ready: Piece[] = [];
    for (const piece of more) ready.push(...this.push(piece));
    if (!this.stats) ready.push(...this.release());
    const out: Piece[] = [];
    let lines = 0;
    let bytes = 0;
    for (const piece of ready) {
      lines += piece.scoreTo - piece.scoreFrom;
      bytes += piece.bytes.length;
      if (lines > maxLines || bytes > maxBytes) break;
      out.push(piece);
    }
    return out;
  }

  private release(): Piece[] {
    // A probed count bounds; the statistics the lines are scored with count every line: counted again in
    // full where the probe passed over a line (its grams), reused where it passed over none (non-ASCII text,
    // or every line holding a probe), being then exactly what a whole count gives.
    if (this.counter.probe && this.counter.passed > 0) {
      this.counter = new ProseCounter(this.plan);
      for (const p of this.held) this.counter.add(decodeLines(p.bytes, p.offsets, p.scoreFrom, p.scoreTo));
    }
    this.stats = this.counter.stats();
    const out = this.held;
    this.held = [];
    return out;
  }
}
