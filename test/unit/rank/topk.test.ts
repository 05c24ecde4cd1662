import { describe, expect, it } from 'vitest';
import { TopK } from '../../../src/rank/topk.js';
import { mergeHits, type Hit } from '../../../src/rank/windows.js';

const hit = (path: string, line: number, distance: number, n = 1, total = 100): Hit => {
  const start = Math.max(0, line - n);
  const end = Math.min(total, line + n + 1);
  return { path, line, distance, start, lines: Array.from({ length: end - start }, (_, i) => `${path}:${start + i}`) };
};

describe('TopK', () => {
  it('keeps the k best regardless of arrival order, ties by path then line', () => {
    const hits = [hit('b', 1, 0.5), hit('a', 9, 0.5), hit('a', 2, 0.5), hit('c', 0, 0.1), hit('d', 0, 0.9), hit('a', 1, 0.7)];
    const expected = ['c:0', 'a:2', 'a:9'];
    for (let rot = 0; rot < hits.length; rot++) {
      const t = new TopK<Hit>(3);
      for (const h of [...hits.slice(rot), ...hits.slice(0, rot)]) if (t.accepts(h.distance, h.path, h.line)) t.offer(h);
      expect(t.take().map((h) => `${h.path}:${h.line}`)).toEqual(expected);
    }
  });

  it('is unbounded with an infinite limit', () => {
    const t = new TopK<Hit>(Infinity);
    for (let i = 0; i < 50; i++) t.offer(hit('f', i, 1 - i / 100));
    expect(t.take().length).toBe(50);
  });
});

describe('mergeHits', () => {
  it('merges overlapping and adjacent windows of one file, and orders hunks by best distance', () => {
    const merged = mergeHits([hit('f', 10, 0.4), hit('f', 12, 0.2), hit('f', 15, 0.3), hit('f', 30, 0.1), hit('g', 12, 0.25)]);
    expect(merged.map((r) => [r.filename, r.start, r.end, r.match_line, r.distance, r.matches.map((m) => m.line)])).toEqual([
      ['f', 29, 32, 30, 0.1, [30]],
      ['f', 9, 17, 12, 0.2, [12, 15, 10]],
      ['g', 11, 14, 12, 0.25, [12]],
    ]);
    expect(merged[1].lines).toEqual(Array.from({ length: 8 }, (_, i) => `f:${9 + i}`));
  });
});
