// One enormous line must not cost the search: lines are cut to MAX_LINE_BYTES with a marker, the same
// way whatever the chunking, without copying input that has no long line.
import { describe, expect, it } from 'vitest';
import { LineLimiter, truncationMarker } from '../../../src/text/long-lines.js';
import { LineSplitter } from '../../../src/text/line-splitter.js';
import { decodeLines } from '../../../src/text/decode.js';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

/** The expected result: each line cut on its own. */
function reference(text: string, max: number): string {
  return text.split('\n').map((line) => {
    const b = enc(line);
    if (b.length <= max) return line;
    let cut = max;
    while (cut > 0 && (b[cut] & 0xc0) === 0x80) cut--;
    return dec(b.subarray(0, cut)) + truncationMarker(b.length - cut);
  }).join('\n');
}

function limit(text: string, max: number, chunkBytes: number): string {
  const l = new LineLimiter(max);
  const bytes = enc(text);
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += chunkBytes) out.push(l.push(bytes.subarray(i, i + chunkBytes)));
  out.push(l.end());
  return dec(Buffer.concat(out));
}

describe('LineLimiter', () => {
  const text = ['short', 'x'.repeat(50), 'é'.repeat(30), '', 'ok\r', 'y'.repeat(21), 'tail'.repeat(9)].join('\n');

  it.each([1, 2, 3, 7, 16, 64, 1000])('cuts every line over the limit the same way with %i-byte chunks', (chunkBytes) => {
    expect(limit(text, 20, chunkBytes)).toBe(reference(text, 20));
  });

  it('passes a chunk without long lines through without a copy', () => {
    const chunk = enc('a\nbb\nccc\n');
    expect(new LineLimiter(20).push(chunk)).toBe(chunk);
  });

  it('a 600 MB line without a newline (the run aborted with "Cannot create a string longer than") is held in 16 KiB', () => {
    const s = new LineSplitter({ pieceLines: 2048, contextLines: 3 });
    const mb = new Uint8Array(1 << 20).fill(0x61);
    for (let i = 0; i < 600; i++) expect(s.push(mb)).toEqual([]);
    const [piece, ...rest] = s.end();
    expect(rest).toEqual([]);
    expect(piece.bytes.length).toBeLessThan(17 << 10);
    const [line] = decodeLines(piece.bytes, piece.offsets, 0, 1);
    expect(line).toBe('a'.repeat(16 << 10) + truncationMarker(600 * (1 << 20) - (16 << 10)));
  });
});
