// What a --timeout inside a file takes of the lines it read and had not packed (trust44): the complete lines, in
// order, up to a bound; a last line without its newline is not one, and nothing is emitted after the cut.
import { expect, it } from 'vitest';
import { LineSplitter, type Piece } from '../../../src/text/line-splitter.js';
import { UnpackedLines } from '../../../src/pipeline/unpacked-lines.js';

const text = (p: Piece) => Buffer.from(p.bytes.subarray(p.offsets[p.scoreFrom], p.offsets[p.scoreTo])).toString();
const bytes = (s: string) => new TextEncoder().encode(s);

it('takes the complete lines the splitter holds, not the unfinished last one, and ends the splitter', () => {
  const splitter = new LineSplitter({ pieceLines: 4, contextLines: 0 });
  const unpacked = new UnpackedLines(splitter);
  expect(splitter.push(bytes('a\nb\nc\nunfinis'))).toEqual([]);
  const rest = unpacked.take(100, 1 << 20);
  expect(rest.map((p) => [p.firstLine + p.scoreFrom, text(p)])).toEqual([[0, 'a\nb\nc\n']]);
  expect(splitter.push(bytes('hed\nd\n'))).toEqual([]);
  expect(splitter.end()).toEqual([]);
});

it('takes the queued pieces not yet packed first, then the held lines, in order, as many as fit the bound', () => {
  const splitter = new LineSplitter({ pieceLines: 4, contextLines: 0 });
  const unpacked = new UnpackedLines(splitter);
  const lines = Array.from({ length: 14 }, (_, i) => `line ${i}\n`).join('');
  unpacked.queue(splitter.push(bytes(lines))); // pieces of lines 0-3, 4-7, 8-11; 12-13 held
  expect(text(unpacked.next()!)).toBe('line 0\nline 1\nline 2\nline 3\n'); // packed
  // 4 + 4 lines fit 9, the held 2 lines after them would not.
  expect(unpacked.take(9, 1 << 20).map((p) => p.firstLine + p.scoreFrom)).toEqual([4, 8]);
  expect(unpacked.next()).toBeUndefined();
});

// mend44: the bound was lines only, so 2,048 lines of ~4,000 bytes (a file read whole) were eight batches of 1 MiB.
it('takes no more bytes than the bound either: the pieces from the first that would pass it are left', () => {
  const splitter = new LineSplitter({ pieceLines: 4, contextLines: 0 });
  const unpacked = new UnpackedLines(splitter);
  const lines = Array.from({ length: 14 }, (_, i) => `${String(i).padStart(2, '0')} ${'x'.repeat(96)}\n`).join(''); // 100 bytes a line
  unpacked.queue(splitter.push(bytes(lines))); // pieces of lines 0-3, 4-7, 8-11 (400 bytes each); 12-13 held
  // Lines allow all 14; 900 bytes allow two pieces, not the third.
  expect(unpacked.take(100, 900).map((p) => [p.firstLine + p.scoreFrom, p.bytes.length])).toEqual([[0, 400], [4, 400]]);
  expect(unpacked.next()).toBeUndefined();
  expect(splitter.end()).toEqual([]);
});
