// Packing lines into padded chunks over the worker-local row cache.
import { describe, expect, it } from 'vitest';
import { createPacker, paddedLength, sortByLength, type PackedChunk } from '../../../src/embed/onnx-pack.js';
import { isSimgrepError } from '../../../src/errors.js';
import type { TokenizedBatch } from '../../../src/types.js';

const DIM = 3;
const ROWS = 10;
const table = Float32Array.from({ length: ROWS * DIM }, (_, i) => i);
const mapping = Int32Array.from({ length: 20 }, (_, id) => id % ROWS);
const weights = Float32Array.from({ length: 20 }, (_, id) => 1 + id);

function toBatch(lines: number[][]): TokenizedBatch {
  const lineStarts = new Uint32Array(lines.length + 1);
  lines.forEach((l, i) => { lineStarts[i + 1] = lineStarts[i] + l.length; });
  return { ids: Int32Array.from(lines.flat()), lineStarts };
}

describe('sortByLength / paddedLength', () => {
  it('orders lines by token count, stable among equals', () => {
    expect(Array.from(sortByLength(toBatch([[1, 2], [], [3], [4, 5], [6]])))).toEqual([1, 2, 4, 0, 3]);
  });

  it('pads to whole MLAS steps of 4 (a lone 11-token line scored 1 ulp off its batched score)', () => {
    expect([0, 1, 4, 5, 11, 12].map(paddedLength)).toEqual([0, 4, 4, 8, 12, 12]);
  });
});

describe('createPacker', () => {
  const lines = [[1], [], [2, 12, 2], [3, 4, 5, 6, 7, 8, 9], [19, 18], [], [0, 0, 0, 0, 0]];
  const batch = toBatch(lines);

  function collect(maxCells: number, cacheRows = ROWS): PackedChunk[] {
    const packer = createPacker({ table, rows: ROWS, dim: DIM, mapping, weights }, { maxCells, cacheRows });
    const out: PackedChunk[] = [];
    for (const c of packer.chunks(batch)) {
      // Check against the cache right away: the next chunk may evict these rows.
      const { data, rows } = packer.cache.view();
      expect(data.length).toBe(rows * DIM);
      c.lines.forEach((line, b) => {
        const ids = lines[line];
        for (let t = 0; t < c.len; t++) {
          const slot = c.rowIds[b * c.len + t];
          if (t >= ids.length) {
            expect([slot, c.weights[b * c.len + t]]).toEqual([0, 0]);
            continue;
          }
          const row = mapping[ids[t]];
          expect(Array.from(data.subarray(slot * DIM, slot * DIM + DIM))).toEqual([0, 1, 2].map((d) => row * DIM + d));
          expect(c.weights[b * c.len + t]).toBeCloseTo(weights[ids[t]] / ids.length, 6);
        }
      });
      out.push(c);
    }
    return out;
  }

  it('covers every non-empty line once, shortest first, padded to a multiple of 4', () => {
    const chunks = collect(1 << 20);
    expect(chunks).toHaveLength(1);
    expect(Array.from(chunks[0].lines)).toEqual([0, 4, 2, 6, 3]);
    expect(chunks[0].len).toBe(8);
  });

  it('splits so lines x len stays within maxCells; a longer line gets a chunk of its own', () => {
    const chunks = collect(8, 4);
    expect(chunks.map((c) => [Array.from(c.lines), c.len])).toEqual([[[0, 4], 4], [[2], 4], [[6], 8], [[3], 8]]);
  });

  it('rejects a token id outside the table as MODEL_CORRUPT', () => {
    const packer = createPacker({ table, rows: ROWS, dim: DIM }, { maxCells: 64, cacheRows: 4 });
    let error: unknown;
    try { [...packer.chunks(toBatch([[1, ROWS]]))]; } catch (e) { error = e; }
    expect(isSimgrepError(error) && error.code).toBe('MODEL_CORRUPT');
  });
});
