// One prose file on its way through the pipeline: its pieces are held back until its document
// frequencies are counted (the whole file, or its first PROSE_DF_LINES lines), then released with them.
import { decodeLines } from '../text/decode.js';
import type { Piece } from '../text/line-splitter.js';
import type { RankPlan } from './plan.js';
import type { ProseStats } from './prose.js';
import { ProseCounter } from './prose-counter.js';
import { proseFileBestDistance } from './prose-lines.js';

export class ProseFile {
  private held: Piece[] = [];
  private readonly counter: ProseCounter;
  /** The file's statistics, once counted: every piece it releases is scored with them. */
  stats: ProseStats | null = null;

  /** True when every line was counted before the statistics were taken (released at the end, not at the cap). */
  private whole = false;

  /** `known`: the file's statistics, when its source keeps them (rank/prose-lines.ts): nothing is held back then. */
  constructor(private readonly plan: RankPlan, known?: ProseStats) {
    this.counter = new ProseCounter(plan);
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
    if (this.stats) return [];
    this.whole = true;
    return this.release();
  }

  private release(): Piece[] {
    this.stats = this.counter.stats();
    const out = this.held;
    this.held = [];
    return out;
  }
}
