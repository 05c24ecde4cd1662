// Interned keys: dense ids in order of first sight, found again through growth and when the index
// is made over a list that already has keys (as KeyTriples makes it again after settleKeys).
import { describe, expect, it } from 'vitest';
import { KeyIndex } from '../../../src/workspace/packed/key-index.js';

describe('KeyIndex', () => {
  it('numbers keys in order of first sight and finds each again as the table grows', () => {
    const keys: string[] = [];
    const index = new KeyIndex(keys);
    const words = Array.from({ length: 100_000 }, (_, i) => (i % 3 === 0 ? `k${i}` : `Ünï_${i % 50_000}`));
    const ids = words.map((w) => index.id(w));
    const firstSeen = [...new Set(words)];
    expect(keys).toEqual(firstSeen);
    const at = new Map(firstSeen.map((w, i) => [w, i]));
    expect(ids).toEqual(words.map((w) => at.get(w)));
    expect(words.every((w, i) => index.find(w) === ids[i])).toBe(true);
    expect([index.find(''), index.find('k1'), index.find('missing')]).toEqual([-1, -1, -1]);
    expect(index.id('')).toBe(firstSeen.length);
  });

  it('indexes a list that already has keys, and adds after them', () => {
    const keys = ['b', 'a', 'c'];
    const index = new KeyIndex(keys);
    expect(['a', 'b', 'c', 'd'].map((k) => index.find(k))).toEqual([1, 0, 2, -1]);
    expect(index.id('d')).toBe(3);
    expect(index.id('a')).toBe(1);
    expect(keys).toEqual(['b', 'a', 'c', 'd']);
  });

  it('finds the empty key again, in a list made before and after it (mend37b: a document word folding to \'\', a lone U+FE0F, crashed a build)', () => {
    const keys: string[] = [];
    const index = new KeyIndex(keys);
    expect([index.id('the'), index.id(''), index.id('x')]).toEqual([0, 1, 2]);
    expect([index.find(''), index.id('')]).toEqual([1, 1]);
    expect(new KeyIndex(['a', '']).find('')).toBe(1);
  });
});
