// The token budget: matches go compact (lowest-ranked first) before any is dropped, the estimate never
// passes the budget, and the cut is reported; the compact form names the enclosing definition.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHARS_PER_TOKEN, fitBudget } from '../../../src/output/budget.js';
import { compactOf } from '../../../src/output/compact.js';
import { scoreOf } from '../../../src/rank/score.js';
import type { SearchResult } from '../../../src/rank/windows.js';

const size = (s: string) => s.length;

describe('fitBudget', () => {
  it('keeps everything when it fits, and says nothing was cut', () => {
    const r = fitBudget([{ full: 'aaaa', compact: 'a' }, { full: 'bbbb', compact: 'b' }], 10, size, 0);
    expect(r).toEqual({ kept: ['aaaa', 'bbbb'], cut: { max_tokens: 10, used_tokens: 2, compacted: 0, dropped: 0 } });
  });

  it('compacts the lowest-ranked matches before dropping any', () => {
    const items = [{ full: 'x'.repeat(40), compact: 'x' }, { full: 'y'.repeat(40), compact: 'y' }, { full: 'z'.repeat(40), compact: 'z' }];
    // 50 characters: the first stays full, the other two go compact.
    expect(fitBudget(items, 50 / CHARS_PER_TOKEN, size, 0).kept).toEqual(['x'.repeat(40), 'y', 'z']);
    // 2 characters: all compact, the third dropped.
    expect(fitBudget(items, 2 / CHARS_PER_TOKEN, size, 0)).toMatchObject({ kept: ['x', 'y'], cut: { compacted: 2, dropped: 1 } });
  });

  it('never passes the budget (any items, any budget, any envelope that fits)', () => {
    fc.assert(fc.property(
      fc.array(fc.tuple(fc.string({ maxLength: 400 }), fc.string({ maxLength: 60 })), { maxLength: 40 }),
      fc.integer({ min: 50, max: 3000 }), fc.integer({ min: 0, max: 150 }),
      (pairs, maxTokens, envelope) => {
        const { kept, cut } = fitBudget(pairs.map(([full, compact]) => ({ full, compact })), maxTokens, size, envelope);
        const used = kept.reduce((s, k) => s + k.length, 0) + envelope;
        expect(used).toBeLessThanOrEqual(maxTokens * CHARS_PER_TOKEN);
        expect(cut.used_tokens).toBeLessThanOrEqual(maxTokens);
        expect(kept.length + cut.dropped).toBe(pairs.length);
      },
    ));
  });
});

describe('compactOf', () => {
  const hunk = (lines: string[], start: number, match: number): SearchResult =>
    ({ filename: 'a.ts', lines, start, end: start + lines.length, match_line: match, distance: 0.5, matches: [] });

  it('gives the match line and the nearest definition above it in the hunk', () => {
    const r = hunk(['export function retryUpload(file) {', '  const n = 3;', '  return backoff(upload, n);', '}'], 10, 12);
    expect(compactOf(r)).toEqual({ line: '  return backoff(upload, n);', signature: 'export function retryUpload(file) {' });
  });

  it('has no signature when the match line is itself a definition or none is shown', () => {
    expect(compactOf(hunk(['class Store {', '  x = 1;'], 0, 0))).toEqual({ line: 'class Store {', signature: null });
    expect(compactOf(hunk(['  a = 1;', '  b = 2;'], 0, 1))).toEqual({ line: '  b = 2;', signature: null });
  });
});

describe('scoreOf: one 0..1 scale, higher is better, in every mode', () => {
  it.each([
    ['hybrid', 1 / (1 + 0.5), 0.5], ['semantic', 1 / (1 + 0.8), 0.8], ['lexical', 1 / (1 + 3), 1], ['hybrid', 1, 0],
    ['line', 0.2, 0.8], ['line', 1.4, 0],
  ] as const)('%s at distance %f scores %f', (mode, distance, score) => {
    expect(scoreOf(distance, mode)).toBeCloseTo(score, 4);
  });

  it('is monotonic: a smaller distance never scores lower', () => {
    fc.assert(fc.property(fc.double({ min: 0.01, max: 1, noNaN: true }), fc.double({ min: 0.01, max: 1, noNaN: true }), (a, b) => {
      if (a <= b) expect(scoreOf(a)).toBeGreaterThanOrEqual(scoreOf(b));
    }));
  });
});
