// Property tests (fast-check) for line splitting and decoding of outside bytes: however a file's bytes
// arrive in chunks and whatever the piece sizes, every line is scored once, in order, with the text a
// whole-file decode gives it (lossy UTF-8, CR before LF dropped, a BOM kept as U+FEFF: openText drops
// the file's own before splitting).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeLines } from '../../../src/text/decode.js';
import { LineSplitter, type LineSplitterOptions } from '../../../src/text/line-splitter.js';

/** Bytes that stress the splitter and the decoder: newlines, CRs, BOMs, multi-byte and broken UTF-8. */
const PIECES = [[10], [13], [13, 10], [0xef, 0xbb, 0xbf], [0xc3, 0xa9], [0xe2, 0x82, 0xac], [0xf0, 0x9f, 0x98, 0x80], [0xc3], [0xe2, 0x82], [0xff], [0x80], [0x61], [0x20]];
const fileBytes = fc.array(fc.oneof(
  { arbitrary: fc.constantFrom(...PIECES), weight: 4 },
  { arbitrary: fc.uint8Array({ maxLength: 6 }).map((a) => [...a]), weight: 1 },
), { maxLength: 80, size: 'medium' })
  .map((parts) => Uint8Array.from(parts.flat()));

const options: fc.Arbitrary<LineSplitterOptions> = fc.record({
  pieceLines: fc.integer({ min: 1, max: 9 }),
  contextLines: fc.integer({ min: 0, max: 4 }),
  maxPieceBytes: fc.option(fc.integer({ min: 1, max: 64 }), { nil: undefined }),
  alignLines: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
});

/** Cut points (sorted, distinct) into `length` bytes. */
const chunking = (length: number) => fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, length - 1) }), { maxLength: 12 })
  .map((cuts) => cuts.filter((c) => c < length).sort((a, b) => a - b));

/** [file line number, text] of every scored line. */
function scoredLines(bytes: Uint8Array, cuts: number[], opts: LineSplitterOptions): Array<[number, string]> {
  const s = new LineSplitter(opts);
  const bounds = [0, ...cuts, bytes.length];
  const pieces = [];
  for (let i = 0; i + 1 < bounds.length; i++) pieces.push(...s.push(bytes.slice(bounds[i], bounds[i + 1])));
  pieces.push(...s.end());
  return pieces.flatMap((p) => decodeLines(p.bytes, p.offsets, p.scoreFrom, p.scoreTo).map((text, i): [number, string] => [p.firstLine + p.scoreFrom + i, text]));
}

/** The reference: decode the whole file at once, split at LF, drop one CR before each LF. */
function wholeFileLines(bytes: Uint8Array): Array<[number, string]> {
  if (bytes.length === 0) return [];
  const lines = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes).split('\n');
  if (bytes[bytes.length - 1] === 10) lines.pop();
  return lines.map((l, i) => [i, l.endsWith('\r') ? l.slice(0, -1) : l]);
}

describe('line splitting and decoding (property)', () => {
  // Found by this property: a line starting with a BOM lost it when it was the first line of a piece.
  it('any chunking and any piece sizes give the lines a whole-file decode gives', () => {
    fc.assert(fc.property(fileBytes.chain((b) => fc.tuple(fc.constant(b), chunking(b.length), options)), ([bytes, cuts, opts]) => {
      expect(scoredLines(bytes, cuts, opts)).toEqual(wholeFileLines(bytes));
    }), { numRuns: 400 });
  });
});
