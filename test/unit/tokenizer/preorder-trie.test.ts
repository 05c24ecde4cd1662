// The depth-first trie walks exactly like the hash trie it is built from: every piece's path and
// token id, and the same dead ends, with astral code points and wide nodes (binary search) included.
import { describe, expect, it } from 'vitest';
import { PieceTrie } from '../../../src/model/tokenizer/piece-trie.js';
import { PreorderTrie } from '../../../src/model/tokenizer/preorder-trie.js';

/** The node reached along `word` from the root, or -1 (`child` as each trie defines it). */
function walk(child: (node: number, cp: number) => number, word: string): number {
  let node = 0;
  for (const ch of word) {
    node = child(node, ch.codePointAt(0) as number);
    if (node < 0) return -1;
  }
  return node;
}

describe('PreorderTrie', () => {
  // 'a' + one of 40 chars: a node with 40 children; astral first and inner code points; nested pieces.
  const wide = Array.from({ length: 40 }, (_, i) => 'a' + String.fromCharCode(0x30 + i));
  const pieces = [...wide, 'a', 'abc', 'abcd', 'b', '😀', '😀x', 'x😀', 'x😀y', 'ünïcödé', 'ü', '中文', '中'];
  const hashTrie = new PieceTrie(8);
  pieces.forEach((p, id) => hashTrie.insert(p, id));
  const trie = PreorderTrie.from(hashTrie);
  const copy = new PreorderTrie(trie.toArrays());

  it('reaches every piece and gives its id, as the hash trie does', () => {
    for (const t of [trie, copy]) {
      pieces.forEach((p, id) => {
        const node = walk((n, cp) => t.child(n, cp), p);
        expect(node, p).toBeGreaterThan(0);
        expect(t.records[node], p).toBe(id);
      });
    }
  });

  it('stops where the hash trie stops, and marks inner nodes that are no piece', () => {
    const probes = ['ax', 'a\u0029', 'a\u0058', 'abce', 'c', '😁', 'x', 'x😀z', 'ünï', 'üx', '中文字', '', 'abc😀'];
    for (const w of probes) {
      const hashNode = walk((n, cp) => hashTrie.child(n, cp), w);
      const node = walk((n, cp) => trie.child(n, cp), w);
      expect(node < 0, w).toBe(hashNode < 0);
      if (node > 0) expect(trie.records[node], w).toBe(hashTrie.leafId[hashNode]);
    }
  });

  it('refuses arrays that are not a trie', () => {
    expect(() => new PreorderTrie({ records: new Int32Array(4), rootChild: new Int32Array(5), rootAstral: new Int32Array(0) })).toThrow(/inconsistent/);
  });
});
