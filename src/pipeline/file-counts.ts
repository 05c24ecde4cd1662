// What the stats count of the files a search reads: a file read to its end counts whole; one cut short (the
// deadline, a failed read) counts the lines it packed to be scored and their bytes, together (trust43: --stats
// after a --timeout inside one big file counted its 8 MiB read and none of its lines); cut by the deadline, the
// complete lines it had read and not yet packed are packed then and counted too (trust44).
import type { Piece } from '../text/line-splitter.js';
import type { SearchStats } from './types.js';

/** One file being read: its bytes read, and the lines (and their bytes) packed to be scored. */
export interface FileCount {
  read: number;
  lines: number;
  bytes: number;
  /** Its complete lines read and not yet packed, taken when the deadline cuts it (unpacked-lines.ts). */
  rest?: () => Piece[];
}

/**
 * The files being read. Each is counted once, by the first to end: the file (its whole lines and bytes), its
 * failure, or the deadline (the part packed: every piece packed is scored, in a search cut by its deadline too).
 */
export class FileCounts {
  private readonly open = new Map<number, FileCount>();

  /** `pack`: packs a piece of a file the deadline cut (what the deadline's flush then scores). */
  constructor(private readonly stats: SearchStats, private readonly pack?: (piece: Piece, fileIndex: number) => void) {}

  begin(fileIndex: number, rest?: () => Piece[]): FileCount {
    const c: FileCount = { read: 0, lines: 0, bytes: 0, rest };
    this.open.set(fileIndex, c);
    return c;
  }

  /** Bytes read: counted at once (a search's progress shows them), until the file ends or is cut short. */
  read(c: FileCount, bytes: number): void {
    this.stats.bytes += bytes;
    c.read += bytes;
  }

  /** A piece packed to be scored. */
  packed(c: FileCount, piece: Piece): void {
    c.lines += piece.scoreTo - piece.scoreFrom;
    c.bytes += piece.offsets[piece.scoreTo] - piece.offsets[piece.scoreFrom];
  }

  /** The file read to its end: counted whole, unless it was cut short already (then false: not searched whole). */
  ended(fileIndex: number, lines: number): boolean {
    if (!this.open.delete(fileIndex)) return false;
    this.stats.files++;
    this.stats.lines += lines;
    return true;
  }

  /**
   * The file cut short: the lines it packed and their bytes (its bytes read no longer counted). By the deadline
   * (`byDeadline`), its complete lines read and not yet packed are packed first, and counted with them.
   */
  cut(fileIndex: number, byDeadline = false): void {
    const c = this.open.get(fileIndex);
    if (!c) return;
    this.open.delete(fileIndex);
    if (byDeadline && c.rest && this.pack) {
      for (const piece of c.rest()) { this.pack(piece, fileIndex); this.packed(c, piece); }
    }
    this.stats.lines += c.lines;
    this.stats.bytes += c.bytes - c.read;
  }

  /** Every file under way cut short by the deadline: whatever they pack later is neither scored nor counted. */
  cutAll(): void {
    for (const i of [...this.open.keys()]) this.cut(i, true);
  }

  /** The file is done with (binary, or counted): not counted here. */
  drop(fileIndex: number): void {
    this.open.delete(fileIndex);
  }
}
