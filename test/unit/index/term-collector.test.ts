// The build's term triples: compact storage (blocks, one row per run) that gives back exactly what
// was added, counts saturated as the snapshot file stores them.
import { describe, expect, it } from 'vitest';
import { Postings } from '../../../src/index/postings.js';
import { COUNT_MAX, KeyTriples, TermCollector } from '../../../src/index/term-collector.js';
import { chunkFeatures } from '../../../src/index/chunk-features.js';

describe('KeyTriples', () => {
  it('gives back every triple in the order added, across storage blocks and rows that repeat or go back', () => {
    const t = new KeyTriples(true);
    const want: number[][] = [];
    // 200,000 triples: three blocks and more; rows change every 7 triples and jump back once.
    for (let i = 0; i < 200_000; i++) {
      const row = i === 150_000 ? 3 : Math.floor(i / 7);
      const triple = [t.id(`k${i % 1000}`), row, (i * 31) % 100_000];
      t.add(triple[0], triple[1], triple[2]);
      want.push(triple);
    }
    const got: number[][] = [];
    t.forEach((key, row, count) => { got.push([key, row, count]); });
    expect(t.length).toBe(200_000);
    expect(got).toEqual(want);
    const c = t.columns();
    expect([...c.key.subarray(149_999, 150_002)]).toEqual(want.slice(149_999, 150_002).map((x) => x[0]));
    expect([...c.row.subarray(149_999, 150_002)]).toEqual([21_428, 3, 21_428]);
    expect(c.count[199_999]).toBe(want[199_999][2]);
  });

  it('saturates term counts at 65,535, as the snapshot file stores them; defined names keep their place whole', () => {
    const terms = new KeyTriples();
    const places = new KeyTriples(true);
    terms.add(terms.id('retry'), 0, 70_000);
    places.add(places.id('retry'), 0, 70_000);
    const count = (t: KeyTriples) => { let c = -1; t.forEach((_k, _r, n) => { c = n; }); return c; };
    expect(count(terms)).toBe(COUNT_MAX);
    expect(count(places)).toBe(70_000);
  });

  it('merges into postings whose term counts saturate and whose defined names keep their places', () => {
    const collector = new TermCollector();
    const line = Array.from({ length: 70_000 }, () => 'retryUpload').join(' ');
    collector.add(0, chunkFeatures([line], collector.identifiers).identifiers);
    collector.addDefs(0, ['retryUpload']);
    const lower = Postings.empty().merge(null, collector.lower, Int32Array.from([0]));
    expect([...lower.find('retryupload')!.count]).toEqual([COUNT_MAX]);
    expect(lower.find('retryupload')!.count).toBeInstanceOf(Uint16Array);
    const defs = Postings.empty().merge(null, collector.defLower, Int32Array.from([0]));
    expect(defs.find('retryupload')!.count).toBeInstanceOf(Int32Array);
  });
});

describe('KeyTriples.settleKeys and clear', () => {
  it('keeps the key order once the lookup is let go, and takes new keys after it in order', () => {
    const t = new KeyTriples();
    for (const k of ['pear', 'apple', 'Zed', 'fig']) t.add(t.id(k), 0, 1);
    const sorted = (ids: number[]) => ids.map((id) => t.keys[id]);
    expect(sorted(t.order())).toEqual(['Zed', 'apple', 'fig', 'pear']);
    t.settleKeys();
    expect(sorted(t.order())).toEqual(['Zed', 'apple', 'fig', 'pear']);
    expect(t.id('fig')).toBe(3);
    expect(t.id('banana')).toBe(4);
    expect(sorted(t.order())).toEqual(['Zed', 'apple', 'banana', 'fig', 'pear']);
  });

  it('lets every key and triple go, and starts over', () => {
    const t = new KeyTriples();
    for (let i = 0; i < 100_000; i++) t.add(t.id(`k${i % 10}`), i, 1);
    t.clear();
    expect([t.length, t.keys.length, t.order().length]).toEqual([0, 0, 0]);
    t.add(t.id('again'), 7, 2);
    const got: number[][] = [];
    t.forEach((key, row, count) => { got.push([key, row, count]); });
    expect(got).toEqual([[0, 7, 2]]);
  });
});

describe('TermCollector.settle', () => {
  it('drops the identifier table; chunks added after it count their terms as before', () => {
    const lines = ['retryUpload(uploadQueue); retryUpload()'];
    const once = new TermCollector();
    once.add(0, chunkFeatures(lines, once.identifiers).identifiers);
    once.add(1, chunkFeatures(lines, once.identifiers).identifiers);
    const forgot = new TermCollector();
    forgot.add(0, chunkFeatures(lines, forgot.identifiers).identifiers);
    const table = forgot.identifiers;
    forgot.settle();
    expect(forgot.identifiers).not.toBe(table);
    forgot.add(1, chunkFeatures(lines, forgot.identifiers).identifiers);
    const dump = (t: TermCollector) => (['lower', 'stem'] as const).map((kind) => {
      const p = Postings.empty().merge(null, t[kind], Int32Array.from([0, 1]));
      return Array.from({ length: p.keys.length }, (_, i) => p.keys.at(i)!).map((k) => [k, [...p.find(k)!.chunk], [...p.find(k)!.count]]);
    });
    expect(dump(forgot)).toEqual(dump(once));
  });
});
