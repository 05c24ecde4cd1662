// Streams a file's bytes into "pieces": runs of at most `pieceLines` lines to score, each carrying up
// to `contextLines` extra lines on both sides so hit windows never need a second read of the file.
// Lines longer than MAX_LINE_BYTES are cut first (long-lines.ts), so memory stays bounded.
import { LineLimiter } from './long-lines.js';

export interface Piece {
  /** Bytes of lines [0, offsets.length - 1) of this piece, terminators included. */
  bytes: Uint8Array;
  /** Start of each line, plus the end of the last one (length = lines + 1). */
  offsets: Uint32Array;
  /** File line number (0-based) of the piece's first line. */
  firstLine: number;
  /** Piece-relative range of the lines to score; the rest is context. */
  scoreFrom: number;
  scoreTo: number;
  /** What the piece's lines are known by: equal keys, equal lines (a resident index's state of the file). */
  key?: string;
  /**
   * The distance of the piece's one scored chunk, known exactly beforehand (a lexical ranking's candidate
   * from the index): its lines are counted only if it is shown (pipeline/scoring.ts).
   */
  distance?: number;
  /**
   * The lexical signals of the piece's one scored chunk, known exactly beforehand (a hybrid ranking's term
   * chunk from the index): with its kept sum's cosine, the chunk's distance without counting its lines,
   * which are counted only if it is shown (embed/chunk-scoring.ts, pipeline/scoring.ts).
   */
  signals?: { lexical: number; symbol: number };
}

export interface LineSplitterOptions {
  pieceLines: number;
  contextLines: number;
  /**
   * A piece is also emitted once this many bytes wait to be scored, ending at a multiple of
   * `alignLines` (chunk boundaries): lines of up to 16 KiB each must not pile up 2,048 to a piece.
   */
  maxPieceBytes?: number;
  alignLines?: number;
}

const NEWLINE = 10;

export class LineSplitter {
  private readonly pieceLines: number;
  private readonly contextLines: number;
  /** Bytes from line `baseLine` onward. */
  private pending: Uint8Array = new Uint8Array(0);
  /** Start offsets (in `pending`) of complete lines, plus the end of the last complete line. */
  private bounds: number[] = [0];
  private baseLine = 0;
  /** File line number of the next line to score. */
  private nextScore = 0;
  private scanFrom = 0;
  private readonly limiter = new LineLimiter();
  private readonly maxPieceBytes: number;
  private readonly alignLines: number;
  /** Cut short (cut()): nothing more is emitted. */
  private over = false;

  constructor(opts: LineSplitterOptions) {
    this.pieceLines = Math.max(1, opts.pieceLines);
    this.contextLines = Math.max(0, opts.contextLines);
    this.maxPieceBytes = opts.maxPieceBytes ?? Infinity;
    this.alignLines = Math.max(1, opts.alignLines ?? 1);
  }

  /** Total number of lines seen so far (complete ones). */
  get linesSeen(): number { return this.baseLine + this.bounds.length - 1; }

  push(raw: Uint8Array): Piece[] {
    if (this.over) return [];
    const chunk = this.limiter.push(raw);
    if (chunk.length === 0) return [];
    this.append(chunk);
    const out: Piece[] = [];
    for (;;) {
      const byLines = this.linesSeen - this.nextScore >= this.pieceLines + this.contextLines ? this.nextScore + this.pieceLines : Infinity;
      const end = Math.min(byLines, this.byteBoundEnd(byLines));
      if (end === Infinity) break;
      out.push(this.emit(end));
    }
    this.compact();
    return out;
  }

  /** Flushes everything left, including a last line without a terminator. */
  end(): Piece[] {
    if (this.over) return [];
    const marker = this.limiter.end();
    if (marker.length > 0) this.append(marker);
    const last = this.bounds[this.bounds.length - 1];
    if (last < this.pending.length) this.bounds.push(this.pending.length);
    const out: Piece[] = [];
    while (this.nextScore < this.linesSeen) {
      out.push(this.emit(Math.min(this.nextScore + this.pieceLines, this.linesSeen)));
    }
    this.baseLine = this.linesSeen;
    this.pending = new Uint8Array(0);
    this.bounds = [0];
    this.scanFrom = 0;
    return out;
  }

  /**
   * The file cut short (a --timeout inside it): its complete lines not yet emitted, as pieces; a last line
   * without its terminator is not a line yet and is left out. Nothing is emitted after.
   */
  cut(): Piece[] {
    if (this.over) return [];
    this.over = true;
    const out: Piece[] = [];
    while (this.nextScore < this.linesSeen) out.push(this.emit(Math.min(this.nextScore + this.pieceLines, this.linesSeen)));
    return out;
  }

  private append(chunk: Uint8Array): void {
    if (this.pending.length === 0) {
      this.pending = chunk;
    } else {
      const joined = new Uint8Array(this.pending.length + chunk.length);
      joined.set(this.pending, 0);
      joined.set(chunk, this.pending.length);
      this.pending = joined;
    }
    const buf = this.pending;
    let at = this.scanFrom;
    for (;;) {
      const nl = buf.indexOf(NEWLINE, at);
      if (nl < 0) break;
      this.bounds.push(nl + 1);
      at = nl + 1;
    }
    this.scanFrom = buf.length;
  }

  /**
   * The first aligned line before `limit` at which the bytes to score reach maxPieceBytes, with its
   * trailing context already seen; Infinity when there is none yet.
   */
  private byteBoundEnd(limit: number): number {
    if (this.maxPieceBytes === Infinity) return Infinity;
    const base = this.bounds[this.nextScore - this.baseLine];
    if (this.bounds[this.bounds.length - 1] - base < this.maxPieceBytes) return Infinity;
    const last = Math.min(limit, this.linesSeen - this.contextLines);
    for (let end = (Math.floor(this.nextScore / this.alignLines) + 1) * this.alignLines; end <= last; end += this.alignLines) {
      if (this.bounds[end - this.baseLine] - base >= this.maxPieceBytes) return end;
    }
    return Infinity;
  }

  /** Emits scored lines [nextScore, scoreEnd) with their context. */
  private emit(scoreEnd: number): Piece {
    const ctxFrom = Math.max(this.baseLine, this.nextScore - this.contextLines);
    const ctxTo = Math.min(this.linesSeen, scoreEnd + this.contextLines);
    const b0 = this.bounds[ctxFrom - this.baseLine];
    const count = ctxTo - ctxFrom;
    const offsets = new Uint32Array(count + 1);
    for (let i = 0; i <= count; i++) offsets[i] = this.bounds[ctxFrom - this.baseLine + i] - b0;
    const piece: Piece = {
      bytes: this.pending.subarray(b0, b0 + offsets[count]),
      offsets,
      firstLine: ctxFrom,
      scoreFrom: this.nextScore - ctxFrom,
      scoreTo: scoreEnd - ctxFrom,
    };
    this.nextScore = scoreEnd;
    return piece;
  }

  /** Drops bytes no future piece can need (before the next piece's leading context). */
  private compact(): void {
    const keepFrom = Math.max(this.baseLine, this.nextScore - this.contextLines);
    const drop = keepFrom - this.baseLine;
    if (drop <= 0) return;
    const cut = this.bounds[drop];
    this.pending = this.pending.slice(cut);
    this.bounds = this.bounds.slice(drop).map((b) => b - cut);
    this.scanFrom -= cut;
    this.baseLine = keepFrom;
  }
}
