// A listing that always says "more" with the same continuation token was listed forever: it now
// stops with a message, after the objects it did list.
import { describe, expect, it } from 'vitest';
import { pagedListing } from '../../../../src/sources/remote/object-stream.js';

describe('pagedListing', () => {
  it('stops when the store repeats a continuation token, keeping the objects listed', async () => {
    let calls = 0;
    const got: string[] = [];
    const listing = pagedListing(async (cursor) => {
      calls++;
      return { items: [`k${calls}`], cursor: cursor === undefined ? 't1' : 't1' };
    });
    await expect((async () => { for await (const k of listing) got.push(k); })()).rejects.toThrow(/the store sent the same continuation token twice \("t1"\), so the listing would never end/);
    expect(got).toEqual(['k1', 'k2']);
    expect(calls).toBe(2);
  });

  it('follows distinct tokens to the last page', async () => {
    const pages: Record<string, { items: number[]; cursor?: string }> = { '': { items: [1], cursor: 'a' }, a: { items: [2], cursor: 'b' }, b: { items: [3] } };
    const got: number[] = [];
    for await (const n of pagedListing(async (c) => pages[c ?? ''])) got.push(n);
    expect(got).toEqual([1, 2, 3]);
  });
});
