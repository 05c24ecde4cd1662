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

  it('stops when a page with a fresh token lists the keys of an earlier page again (it would repeat forever)', async () => {
    let calls = 0;
    const got: string[] = [];
    const listing = pagedListing(async () => {
      calls++;
      return { items: [{ key: 'a.txt' }, { key: 'b.txt' }], cursor: `t${calls}` };
    }, (o) => o.key);
    await expect((async () => { for await (const o of listing) got.push(o.key); })()).rejects.toThrow('the store\'s next page, from "a.txt" to "b.txt", was listed before under another continuation token: this listing repeats itself and would never end; it was stopped (a bug in the store or a proxy in front of it)');
    expect(got).toEqual(['a.txt', 'b.txt']);
    expect(calls).toBeLessThanOrEqual(3); // the page after the refused one may be asked for already
  });

  it('stops a listing that cycles through its pages under fresh tokens', async () => {
    const cycle = [[{ key: 'a' }, { key: 'b' }], [{ key: 'c' }], [{ key: 'd' }, { key: 'e' }]];
    let calls = 0;
    const got: string[] = [];
    const listing = pagedListing(async () => ({ items: cycle[calls++ % 3]!, cursor: `t${calls}` }), (o) => o.key);
    await expect((async () => { for await (const o of listing) got.push(o.key); })()).rejects.toThrow(/from "a" to "b", was listed before/);
    expect(got).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('lists pages that are not in key order in full (S3 directory buckets list out of order)', async () => {
    const pages: Record<string, { items: { key: string }[]; cursor?: string }> = {
      '': { items: [{ key: 'm.txt' }, { key: 'z.txt' }], cursor: 'p2' },
      p2: { items: [{ key: 'a.txt' }, { key: 'c.txt' }], cursor: 'p3' },
      p3: { items: [{ key: 'b.txt' }] },
    };
    const got: string[] = [];
    for await (const o of pagedListing(async (c) => pages[c ?? ''], (o) => o.key)) got.push(o.key);
    expect(got).toEqual(['m.txt', 'z.txt', 'a.txt', 'c.txt', 'b.txt']);
  });

  it('takes a page that starts with the key the page before ended with as a duplicate, not a repeat', async () => {
    const pages: Record<string, { items: { key: string }[]; cursor?: string }> = {
      '': { items: [{ key: 'a' }], cursor: 'p2' },
      p2: { items: [{ key: 'a' }, { key: 'b' }], cursor: 'p3' },
      p3: { items: [{ key: 'b' }, { key: 'c' }] },
    };
    const got: string[] = [];
    for await (const o of pagedListing(async (c) => pages[c ?? ''], (o) => o.key)) got.push(o.key);
    expect(got).toEqual(['a', 'a', 'b', 'b', 'c']);
  });

  it('follows distinct tokens to the last page', async () => {
    const pages: Record<string, { items: number[]; cursor?: string }> = { '': { items: [1], cursor: 'a' }, a: { items: [2], cursor: 'b' }, b: { items: [3] } };
    const got: number[] = [];
    for await (const n of pagedListing(async (c) => pages[c ?? ''])) got.push(n);
    expect(got).toEqual([1, 2, 3]);
  });
});
