// A read-only copy of a PieceTrie laid out for walking down it: one record per node in depth-first
// order, so a walk along a piece reads memory that is mostly adjacent, where the hash table's probes
// land anywhere in a table larger than the CPU's caches (WordPiece on a word the memo has not seen).
// Built at compile time; the compiled-tokenizer cache stores its arrays.
import type { PieceTrie } from './piece-trie.js';

/**
 * `records` holds, at each node's offset: its token id (-1 if no piece ends there), its child count,
 * then (code point, child offset) pairs sorted by code point. Offset 0 stands for the root, whose
 * children are found by BMP code unit in `rootChild`, and by astral code point in `rootAstral`.
 */
export interface PreorderTrieArrays {
  records: Int32Array;
  /** 0x10000 entries: the root's child offset by BMP code unit, -1 when absent. */
  rootChild: Int32Array;
  /** The root's children along astral code points, as (code point, offset) pairs. */
  rootAstral: Int32Array;
}

export class PreorderTrie {
  readonly records: Int32Array;
  private readonly rootChild: Int32Array;
  private readonly rootAstralPairs: Int32Array;
  private readonly rootAstral = new Map<number, number>();

  /** Over the arrays of an earlier build or toArrays(), used as they are; throws when they are not consistent. */
  constructor(arrays: PreorderTrieArrays) {
    const { records, rootChild, rootAstral } = arrays;
    if (rootChild.length !== 0x10000 || rootAstral.length % 2 !== 0 || records.length < 2) throw new Error('PreorderTrie: inconsistent arrays');
    this.records = records;
    this.rootChild = rootChild;
    this.rootAstralPairs = rootAstral;
    for (let i = 0; i < rootAstral.length; i += 2) this.rootAstral.set(rootAstral[i], rootAstral[i + 1]);
  }

  toArrays(): PreorderTrieArrays {
    return { records: this.records, rootChild: this.rootChild, rootAstral: this.rootAstralPairs };
  }

  /** The depth-first copy of a built PieceTrie (compile time: the compiled-tokenizer cache keeps it). */
  static from(trie: PieceTrie): PreorderTrie {
    const { nodes, leafId, edgeNode, edgeCp, edgeChild } = trie.toArrays();
    // Children of every node, grouped by parent (a counting sort), each group sorted by code point.
    const firstKid = new Int32Array(nodes + 1);
    for (let i = 0; i < edgeNode.length; i++) if (edgeNode[i] >= 0) firstKid[edgeNode[i] + 1]++;
    for (let n = 0; n < nodes; n++) firstKid[n + 1] += firstKid[n];
    // Each child as one exact double (code point * 2^31 + child node), so a native sort of a parent's
    // run orders it by code point.
    const kids = new Float64Array(firstKid[nodes]);
    const filled = firstKid.slice(0, nodes);
    for (let i = 0; i < edgeNode.length; i++) {
      const n = edgeNode[i];
      if (n >= 0) kids[filled[n]++] = edgeCp[i] * 2147483648 + edgeChild[i];
    }
    const kidCp = new Int32Array(kids.length);
    const kidNode = new Int32Array(kids.length);
    for (let n = 0; n < nodes; n++) {
      const from = firstKid[n];
      const to = firstKid[n + 1];
      if (to - from > 1) kids.subarray(from, to).sort();
      for (let k = from; k < to; k++) {
        kidCp[k] = Math.floor(kids[k] / 2147483648);
        kidNode[k] = kids[k] - kidCp[k] * 2147483648;
      }
    }
    // Offsets in depth-first order, children in code point order.
    const offset = new Int32Array(nodes);
    const stack = new Int32Array(nodes);
    let size = 2;
    let top = 0;
    for (let k = firstKid[1] - 1; k >= firstKid[0]; k--) stack[top++] = kidNode[k];
    while (top > 0) {
      const n = stack[--top];
      offset[n] = size;
      size += 2 + 2 * (firstKid[n + 1] - firstKid[n]);
      for (let k = firstKid[n + 1] - 1; k >= firstKid[n]; k--) stack[top++] = kidNode[k];
    }
    const records = new Int32Array(size);
    records[0] = -1;
    for (let n = 1; n < nodes; n++) {
      const at = offset[n];
      records[at] = leafId[n];
      records[at + 1] = firstKid[n + 1] - firstKid[n];
      for (let k = firstKid[n], e = at + 2; k < firstKid[n + 1]; k++, e += 2) {
        records[e] = kidCp[k];
        records[e + 1] = offset[kidNode[k]];
      }
    }
    const rootChild = new Int32Array(0x10000).fill(-1);
    const astral: number[] = [];
    for (let k = firstKid[0]; k < firstKid[1]; k++) {
      if (kidCp[k] < 0x10000) rootChild[kidCp[k]] = offset[kidNode[k]];
      else astral.push(kidCp[k], offset[kidNode[k]]);
    }
    return new PreorderTrie({ records, rootChild, rootAstral: Int32Array.from(astral) });
  }

  /** Offset of the child of the node at `node` (0: the root) along code point `cp`, or -1. */
  child(node: number, cp: number): number {
    if (node === 0) return cp < 0x10000 ? this.rootChild[cp] : this.rootAstral.get(cp) ?? -1;
    const r = this.records;
    const k = r[node + 1];
    if (k <= 16) {
      for (let e = node + 2, stop = node + 2 + 2 * k; e < stop; e += 2) {
        const c = r[e];
        if (c === cp) return r[e + 1];
        if (c > cp) return -1;
      }
      return -1;
    }
    let lo = 0;
    let hi = k - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const c = r[node + 2 + 2 * mid];
      if (c === cp) return r[node + 3 + 2 * mid];
      if (c < cp) lo = mid + 1; else hi = mid - 1;
    }
    return -1;
  }
}
