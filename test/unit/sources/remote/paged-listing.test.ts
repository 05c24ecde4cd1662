// A listing that always says "more" with the same continuation token was listed forever: it now
// stops with a message, after the objects it did list.
import { describe, expect, it } from 'vitest';
import { pagedListing } from '../../../../src/sources/remote/object-stream.js';

const MINUTE = 60_000;

describe('pagedListing', () => {
  it('stops when the store repeats a continuation token, keeping the objects listed', async () => {
    let calls = 0;
    const got: string[] = [];
    const listing = pagedListing(async (cursor) => {
      calls++;
      return { items: [`k${calls}`], cursor: cursor === undefined ? 't1' : 't1' };
    }, { stallMs: MINUTE });
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
    }, { keyOf: (o) => o.key, stallMs: MINUTE });
    await expect((async () => { for await (const o of listing) got.push(o.key); })()).rejects.toThrow('the store\'s next page, from "a.txt" to "b.txt", was listed before under another continuation token: this listing repeats itself and would never end; it was stopped (a bug in the store or a proxy in front of it)');
    expect(got).toEqual(['a.txt', 'b.txt']);
    expect(calls).toBeLessThanOrEqual(3); // the page after the refused one may be asked for already
  });

  it('stops a listing that cycles through its pages under fresh tokens', async () => {
    const cycle = [[{ key: 'a' }, { key: 'b' }], [{ key: 'c' }], [{ key: 'd' }, { key: 'e' }]];
    let calls = 0;
    const got: string[] = [];
    const listing = pagedListing(async () => ({ items: cycle[calls++ % 3]!, cursor: `t${calls}` }), { keyOf: (o) => o.key, stallMs: MINUTE });
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
    for await (const o of pagedListing(async (c) => pages[c ?? ''], { keyOf: (o) => o.key, stallMs: MINUTE })) got.push(o.key);
    expect(got).toEqual(['m.txt', 'z.txt', 'a.txt', 'c.txt', 'b.txt']);
  });

  it('takes a page that starts with the key the page before ended with as a duplicate, not a repeat', async () => {
    const pages: Record<string, { items: { key: string }[]; cursor?: string }> = {
      '': { items: [{ key: 'a' }], cursor: 'p2' },
      p2: { items: [{ key: 'a' }, { key: 'b' }], cursor: 'p3' },
      p3: { items: [{ key: 'b' }, { key: 'c' }] },
    };
    const got: string[] = [];
    for await (const o of pagedListing(async (c) => pages[c ?? ''], { keyOf: (o) => o.key, stallMs: MINUTE })) got.push(o.key);
    expect(got).toEqual(['a', 'a', 'b', 'b', 'c']);
  });

  it('follows distinct tokens to the last page', async () => {
    const pages: Record<string, { items: number[]; cursor?: string }> = { '': { items: [1], cursor: 'a' }, a: { items: [2], cursor: 'b' }, b: { items: [3] } };
    const got: number[] = [];
    for await (const n of pagedListing(async (c) => pages[c ?? ''], { stallMs: MINUTE })) got.push(n);
    expect(got).toEqual([1, 2, 3]);
  });

  // mend46b: honest listings the trust46 bounds stopped.
  it('lists a versioned bucket past 5,000 empty pages (delete markers) to its objects: a count of 1,000 stopped it', async () => {
    let calls = 0;
    const got: string[] = [];
    const listing = pagedListing(async () => {
      calls++;
      if (calls <= 5000) return { items: [], cursor: `m${calls}` };
      return { items: [{ key: 'kept.txt' }] };
    }, { keyOf: (o) => o.key, stallMs: MINUTE });
    for await (const o of listing) got.push(o.key);
    expect(got).toEqual(['kept.txt']);
  });

  it('stops a listing of empty pages after its time without progress, naming delete markers as an honest cause', async () => {
    let calls = 0;
    const got: string[] = [];
    const listing = pagedListing(async () => {
      calls++;
      await new Promise((r) => setTimeout(r, 1));
      return calls === 1 ? { items: [{ key: 'a.txt' }], cursor: 'e1' } : { items: [], cursor: `e${calls}` };
    }, { keyOf: (o) => o.key, stallMs: 100 });
    await expect((async () => { for await (const o of listing) got.push(o.key); })()).rejects.toThrow(/^the store sent \d+ pages in a row with no object and no new prefix in them over 0 s, each under a fresh continuation token, so the listing was stopped: a versioned bucket whose prefix holds millions of delete markers \(S3\) or deleted blobs \(Azure\) lists such pages honestly/);
    expect(got).toEqual(['a.txt']);
  });

  it('lists a store that names one prefix on several pages in a row (S3-compatible stores do) in full: it was stopped as a repeat', async () => {
    const pages: Record<string, { items: { key: string }[]; prefixes?: string[]; cursor?: string }> = {
      '': { items: [{ key: 'a.txt' }], prefixes: ['d/'], cursor: 'p2' },
      p2: { items: [], prefixes: ['d/'], cursor: 'p3' },
      p3: { items: [], prefixes: ['d/'], cursor: 'p4' },
      p4: { items: [{ key: 'e.txt' }], prefixes: ['d/'], cursor: 'p5' },
      p5: { items: [], prefixes: ['d/', 'f/'] },
    };
    const got: string[] = [];
    for await (const o of pagedListing(async (c) => pages[c ?? ''], { keyOf: (o) => o.key, stallMs: MINUTE })) got.push(o.key);
    expect(got).toEqual(['a.txt', 'e.txt']);
  });

  it('stops a listing whose pages name the same prefixes for ever, by its time without progress', async () => {
    let calls = 0;
    const listing = pagedListing(async () => {
      calls++;
      await new Promise((r) => setTimeout(r, 1));
      return { items: [] as { key: string }[], prefixes: ['a/', 'b/'], cursor: `d${calls}` };
    }, { keyOf: (o) => o.key, stallMs: 100 });
    await expect((async () => { for await (const _ of listing) { /* none */ } })()).rejects.toThrow(/no object and no new prefix/);
    expect(calls).toBeGreaterThan(2);
  });
});
