// Bounds the length of every line before it is buffered: a line longer than MAX_LINE_BYTES keeps its
// first MAX_LINE_BYTES (cut at a UTF-8 boundary) plus a marker saying how much was left out, so one
// enormous line (a minified bundle, a 600 MB file without a newline) costs bounded memory and time.

/** Bytes of one line that are kept, searched and printed. Model2vec reads ~3,000 chars of a line at most. */
export const MAX_LINE_BYTES = 16 << 10;

const NEWLINE = 10;
const encoder = new TextEncoder();

/** The text that replaces the cut-off end of a long line. */
export function truncationMarker(droppedBytes: number): string {
  return ` [… line truncated: ${droppedBytes} more bytes]`;
}

export class LineLimiter {
  /** Bytes of the current line passed through so far. */
  private lineBytes = 0;
  /** Bytes of the current line left out (> 0 while inside a cut line). */
  private dropped = 0;

  constructor(private readonly maxLineBytes = MAX_LINE_BYTES) {}

  /** The chunk with long lines cut; the same buffer (no copy) when no line is too long. */
  push(chunk: Uint8Array): Uint8Array {
    const parts: Uint8Array[] = [];
    // Inside a cut line, nothing is kept until its newline.
    let modified = this.dropped > 0;
    let keepFrom = modified ? chunk.length : 0;
    let at = 0;
    while (at < chunk.length) {
      const nl = chunk.indexOf(NEWLINE, at);
      const end = nl < 0 ? chunk.length : nl;
      if (this.dropped > 0) {
        this.dropped += end - at;
        if (nl >= 0) {
          parts.push(encoder.encode(truncationMarker(this.dropped)));
          this.dropped = 0;
          this.lineBytes = 0;
          keepFrom = nl; // the newline itself is kept
        }
      } else if (this.lineBytes + (end - at) <= this.maxLineBytes) {
        this.lineBytes = nl < 0 ? this.lineBytes + (end - at) : 0;
      } else {
        modified = true;
        const cut = utf8Boundary(chunk, at + (this.maxLineBytes - this.lineBytes), at);
        parts.push(chunk.subarray(keepFrom, cut));
        this.dropped = end - cut;
        if (nl >= 0) {
          parts.push(encoder.encode(truncationMarker(this.dropped)));
          this.dropped = 0;
          this.lineBytes = 0;
          keepFrom = nl;
        } else {
          this.lineBytes = this.maxLineBytes;
          keepFrom = chunk.length;
        }
      }
      at = nl < 0 ? chunk.length : nl + 1;
    }
    if (!modified) return chunk;
    if (keepFrom < chunk.length && this.dropped === 0) parts.push(chunk.subarray(keepFrom));
    return concat(parts);
  }

  /** At the end of the input: the marker of a last line that was cut and had no newline. */
  end(): Uint8Array {
    if (this.dropped === 0) return new Uint8Array(0);
    const marker = encoder.encode(truncationMarker(this.dropped));
    this.dropped = 0;
    this.lineBytes = 0;
    return marker;
  }
}

/** The largest position <= at (and >= floor) that does not split a UTF-8 sequence. */
function utf8Boundary(bytes: Uint8Array, at: number, floor: number): number {
  let i = at;
  while (i > floor && (bytes[i] & 0xc0) === 0x80) i--;
  return i;
}

function concat(parts: Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}
