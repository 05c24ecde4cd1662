// Postings merge (renumbering, drops, additions in key order) and float16 rounding at rest.
import { describe, expect, it } from 'vitest';
import { Postings, addPosting } from '../../../src/index/postings.js';
import { FLOAT16_RELATIVE_ERROR, fromFloat16, toFloat16 } from '../../../src/index/float16.js';

const dump = (p: Postings) => p.keys.map((k) => { const [a, b] = p.range(k)!; return [k, [...p.chunk.subarray(a, b)], [...p.count.subarray(a, b)]]; });

describe('Postings', () => {
  it('merges renumbered old entries with additions, dropping emptied keys, keys kept sorted', () => {
    const added = new Map<string, number[]>();
    addPosting(added, 'beta', 0, 2);
    addPosting(added, 'beta', 0, 1);
    addPosting(added, 'alpha', 1, 1);
    const first = Postings.empty().merge(null, added);
    expect(dump(first)).toEqual([['alpha', [1], [1]], ['beta', [0], [3]]]);
    // Chunk 0 dropped, chunk 1 becomes 0; a new chunk 1 adds "gamma" and more "alpha".
    const more = new Map<string, number[]>();
    addPosting(more, 'gamma', 1, 4);
    addPosting(more, 'alpha', 1, 2);
    const second = first.merge(Int32Array.from([-1, 0]), more);
    expect(dump(second)).toEqual([['alpha', [0, 1], [1, 2]], ['gamma', [1], [4]]]);
    expect(second.range('beta')).toBeNull();
  });
});

describe('float16', () => {
  it('round-trips within 2^-11 relative error, and exactly for representable values', () => {
    const xs = Float32Array.from([0, 1, -1, 0.5, 0.1, -0.333, 65504, 6.1e-5, 1e-7, 0.0625]);
    const back = fromFloat16(toFloat16(xs));
    expect([...back.subarray(0, 4)]).toEqual([0, 1, -1, 0.5]);
    for (let i = 0; i < xs.length; i++) {
      if (Math.abs(xs[i]) >= 6.1e-5) expect(Math.abs(back[i] - xs[i])).toBeLessThanOrEqual(Math.abs(xs[i]) * FLOAT16_RELATIVE_ERROR);
      else expect(Math.abs(back[i] - xs[i])).toBeLessThan(1e-7);
    }
  });
});
