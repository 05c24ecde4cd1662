// The candidate chunks' lines kept by a process that searches again (the MCP engine, simgrep serve): a
// warm search whose windows an earlier one read takes their lines from here, not from the disk. Kept
// under the index's state of the file (key, size, mtime, hash): a change the index sees is a miss.

import { BoundedLru } from '../../bounded-lru.js';

/** Characters kept in all, with 32 more counted per line for its string: the bench's 40 queries keep ~5 M. */
const KEPT_CHARS = 8 << 20;

/** The lines of one file in one state that searches read: a sparse array, and how far the file was read. */
export interface KeptFileLines {
  lines: (string | undefined)[];
  /** The file's lines [0, extent) were read (those any window needed are in `lines`). */
  extent: number;
  /** The file ends at `extent`. */
  whole: boolean;
}

/** Files' lines by state, least recently used dropped first once over the bound. */
export class KeptLines {
  private readonly files: BoundedLru<KeptFileLines>;

  constructor(limit = KEPT_CHARS) {
    this.files = new BoundedLru(limit);
  }

  /** The kept lines of the file in this state when they hold every line of the windows (to its end), else null. */
  get(state: string, windows: number[][]): KeptFileLines | null {
    const kept = this.files.peek(state)?.value;
    if (!kept) return null;
    for (const [from, to] of windows) {
      for (let line = from; line < to; line++) {
        if (line >= kept.extent) { if (kept.whole) break; return null; }
        if (kept.lines[line] === undefined) return null;
      }
    }
    return this.files.get(state)!;
  }

  /** Keeps the windows' lines of a read (joined with those kept of the same state). */
  set(state: string, read: KeptFileLines, windows: number[][]): void {
    const before = this.files.peek(state);
    const old = before?.value;
    const lines: (string | undefined)[] = old ? old.lines : [];
    let chars = before ? before.size : 64;
    for (const [from, to] of windows) {
      for (let line = from; line < to && line < read.extent; line++) {
        if (lines[line] !== undefined) continue;
        lines[line] = read.lines[line];
        chars += read.lines[line]!.length + 32;
      }
    }
    this.files.delete(state);
    if (chars > this.files.limit / 8) return; // one file's windows would crowd out the others
    this.files.set(state, { lines, extent: Math.max(read.extent, old?.extent ?? 0), whole: read.whole || (old?.whole ?? false) }, chars);
  }
}
