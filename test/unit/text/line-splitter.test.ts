import { describe, expect, it } from 'vitest';
import { LineSplitter, type Piece } from '../../../src/text/line-splitter.js';
import { BatchPacker } from '../../../src/text/batch-packer.js';
import { decodeLines } from '../../../src/text/decode.js';

const enc = (s: string) => new TextEncoder().encode(s);

function split(text: string, pieceLines: number, contextLines: number, chunkBytes: number): Piece[] {
  const s = new LineSplitter({ pieceLines, contextLines });
  const bytes = enc(text);
  const out: Piece[] = [];
  for (let i = 0; i < bytes.length; i += chunkBytes) out.push(...s.push(bytes.subarray(i, i + chunkBytes)));
  out.push(...s.end());
  return out;
}

/** Every scored line, with its file line number and its context, as [line, text, before, after]. */
function scored(pieces: Piece[]) {
  return pieces.flatMap((p) => {
    const lines = decodeLines(p.bytes, p.offsets, 0, p.offsets.length - 1);
    const rows = [];
    for (let i = p.scoreFrom; i < p.scoreTo; i++) rows.push([p.firstLine + i, lines[i], i, lines.length - 1 - i]);
    return rows;
  });
}

describe('LineSplitter', () => {
  const text = Array.from({ length: 23 }, (_, i) => `line ${i}${i % 3 === 0 ? '\r' : ''}`).join('\n');

  it('scores every line exactly once, whatever the chunk size', () => {
    for (const chunk of [1, 2, 7, 64, 100000]) {
      const rows = scored(split(text, 5, 2, chunk));
      expect(rows.map((r) => r[0])).toEqual(Array.from({ length: 23 }, (_, i) => i));
      expect(rows.map((r) => r[1])).toEqual(Array.from({ length: 23 }, (_, i) => `line ${i}`));
    }
  });

  it('gives each scored line its context lines when the file has them', () => {
    const rows = scored(split(text, 4, 3, 5));
    for (const [line, , before, after] of rows) {
      expect(before).toBeGreaterThanOrEqual(Math.min(3, line as number));
      expect(after).toBeGreaterThanOrEqual(Math.min(3, 22 - (line as number)));
    }
  });

  it('ends pieces early at aligned lines once their bytes pass the cap (16 KiB lines piled up 2,048 to a piece: +300 MB RSS)', () => {
    const wide = Array.from({ length: 40 }, (_, i) => `line ${i} ${'w'.repeat(30)}`).join('\n');
    for (const chunk of [1, 9, 100000]) {
      const s = new LineSplitter({ pieceLines: 24, contextLines: 2, maxPieceBytes: 100, alignLines: 4 });
      const bytes = enc(wide);
      const pieces: Piece[] = [];
      for (let i = 0; i < bytes.length; i += chunk) pieces.push(...s.push(bytes.subarray(i, i + chunk)));
      pieces.push(...s.end());
      expect(scored(pieces).map((r) => r[1])).toEqual(wide.split('\n'));
      // Every piece starts its scored lines on a multiple of alignLines (chunk boundaries), and holds few lines.
      for (const p of pieces) expect((p.firstLine + p.scoreFrom) % 4).toBe(0);
      expect(Math.max(...pieces.map((p) => p.scoreTo - p.scoreFrom))).toBeLessThanOrEqual(8);
    }
  });

  it('keeps a last line without a newline, and no phantom line after a final newline', () => {
    expect(scored(split('a\nb', 10, 0, 1)).map((r) => r[1])).toEqual(['a', 'b']);
    expect(scored(split('a\nb\n', 10, 0, 3)).map((r) => r[1])).toEqual(['a', 'b']);
    expect(scored(split('', 10, 0, 3))).toEqual([]);
  });
});

describe('BatchPacker', () => {
  it('packs pieces of several files and maps batch lines back to files', () => {
    const packer = new BatchPacker({ batchLines: 1000, maxBatchBytes: 1 << 20 });
    const a = split('a0\na1\na2\n', 10, 1, 100);
    const b = split('b0\nb1', 10, 1, 100);
    for (const p of a) expect(packer.add(p, 0)).toBeNull();
    for (const p of b) expect(packer.add(p, 1)).toBeNull();
    const batch = packer.flush()!;
    expect(decodeLines(batch.bytes, batch.offsets, 0, 5)).toEqual(['a0', 'a1', 'a2', 'b0', 'b1']);
    expect(batch.segments.map((s) => [s.fileIndex, s.firstLine, s.from, s.to])).toEqual([[0, 0, 0, 3], [1, 0, 3, 5]]);
    expect([...batch.scoreRanges]).toEqual([0, 3, 3, 5]);
    expect(packer.flush()).toBeNull();
  });

  it('flushes when the scored-line budget is reached', () => {
    const packer = new BatchPacker({ batchLines: 3, maxBatchBytes: 1 << 20 });
    const pieces = split('1\n2\n3\n4\n5\n6\n7\n', 2, 0, 100);
    const batches = pieces.map((p) => packer.add(p, 0)).filter(Boolean);
    expect(batches.length).toBe(2);
    expect(batches[0]!.scoredLines).toBe(4);
  });
});

describe('decodeLines', () => {
  it('decodes invalid UTF-8 lossily and strips CR', () => {
    const bytes = new Uint8Array([0x61, 0xff, 0x62, 0x0d, 0x0a, 0x63]);
    expect(decodeLines(bytes, new Uint32Array([0, 5, 6]), 0, 2)).toEqual(['a\ufffdb', 'c']);
  });
});
