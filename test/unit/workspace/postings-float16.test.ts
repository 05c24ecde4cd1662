// Postings merge (renumbering, drops, additions in key order) and float16 rounding at rest.
import { describe, expect, it } from 'vitest';
import { Postings } from '../../../src/workspace/snapshot/postings.js';
import { KeyTriples } from '../../../src/workspace/snapshot/key-triples.js';
import { TermCollector } from '../../../src/workspace/snapshot/term-collector.js';
import { chunkFeatures } from '../../../src/workspace/snapshot/chunk-features.js';
import { FLOAT16_RELATIVE_ERROR, fromFloat16, toFloat16 } from '../../../src/workspace/packed/float16.js';

const dump = (p: Postings) => Array.from({ length: p.keys.length }, (_, i) => p.keys.at(i)!).map((k) => { const e = p.find(k)!; return [k, [...e.chunk], [...e.count]]; });

describe('Postings', () => {
  it('reads a key again from what it read, and loads the whole file only past 24 distinct keys (a one-shot search of a long query reads its terms twice)', () => {
    // 30 keys, key i owning entries [i, i + 1) of a file that counts its reads.
    const keys = Array.from({ length: 30 }, (_, i) => `k${String(i).padStart(2, '0')}`);
    const chunk = Int32Array.from(keys, (_, i) => 100 + i);
    const count = Uint16Array.from(keys, (_, i) => i + 1);
    const reads: [number, number][] = [];
    const file = (from: number, to: number) => { reads.push([from, to]); return { chunk: chunk.slice(from, to), count: count.slice(from, to) }; };
    const p = new Postings(keys, Int32Array.from({ length: 31 }, (_, i) => i), file);
    // A search of 24 terms asks for each twice (which files hold one, then each chunk's counts).
    for (let pass = 0; pass < 2; pass++) {
      for (const k of keys.slice(0, 24)) expect([...p.find(k)!.chunk, ...p.find(k)!.count]).toEqual([100 + keys.indexOf(k), keys.indexOf(k) + 1]);
    }
    expect(reads).toHaveLength(24);
    expect(reads.every(([from, to]) => to - from === 1)).toBe(true);
    // A 25th distinct key: the whole file, once; everything after is answered from it.
    expect([...p.find('k24')!.chunk]).toEqual([124]);
    expect(reads.at(-1)).toEqual([0, 30]);
    for (const k of keys) expect([...p.find(k)!.count]).toEqual([keys.indexOf(k) + 1]);
    expect(reads).toHaveLength(25);
  });

  it('merges renumbered old entries with additions, dropping emptied keys, keys kept sorted', () => {
    const added = new KeyTriples();
    added.add(added.id('beta'), 0, 3);
    added.add(added.id('alpha'), 1, 1);
    const first = Postings.empty().merge(null, added, Int32Array.from([0, 1]));
    expect(dump(first)).toEqual([['alpha', [1], [1]], ['beta', [0], [3]]]);
    // Chunk 0 dropped, chunk 1 becomes 0; a new row (chunk 1) adds "gamma" and more "alpha".
    const more = new KeyTriples();
    more.add(more.id('gamma'), 0, 4);
    more.add(more.id('alpha'), 0, 2);
    const second = first.merge(Int32Array.from([-1, 0]), more, Int32Array.from([1]));
    expect(dump(second)).toEqual([['alpha', [0, 1], [1, 2]], ['gamma', [1], [4]]]);
    expect(second.range('beta')).toBeNull();
  });

  it('collects terms as countTerms counts them: lower-cased whole identifiers and each part stem', () => {
    const terms = new TermCollector();
    terms.add(0, chunkFeatures(['retryUploads retryUploads, RetryUploads(upload)'], terms.identifiers).identifiers);
    const p = Postings.empty().merge(null, terms.stem, Int32Array.from([0]));
    expect(dump(p)).toEqual([['retry', [0], [3]], ['upload', [0], [4]]]);
    const l = Postings.empty().merge(null, terms.lower, Int32Array.from([0]));
    expect(dump(l)).toEqual([['retryuploads', [0, 0], [2, 1]], ['upload', [0], [1]]]);
  });
});

describe('float16', () => {
  it('widens every one of the 65,536 halves to its value (bits back to the same half, NaNs stay NaN)', () => {
    const all = Uint16Array.from({ length: 65536 }, (_, h) => h);
    const wide = fromFloat16(all);
    const back = toFloat16(wide);
    let exponentAll = 0;
    for (let h = 0; h < 65536; h++) {
      const exp = (h >>> 10) & 0x1f;
      if (exp === 0x1f && (h & 0x3ff) !== 0) { expect(Number.isNaN(wide[h])).toBe(true); continue; }
      if (back[h] !== h) expect.fail(`half 0x${h.toString(16)} widened to ${wide[h]}, which narrows to 0x${back[h].toString(16)}`);
      if (exp === 0x1f) exponentAll++;
    }
    expect(exponentAll).toBe(2); // +Infinity and -Infinity
    expect(Object.is(wide[0x8000], -0)).toBe(true);
    expect(wide[0x3c00]).toBe(1);
    expect(wide[0x0001]).toBe(2 ** -24);
  });

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
