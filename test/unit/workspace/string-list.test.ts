// Packed string lists: strings and runs of other lists into one buffer, bytes copied, never decoded.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PackedStrings, PackedStringsBuilder } from '../../../src/workspace/packed/string-list.js';

const all = (p: PackedStrings) => Array.from({ length: p.length }, (_, i) => p.at(i));

describe('PackedStringsBuilder', () => {
  it('packs strings of any script, runs of other lists and empty strings, growing past its first buffer', () => {
    const words = Array.from({ length: 3000 }, (_, i) => (i % 5 === 0 ? '' : `${['retry', 'größe', '再試行', '🚀up'][i % 4]}${i}`));
    const first = PackedStrings.of(words);
    expect(all(first)).toEqual(words);
    const b = new PackedStringsBuilder();
    b.add('zero');
    b.addFrom(first, 10, 20);
    b.addFrom(first, 20, 25); // continues the run
    b.add('ünïcode');
    b.addFrom(first, 0, 0); // nothing
    b.addFrom(first, 2990, 3000);
    const built = b.build();
    expect(all(built)).toEqual(['zero', ...words.slice(10, 25), 'ünïcode', ...words.slice(2990)]);
    expect(built.length).toBe(b.length);
    // Its own bytes: exactly as long as its strings, not a view of the builder's larger buffer.
    const { bytes } = PackedStrings.pack(built);
    expect(bytes.byteLength).toBe(bytes.buffer.byteLength);
    expect(bytes.byteLength).toBe(Buffer.byteLength(all(built).join(''), 'utf8'));
  });

  it('slices a list into a list of its own', () => {
    const list = PackedStrings.of(['a', 'bb', 'ccc', 'dddd']);
    expect(all(list.slice(1, 3))).toEqual(['bb', 'ccc']);
    expect(list.slice(0, 4)).toBe(list);
  });
});

describe('PackedStrings.compareAscii', () => {
  it('orders an ASCII key against strings of any script as JavaScript compares strings (property)', () => {
    const pool = ['', 'a', 'ab', 'abc', 'b', 'retry', 'retry_', 'retryx', 'Z', '~', '\x7f', 'é', 'größe', '\uffff', '😀', 'ab\u0100', 'a\x00'];
    fc.assert(fc.property(fc.array(fc.oneof(fc.constantFrom(...pool), fc.string({ maxLength: 5 }), fc.string({ unit: 'binary', maxLength: 4 })), { minLength: 1, maxLength: 20 }),
      fc.oneof(fc.constantFrom(...pool.filter((x) => /^[\x00-\x7f]*$/.test(x))), fc.string({ unit: fc.integer({ min: 0, max: 127 }).map((c) => String.fromCharCode(c)), maxLength: 6 })), (strings, key) => {
        const packed = PackedStrings.of(strings);
        strings.forEach((s, i) => {
          expect(Math.sign(packed.compareAscii(i, key)), `${JSON.stringify(s)} vs ${JSON.stringify(key)}`).toBe(s < key ? -1 : s > key ? 1 : 0);
        });
      }));
  });
});
