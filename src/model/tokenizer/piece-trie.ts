// A code-point trie of vocabulary pieces (Unigram lattice, WordPiece longest match) in flat typed
// arrays, edges in one open-addressing hash table: far smaller and faster than a Map per node.

/** A built trie as plain typed arrays and counts: what a compiled-tokenizer cache stores. */
export interface PieceTrieArrays {
  nodes: number;
  edges: number;
  leafId: Int32Array;
  edgeNode: Int32Array;
  edgeCp: Int32Array;
  edgeChild: Int32Array;
  rootChild: Int32Array;
}

export class PieceTrie {
  /** Token id at each node where a piece ends, else -1. */
  leafId: Int32Array;
  private nodes: number;
  private edges: number;
  private edgeNode: Int32Array;
  private edgeCp: Int32Array;
  private edgeChild: Int32Array;
  private mask: number;
  /** Children of the root by BMP code unit (the first step of every walk), -1 when absent. */
  private readonly rootChild: Int32Array;

  /**
   * An empty trie (`expectedNodes` only sizes the first allocation; shared prefixes usually make far
   * fewer nodes), or one over the arrays of an earlier toArrays(), used as they are.
   */
  constructor(expectedNodes: number, built?: PieceTrieArrays) {
    if (built) {
      const cap = built.edgeNode.length;
      const valid = cap >= 1024 && (cap & (cap - 1)) === 0 && built.edgeCp.length === cap && built.edgeChild.length === cap
        && built.rootChild.length === 0x10000 && built.leafId.length >= built.nodes && built.edges < cap;
      if (!valid) throw new Error('PieceTrie: inconsistent arrays');
      ({ nodes: this.nodes, edges: this.edges, leafId: this.leafId, edgeNode: this.edgeNode, edgeCp: this.edgeCp, edgeChild: this.edgeChild, rootChild: this.rootChild } = built);
      this.mask = cap - 1;
      return;
    }
    let cap = 1024;
    while (cap < expectedNodes) cap *= 2;
    this.nodes = 1;
    this.edges = 0;
    this.edgeNode = new Int32Array(cap).fill(-1);
    this.edgeCp = new Int32Array(cap);
    this.edgeChild = new Int32Array(cap);
    this.mask = cap - 1;
    this.leafId = new Int32Array(Math.max(16, expectedNodes >> 1)).fill(-1);
    this.rootChild = new Int32Array(0x10000).fill(-1);
  }

  /** The trie's arrays (shared, not copied), for new PieceTrie(0, arrays). */
  toArrays(): PieceTrieArrays {
    const { nodes, edges, leafId, edgeNode, edgeCp, edgeChild, rootChild } = this;
    return { nodes, edges, leafId, edgeNode, edgeCp, edgeChild, rootChild };
  }

  /** Child of `node` along code point `cp`, or -1. */
  child(node: number, cp: number): number {
    if (node === 0 && cp < 0x10000) return this.rootChild[cp];
    let slot = Math.imul(node ^ Math.imul(cp, 0x9e3779b1), 0x85ebca6b);
    slot = (slot ^ (slot >>> 15)) & this.mask;
    for (;;) {
      const n = this.edgeNode[slot];
      if (n === -1) return -1;
      if (n === node && this.edgeCp[slot] === cp) return this.edgeChild[slot];
      slot = (slot + 1) & this.mask;
    }
  }

  /** Adds a piece with the id the library resolves it to (later calls for the same piece overwrite). */
  insert(piece: string, id: number): void {
    let node = 0;
    for (const ch of piece) {
      const cp = ch.codePointAt(0) as number;
      let next = this.child(node, cp);
      if (next < 0) next = this.addEdge(node, cp);
      node = next;
    }
    if (node !== 0) this.leafId[node] = id;
  }

  private addEdge(node: number, cp: number): number {
    // Linear probing stays short up to ~70% load.
    if ((this.edges + 1) * 10 > (this.mask + 1) * 7) this.rehash();
    const child = this.nodes++;
    if (child >= this.leafId.length) {
      const grown = new Int32Array(this.leafId.length * 2).fill(-1);
      grown.set(this.leafId);
      this.leafId = grown;
    }
    let slot = Math.imul(node ^ Math.imul(cp, 0x9e3779b1), 0x85ebca6b);
    slot = (slot ^ (slot >>> 15)) & this.mask;
    while (this.edgeNode[slot] !== -1) slot = (slot + 1) & this.mask;
    this.edgeNode[slot] = node;
    this.edgeCp[slot] = cp;
    this.edgeChild[slot] = child;
    this.edges++;
    if (node === 0 && cp < 0x10000) this.rootChild[cp] = child;
    return child;
  }

  private rehash(): void {
    const { edgeNode, edgeCp, edgeChild } = this;
    const cap = (this.mask + 1) * 2;
    this.edgeNode = new Int32Array(cap).fill(-1);
    this.edgeCp = new Int32Array(cap);
    this.edgeChild = new Int32Array(cap);
    this.mask = cap - 1;
    for (let i = 0; i < edgeNode.length; i++) {
      const node = edgeNode[i];
      if (node === -1) continue;
      let slot = Math.imul(node ^ Math.imul(edgeCp[i], 0x9e3779b1), 0x85ebca6b);
      slot = (slot ^ (slot >>> 15)) & this.mask;
      while (this.edgeNode[slot] !== -1) slot = (slot + 1) & this.mask;
      this.edgeNode[slot] = node;
      this.edgeCp[slot] = edgeCp[i];
      this.edgeChild[slot] = edgeChild[i];
    }
  }
}
