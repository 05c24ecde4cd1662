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

  it('stops when a page with a fresh token does not start after the last key listed (it would repeat forever)', async () => {
    let calls = 0;
    const got: string[] = [];
    const listing = pagedListing(async () => {
      calls++;
      return { items: [{ key: 'a.txt' }, { key: 'b.txt' }], cursor: `t${calls}` };
    }, (o) => o.key);
    await expect((async () => { for await (const o of listing) got.push(o.key); })()).rejects.toThrow('the store\'s next page starts at "a.txt", not after "b.txt" where the page before ended: a listing goes in key order, so this one repeats itself and would never end; it was stopped (a bug in the store or a proxy in front of it)');
    expect(got).toEqual(['a.txt', 'b.txt']);
    expect(calls).toBeLessThanOrEqual(3); // the page after the refused one may be asked for already
  });

  it('compares keys as UTF-8 bytes, the stores\' order (U+FF5E sorts before U+1F600; UTF-16 units say the opposite)', async () => {
    const pages: Record<string, { items: { key: string }[]; cursor?: string }> = {
      '': { items: [{ key: 'a' }, { key: 'x\uff5e' }], cursor: 'p2' },
      p2: { items: [{ key: 'x\u{1f600}' }] },
    };
    const got: string[] = [];
    for await (const o of pagedListing(async (c) => pages[c ?? ''], (o) => o.key)) got.push(o.key);
    expect(got).toEqual(['a', 'x\uff5e', 'x\u{1f600}']);
  });

  it('follows distinct tokens to the last page', async () => {
    const pages: Record<string, { items: number[]; cursor?: string }> = { '': { items: [1], cursor: 'a' }, a: { items: [2], cursor: 'b' }, b: { items: [3] } };
    const got: number[] = [];
    for await (const n of pagedListing(async (c) => pages[c ?? ''])) got.push(n);
    expect(got).toEqual([1, 2, 3]);
  });
});
