// The build's term triples: compact storage (blocks, one row per run, full blocks parked in a temp
// file when there is a spill directory) that gives back exactly what was added, counts saturated as
// the snapshot file stores them.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Postings } from '../../../src/workspace/snapshot/postings.js';
import { COUNT_MAX, KeyTriples } from '../../../src/workspace/snapshot/key-triples.js';

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
});

describe('KeyTriples with a spill directory', () => {
  const fill = (t: KeyTriples) => {
    // 300,000 triples (four full blocks and a part), rows that repeat and go back, counts past 16 bits.
    for (let i = 0; i < 300_000; i++) t.add(t.id(`k${(i * 7) % 5003}`), i === 200_000 ? 3 : Math.floor(i / 9), (i * 131) % 90_000);
  };
  const all = (t: KeyTriples) => { const out: number[] = []; t.forEach((k, r, c) => { out.push(k, r, c); }); return Int32Array.from(out); };
  // Byte for byte (toEqual on arrays this long takes seconds).
  const bytes = (...as: (Int32Array | Uint16Array)[]) => Buffer.concat(as.map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength))).toString('base64');

  it('parks full blocks in an unlinked temp file and gives back exactly what stays in memory', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'simgrep-spill-'));
    try {
      for (const wide of [false, true]) {
        const parked = new KeyTriples(wide, dir);
        const kept = new KeyTriples(wide);
        fill(parked);
        fill(kept);
        expect([parked.parkedBlocks, kept.parkedBlocks]).toEqual([4, 0]);
        expect(readdirSync(dir)).toEqual([]);
        expect(all(parked).length).toBe(900_000);
        expect(bytes(all(parked))).toBe(bytes(all(kept)));
        const columns = (t: KeyTriples) => { const c = t.columns(); return bytes(c.key, c.row, c.count); };
        expect(columns(parked)).toBe(columns(kept));
        const merged = (t: KeyTriples) => { const e = Postings.empty().merge(null, t, Int32Array.from({ length: 40_000 }, (_, r) => r)).all(); return bytes(e.chunk, e.count); };
        expect(merged(parked)).toBe(merged(kept));
        parked.clear();
        parked.add(parked.id('again'), 1, 2);
        expect([...all(parked)]).toEqual([0, 1, 2]);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps the blocks it parked, and the later ones in memory, when the disk fills part-way', () => {
    // A file size limit (ulimit -f, in KiB) stands in for a full disk: the first 384 KiB block fits, the
    // second's write fails (EFBIG once SIGXFSZ is ignored). Run in a child on the built module.
    const dir = mkdtempSync(path.join(tmpdir(), 'simgrep-spill-full-'));
    const module = path.resolve('dist/src/workspace/snapshot/key-triples.js');
    const script = `process.on('SIGXFSZ', () => {});
      const { KeyTriples } = await import(${JSON.stringify(module)});
      const fill = ${fill.toString()};
      const all = (t) => { const out = []; t.forEach((k, r, c) => { out.push(k, r, c); }); return out.join(','); };
      const parked = new KeyTriples(false, ${JSON.stringify(dir)});
      const kept = new KeyTriples();
      fill(parked); fill(kept);
      console.log(JSON.stringify({ parked: parked.parkedBlocks, same: all(parked) === all(kept) }));`;
    try {
      const r = spawnSync('bash', ['-c', 'ulimit -f 500 && exec node --input-type=module -e "$0"', script], { encoding: 'utf8' });
      expect(r.stderr).toBe('');
      expect(JSON.parse(r.stdout)).toEqual({ parked: 1, same: true });
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps its blocks in memory when the directory cannot take a file', () => {
    const t = new KeyTriples(false, path.join(tmpdir(), 'simgrep-no-such-dir', 'deeper'));
    const kept = new KeyTriples();
    fill(t);
    fill(kept);
    expect(t.parkedBlocks).toBe(0);
    expect(bytes(all(t))).toBe(bytes(all(kept)));
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

