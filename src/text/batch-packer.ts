// Packs pieces from many files into one contiguous batch, so small files share a worker round trip.
import type { Piece } from './line-splitter.js';

/** Where a piece sits inside a batch (main-thread bookkeeping; never sent to workers). */
export interface Segment {
  /**
   * The piece itself: its bytes are what hit windows are decoded from, since the batch's own bytes
   * may be moved to a worker thread (pool.ts) and are gone from this thread once sent.
   */
  piece: Piece;
  fileIndex: number;
  firstLine: number;
  /** Batch line range of the piece [from, to), and its scored sub-range. */
  from: number;
  to: number;
  scoreFrom: number;
  scoreTo: number;
}

export interface Batch {
  /** The pieces' bytes one after the other, in a buffer of their own (the pool moves it to a worker). */
  bytes: Uint8Array;
  /** Line starts plus the final end (length = lines + 1). */
  offsets: Uint32Array;
  /** Pairs [from, to) of batch lines to score. */
  scoreRanges: Uint32Array;
  segments: Segment[];
  scoredLines: number;
}

export interface BatchPackerOptions { batchLines: number; maxBatchBytes: number }

export class BatchPacker {
  private pieces: { piece: Piece; fileIndex: number }[] = [];
  private lines = 0;
  private bytes = 0;
  private scored = 0;

  constructor(private readonly opts: BatchPackerOptions) {}

  /** Adds a piece; returns a full batch when the limits are reached. */
  add(piece: Piece, fileIndex: number): Batch | null {
    this.pieces.push({ piece, fileIndex });
    this.lines += piece.offsets.length - 1;
    this.bytes += piece.bytes.length;
    this.scored += piece.scoreTo - piece.scoreFrom;
    if (this.scored >= this.opts.batchLines || this.bytes >= this.opts.maxBatchBytes) return this.flush();
    return null;
  }

  flush(): Batch | null {
    if (this.pieces.length === 0) return null;
    const bytes = new Uint8Array(this.bytes);
    const offsets = new Uint32Array(this.lines + 1);
    const scoreRanges = new Uint32Array(this.pieces.length * 2);
    const segments: Segment[] = [];
    let byteAt = 0;
    let lineAt = 0;
    this.pieces.forEach(({ piece, fileIndex }, k) => {
      bytes.set(piece.bytes, byteAt);
      const n = piece.offsets.length - 1;
      for (let i = 0; i < n; i++) offsets[lineAt + i] = byteAt + piece.offsets[i];
      segments.push({
        piece,
        fileIndex,
        firstLine: piece.firstLine,
        from: lineAt,
        to: lineAt + n,
        scoreFrom: lineAt + piece.scoreFrom,
        scoreTo: lineAt + piece.scoreTo,
      });
      scoreRanges[2 * k] = lineAt + piece.scoreFrom;
      scoreRanges[2 * k + 1] = lineAt + piece.scoreTo;
      byteAt += piece.bytes.length;
      lineAt += n;
    });
    offsets[lineAt] = byteAt;
    const batch: Batch = { bytes, offsets, scoreRanges, segments, scoredLines: this.scored };
    this.pieces = [];
    this.lines = this.bytes = this.scored = 0;
    return batch;
  }
}
