// One prose file on its way through the pipeline: its pieces are held back until its document
// frequencies are counted (the whole file, or its first PROSE_DF_LINES lines), then released with them.
import { decodeLines } from '../text/decode.js';
import type { Piece } from '../text/line-splitter.js';
import type { RankPlan } from './plan.js';
import { ProseCounter, type ProseStats } from './prose.js';

export class ProseFile {
  private held: Piece[] = [];
  private readonly counter: ProseCounter;
  /** The file's statistics, once counted: every piece it releases is scored with them. */
  stats: ProseStats | null = null;

  constructor(plan: RankPlan) {
    this.counter = new ProseCounter(plan);
  }

  /** The pieces ready to score: none while the statistics are still being counted. */
  push(piece: Piece): Piece[] {
    if (this.stats) return [piece];
    // Score ranges tile the file in order, so these are the file's lines, each counted once.
    this.counter.add(decodeLines(piece.bytes, piece.offsets, piece.scoreFrom, piece.scoreTo));
    this.held.push(piece);
    return this.counter.full ? this.release() : [];
  }

  /** At the end of the file: whatever is still held. */
  end(): Piece[] {
    return this.stats ? [] : this.release();
  }

  private release(): Piece[] {
    this.stats = this.counter.stats();
    const out = this.held;
    this.held = [];
    return out;
  }
}
