// Unigram Viterbi over one pre-token, step for step as the library's TokenLattice does it (same node
// order, same float sums, same first-strictly-better tie rule), in reusable typed arrays. The trie
// matches of each Metaspace word are memoized (they cannot cross the word's leading ▁).
import type { PieceTrie } from './piece-trie.js';

export interface UnigramTables {
  trie: PieceTrie;
  /** Score per token id (the unk id already holds the unk score). */
  scores: Float64Array;
  unkId: number;
  unkScore: number;
  /** Code point that starts every pre-token word (Metaspace) when no piece holds it past index 0,
   *  so lattice nodes never cross it and can be memoized per word; -1 for none. */
  segmentCp: number;
  /** Output id of an unk node (a lone code point): its id if some added token is that char, else unkId. */
  charId(cp: number): number;
}

/** Lattice nodes of one segment, positions relative to its start, in the library's insertion order. */
interface SegmentNodes {
  starts: Int32Array;
  lens: Int32Array;
  ids: Int32Array;
  scores: Float64Array;
}

const MAX_MEMO_SEGMENT = 64;

/** Reusable lattice state; `path` receives the best path's node ids in order. */
export class UnigramLattice {
  private cps = new Int32Array(256);
  private beginAt = new Int32Array(257);
  private endFirst = new Int32Array(257);
  private endLast = new Int32Array(257);
  private nStart = new Int32Array(1024);
  private nLen = new Int32Array(1024);
  nId = new Int32Array(1024);
  private nScore = new Float64Array(1024);
  private nBt = new Float64Array(1024);
  private nPrev = new Int32Array(1024);
  private nNextEnd = new Int32Array(1024);
  private count = 0;
  path = new Int32Array(256);
  pathLength = 0;
  private young = new Map<string, SegmentNodes>();
  private old = new Map<string, SegmentNodes>();

  /** `memoWords`: segments per memo generation (two generations are kept). */
  constructor(private readonly t: UnigramTables, private readonly memoWords: number) {}

  /** Code points of the pre-token (for unk fusing). */
  codePoints(): Int32Array { return this.cps; }
  start(node: number): number { return this.nStart[node]; }
  length(node: number): number { return this.nLen[node]; }

  /** Runs Viterbi on `text`; the best path is in path[0, pathLength). */
  run(text: string): void {
    const len = this.loadCodePoints(text);
    this.count = 0;
    this.endFirst.fill(-1, 0, len + 1);
    this.addNode(0, 0, 0, 0); // BOS; its id is never output
    const cut = this.t.segmentCp;
    if (cut < 0) {
      this.addSegment(this.walk(0, len), 0);
    } else {
      const cps = this.cps;
      let from = 0;
      let from16 = 0;
      let at16 = 0;
      for (let p = 0; p <= len; p++) {
        if (p === len || (cps[p] === cut && p > from)) {
          this.addSegment(this.segmentNodes(text, from16, at16, from, p), from);
          from = p;
          from16 = at16;
        }
        if (p < len) at16 += cps[p] >= 0x10000 ? 2 : 1;
      }
    }
    this.beginAt[len] = this.count;
    this.viterbi(len);
  }

  /** Nodes of cps[from, to) = text[from16, to16), from the memo when seen before. */
  private segmentNodes(text: string, from16: number, to16: number, from: number, to: number): SegmentNodes {
    if (to16 - from16 > MAX_MEMO_SEGMENT) return this.walk(from, to);
    const key = text.slice(from16, to16);
    let seg = this.young.get(key);
    if (seg === undefined) {
      seg = this.old.get(key) ?? this.walk(from, to);
      if (this.young.size >= this.memoWords) { this.old = this.young; this.young = new Map(); }
      this.young.set(key, seg);
    }
    return seg;
  }

