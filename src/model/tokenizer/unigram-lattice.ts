// Unigram Viterbi over one pre-token with the library's exact results. Metaspace words are lattice
// islands, so each word's nodes and best path are memoized and chained; a path is reused only when its
// margins dwarf float drift, else the word (or, at a near-tied word boundary, the line) is replayed.
import type { PieceTrie } from './piece-trie.js';
import { SegmentViterbi, walkNodes, type NodeTables, type SegmentNodes, type SegmentPath } from './unigram-segments.js';

export interface UnigramTables extends NodeTables {
  trie: PieceTrie;
  /** Largest |score| any node can have (unk score included). */
  maxAbsScore: number;
  /** The word-start code point (Metaspace ▁) when no piece holds it past index 0, else -1. */
  segmentCp: number;
}

interface WordEntry { nodes: SegmentNodes; local: SegmentPath | null }

const MAX_MEMO_SEGMENT = 64;
const EPS = 2 ** -52;

export class UnigramLattice {
  private cps = new Int32Array(256);
  private young = new Map<string, WordEntry>();
  private old = new Map<string, WordEntry>();
  private readonly viterbi = new SegmentViterbi();
  private words: WordEntry[] = [];
  private wordAt: number[] = [];
  /** Best path of the last run: node start (code points), length and output id. */
  pathStart = new Int32Array(256);
  pathLen = new Int32Array(256);
  pathId = new Int32Array(256);
  pathLength = 0;

  /** `memoWords`: words per memo generation (two generations are kept). */
  constructor(private readonly t: UnigramTables, private readonly memoWords: number) {}

  /** Code points of the last pre-token (for unk fusing). */
  codePoints(): Int32Array { return this.cps; }

  /** Runs Viterbi on one pre-token; the best path lands in path*[0, pathLength). */
  run(text: string): void {
    const len = this.loadCodePoints(text);
    this.pathLength = 0;
    this.splitWords(text, len);
    if (this.chain()) return;
    // A near tie at a word boundary: replay the whole line as the library does.
    this.pathLength = 0;
    const all = this.words.length === 1 ? this.words[0].nodes : this.concatNodes(len);
    this.append(this.viterbi.run(all, 0), all, 0);
  }

  /** Chains per-word paths; false when some word boundary is too close to call. */
  private chain(): boolean {
    const { words, wordAt } = this;
    let x = 0;
    for (let w = 0; w < words.length; w++) {
      const entry = words[w];
      const nodes = entry.nodes;
      const local = entry.local ??= this.viterbi.run(nodes, 0);
      // Bound on |(value from start x) - (x + value from start 0)| over this word's nodes.
      const drift = (nodes.length + 4) * (Math.abs(x) + (nodes.length + 1) * this.t.maxAbsScore) * EPS;
      let seg: SegmentPath;
      let end: number;
      let eosGap: number;
      if (local.minGap > 4 * drift && local.eosGap > 4 * drift) {
        seg = local;
        end = x;
        for (let k = 0; k < local.path.length; k++) end += nodes.scores[local.path[k]];
        eosGap = local.eosGap - 2 * drift;
      } else {
        seg = this.viterbi.run(nodes, x);
        end = seg.end;
        eosGap = seg.eosGapBelow;
      }
      // The next word's first nodes all pick this word's best end only if adding their score cannot
      // make a lower end score equal to the best (exact ties resolve alike: first in order).
      if (w + 1 < words.length && !(eosGap > 8 * (Math.abs(end) + this.t.maxAbsScore) * EPS)) return false;
      this.append(seg, nodes, wordAt[w]);
      x = end;
    }
    return true;
  }

  private splitWords(text: string, len: number): void {
    this.words.length = 0;
    this.wordAt.length = 0;
    const cut = this.t.segmentCp;
    if (cut < 0) { this.addWord(text, 0, text.length, 0, len); return; }
    const cps = this.cps;
    let from = 0;
    let from16 = 0;
    let at16 = 0;
    for (let p = 0; p <= len; p++) {
      if (p === len || (cps[p] === cut && p > from)) {
        this.addWord(text, from16, at16, from, p);
        from = p;
        from16 = at16;
      }
      if (p < len) at16 += cps[p] >= 0x10000 ? 2 : 1;
    }
  }

  private addWord(text: string, from16: number, to16: number, from: number, to: number): void {
    if (to <= from) return;
    let entry: WordEntry | undefined;
    if (to16 - from16 > MAX_MEMO_SEGMENT || this.t.segmentCp < 0) {
      entry = { nodes: walkNodes(this.t, this.cps, from, to), local: null };
    } else {
      const key = text.slice(from16, to16);
      entry = this.young.get(key);
      if (entry === undefined) {
        entry = this.old.get(key) ?? { nodes: walkNodes(this.t, this.cps, from, to), local: null };
        if (this.young.size >= this.memoWords) { this.old = this.young; this.young = new Map(); }
        this.young.set(key, entry);
      }
    }
    this.words.push(entry);
    this.wordAt.push(from);
  }

  private append(seg: SegmentPath, nodes: SegmentNodes, offset: number): void {
    const m = seg.path.length;
    if (this.pathLength + m > this.pathStart.length) {
      const cap = (this.pathLength + m) * 2;
      const grow = (a: Int32Array) => { const b = new Int32Array(cap); b.set(a.subarray(0, this.pathLength)); return b; };
      this.pathStart = grow(this.pathStart); this.pathLen = grow(this.pathLen); this.pathId = grow(this.pathId);
    }
    for (let k = 0; k < m; k++) {
      const node = seg.path[k];
      this.pathStart[this.pathLength] = offset + nodes.starts[node];
      this.pathLen[this.pathLength] = nodes.lens[node];
      this.pathId[this.pathLength++] = nodes.ids[node];
    }
  }

  /** All words' nodes as one segment (insertion order is word order, as in the library). */
  private concatNodes(len: number): SegmentNodes {
    let n = 0;
    for (const w of this.words) n += w.nodes.starts.length;
    const all: SegmentNodes = {
      length: len, starts: new Int32Array(n), lens: new Int32Array(n), ids: new Int32Array(n),
      scores: new Float64Array(n), begin: new Int32Array(len + 1),
    };
    let k = 0;
    for (let w = 0; w < this.words.length; w++) {
      const src = this.words[w].nodes;
      const off = this.wordAt[w];
      for (let p = 0; p < src.length; p++) all.begin[off + p] = k + src.begin[p];
      all.starts.set(src.starts.map((s) => s + off), k);
      all.lens.set(src.lens, k);
      all.ids.set(src.ids, k);
      all.scores.set(src.scores, k);
      k += src.starts.length;
    }
    all.begin[len] = k;
    return all;
  }

  private loadCodePoints(text: string): number {
    if (this.cps.length < text.length) this.cps = new Int32Array(text.length * 2);
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
}
