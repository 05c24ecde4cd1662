import { describe, expect, it } from 'vitest';
import { extended } from '../../../src/workspace/packed/typed-arrays.js';

describe('extended', () => {
  it('grows in place only from the longest view of its own buffer; older views keep their elements', () => {
    const a = extended(new Float32Array(16).fill(1), 16); // a copy with an eighth more room: 18
    const b = extended(a, 18);
    expect(b.buffer).toBe(a.buffer);
    b.set([5, 6], 16);
    expect(a.length).toBe(16);
    // A second extension of `a` (no longer the longest view) must not write over b's elements.
    const c = extended(a, 18);
    expect(c.buffer).not.toBe(a.buffer);
    c.set([7, 8], 16);
    expect([...b.subarray(16)]).toEqual([5, 6]);
    expect([...c.subarray(16)]).toEqual([7, 8]);
    expect(c.subarray(0, 16).every((x) => x === 1)).toBe(true);
    // Past the room: a copy.
    expect(extended(b, 19).buffer).not.toBe(b.buffer);
  });

  it('copies an array it did not make (it may share a buffer with other data)', () => {
    const shared = new Float32Array(8);
    const view = shared.subarray(0, 4);
    const grown = extended(view, 5);
    expect(grown.buffer).not.toBe(shared.buffer);
    expect(grown.length).toBe(5);
  });
});
