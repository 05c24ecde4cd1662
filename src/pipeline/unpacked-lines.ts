// A file's lines read and not yet packed to be scored: the complete lines its splitter holds until a piece is
// full, and the pieces it emitted that wait their turn to be packed. A --timeout inside the file (a held pipe's
// last lines) takes up to a batch of them (its lines and its bytes), to be scored and counted with the file's
// packed lines (trust44: they were neither).
import type { LineSplitter, Piece } from '../text/line-splitter.js';

export class UnpackedLines {
  private queued: Piece[] = [];
  private at = 0;

  constructor(private readonly splitter: LineSplitter) {}

  /** The splitter's pieces, to be packed one at a time (next()). */
  queue(pieces: Piece[]): void {
    this.queued = pieces;
    this.at = 0;
  }

  next(): Piece | undefined {
    return this.at < this.queued.length ? this.queued[this.at++] : undefined;
  }

  /**
   * The file cut short: the pieces queued and not yet taken, then the splitter's complete lines (a last line
   * without its newline is none), in order, as many as fit in one batch: `maxLines` lines to score and `maxBytes`
   * bytes (a piece's bytes, its context included, as the packer counts them). A file read whole (up to 8 MiB in
   * one push) is not scored to its end after the deadline: each file cut adds at most one batch to what the
   * deadline's flush scores (mend44: 2,048 lines of ~4,000 bytes were the whole 8 MiB, eight batches a file). The
   * pieces from the first that does not fit on are not taken (a piece cut at 1 MiB of long lines, with its
   * context, is more than a batch's bytes: none of such a file's queued lines are).
   */
  take(maxLines: number, maxBytes: number): Piece[] {
    const out: Piece[] = [];
    let lines = 0;
    let bytes = 0;
    const fits = (piece: Piece): boolean => {
      lines += piece.scoreTo - piece.scoreFrom;
      bytes += piece.bytes.length;
      if (lines > maxLines || bytes > maxBytes) return false;
      out.push(piece);
      return true;
    };
    const queued = this.queued.slice(this.at);
    this.queue([]);
    const cut = this.splitter.cut();
    for (const piece of queued) if (!fits(piece)) return out;
    for (const piece of cut) if (!fits(piece)) return out;
    return out;
  }
}