  /** The library's populate_nodes for begin positions [from, to): trie matches, else one unk node. */
  private walk(from: number, to: number): SegmentNodes {
    const { trie, scores, unkScore } = this.t;
    const cps = this.cps;
    const leafId = trie.leafId;
    const starts: number[] = [];
    const lens: number[] = [];
    const ids: number[] = [];
    const nodeScores: number[] = [];
    for (let pos = from; pos < to; pos++) {
      let node = 0;
      let single = false;
      for (let i = pos; i < to; i++) {
        node = trie.child(node, cps[i]);
        if (node < 0) break;
        const id = leafId[node];
        if (id < 0) continue;
        starts.push(pos - from); lens.push(i + 1 - pos); ids.push(id); nodeScores.push(scores[id]);
        if (i === pos) single = true;
      }
      if (!single) { starts.push(pos - from); lens.push(1); ids.push(this.t.charId(cps[pos])); nodeScores.push(unkScore); }
    }
    return { starts: Int32Array.from(starts), lens: Int32Array.from(lens), ids: Int32Array.from(ids), scores: Float64Array.from(nodeScores) };
  }

  private addSegment(seg: SegmentNodes, from: number): void {
    const { starts, lens, ids, scores } = seg;
    for (let j = 0; j < starts.length; j++) {
      const pos = from + starts[j];
      if (j === 0 || starts[j] !== starts[j - 1]) this.beginAt[pos] = this.count;
      this.addNode(pos, lens[j], scores[j], ids[j]);
    }
  }

  private viterbi(len: number): void {
    const { nBt, nScore, nPrev, nNextEnd, endFirst, beginAt } = this;
    for (let pos = 0; pos < len; pos++) {
      const head = endFirst[pos];
      for (let r = beginAt[pos], to = beginAt[pos + 1]; r < to; r++) {
        const rs = nScore[r];
        let best = -1;
        let bestScore = 0;
        for (let l = head; l >= 0; l = nNextEnd[l]) {
          const s = nBt[l] + rs;
          if (best < 0 || s > bestScore) { best = l; bestScore = s; }
        }
        nPrev[r] = best;
        nBt[r] = bestScore;
      }
    }
    // EOS (score 0) picks its predecessor the same way.
    let best = -1;
    let bestScore = 0;
    for (let l = endFirst[len]; l >= 0; l = nNextEnd[l]) {
      const s = nBt[l] + 0;
      if (best < 0 || s > bestScore) { best = l; bestScore = s; }
    }
    let m = 0;
    for (let n = best; n > 0; n = nPrev[n]) m++;
    if (this.path.length < m) this.path = new Int32Array(m * 2);
    this.pathLength = m;
    for (let n = best; n > 0; n = nPrev[n]) this.path[--m] = n;
  }

  private loadCodePoints(text: string): number {
    if (this.cps.length < text.length) {
      const cap = text.length * 2;
      this.cps = new Int32Array(cap);
      this.beginAt = new Int32Array(cap + 1);
      this.endFirst = new Int32Array(cap + 1);
      this.endLast = new Int32Array(cap + 1);
    }
    let n = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) { this.cps[n++] = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000; i++; continue; }
      }
      this.cps[n++] = c;
    }
    return n;
  }

  private addNode(pos: number, len: number, score: number, id: number): void {
    const n = this.count++;
    if (n >= this.nStart.length) this.grow();
    this.nStart[n] = pos;
    this.nLen[n] = len;
    this.nScore[n] = score;
    this.nId[n] = id;
    this.nBt[n] = 0;
    this.nPrev[n] = -1;
    this.nNextEnd[n] = -1;
    const end = pos + len;
    if (this.endFirst[end] < 0) this.endFirst[end] = n;
    else this.nNextEnd[this.endLast[end]] = n;
    this.endLast[end] = n;
  }

  private grow(): void {
    const cap = this.nStart.length * 2;
    const g32 = (a: Int32Array) => { const b = new Int32Array(cap); b.set(a); return b; };
    const g64 = (a: Float64Array) => { const b = new Float64Array(cap); b.set(a); return b; };
    this.nStart = g32(this.nStart); this.nLen = g32(this.nLen); this.nId = g32(this.nId);
    this.nPrev = g32(this.nPrev); this.nNextEnd = g32(this.nNextEnd);
    this.nScore = g64(this.nScore); this.nBt = g64(this.nBt);
  }
}
