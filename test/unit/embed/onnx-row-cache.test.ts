// The bounded worker-local row cache: hits, whole-cache eviction, growth for an oversized chunk.
import { describe, expect, it } from 'vitest';
import { createRowCache } from '../../../src/embed/onnx-row-cache.js';

const DIM = 2;
const table = new Float32Array(new SharedArrayBuffer(100 * DIM * 4)).map((_, i) => i);

function chunk(cache: ReturnType<typeof createRowCache>, rows: number[]): number[] {
  cache.beginChunk();
  rows.forEach((r) => cache.note(r));
  cache.reserve();
  return rows.map((r) => cache.slotOf(r));
}

const cachedRows = (cache: ReturnType<typeof createRowCache>) => {
  const { data, rows } = cache.view();
  return Array.from({ length: rows }, (_, s) => data[s * DIM] / DIM);
};

describe('createRowCache', () => {
  it('copies each row once and keeps it across chunks, in a plain (non-shared) buffer', () => {
    const cache = createRowCache({ table, rows: 100, dim: DIM }, { rows: 4 });
    expect(chunk(cache, [7, 3, 7])).toEqual([0, 1, 0]);
    expect(chunk(cache, [3, 9])).toEqual([1, 2]);
    expect(cachedRows(cache)).toEqual([7, 3, 9]);
    expect(cache.view().data.buffer).toBeInstanceOf(ArrayBuffer);
  });

  it('empties itself when a chunk\'s new rows do not fit, then holds every row of that chunk', () => {
    const cache = createRowCache({ table, rows: 100, dim: DIM }, { rows: 4 });
    chunk(cache, [1, 2, 3]);
    // 3 is cached, but after eviction it must be copied again along with 4 and 5.
    expect(chunk(cache, [3, 4, 5])).toEqual([0, 1, 2]);
    expect(cachedRows(cache)).toEqual([3, 4, 5]);
  });

  it('grows for a chunk with more distinct rows than its capacity', () => {
    const cache = createRowCache({ table, rows: 100, dim: DIM }, { rows: 2 });
    expect(chunk(cache, [5, 6, 7, 5])).toEqual([0, 1, 2, 0]);
    expect(cache.capacity).toBe(3);
  });

  it('never holds more rows than the table has', () => {
    expect(createRowCache({ table, rows: 100, dim: DIM }, { rows: 1 << 20 }).capacity).toBe(100);
  });
});
