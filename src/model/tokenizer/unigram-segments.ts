// Lattice nodes of one stretch of a pre-token (the library's populate_nodes) and the library's Viterbi
// over them, replayed with the same float operations in the same order from a given starting score,
// plus the margins that tell when a memoized best path is safe to reuse from another start.
import type { PieceTrie } from './piece-trie.js';

/** Nodes of cps[from, to) in the library's insertion order, positions relative to `from`. */
export interface SegmentNodes {
  length: number;
  starts: Int32Array;
  lens: Int32Array;
  /** Output id of each node (the piece's id, or for an unk node the id of its lone char). */
  ids: Int32Array;
  scores: Float64Array;
  /** First node of each relative position; begin[length] = node count. */
  begin: Int32Array;
}

export interface NodeTables {
  trie: PieceTrie;
  scores: Float64Array;
  unkScore: number;
  charId(cp: number): number;
}

/** populate_nodes: every trie match at each position, and an unk node where no 1-char piece matched. */
export function walkNodes(t: NodeTables, cps: Int32Array, from: number, to: number): SegmentNodes {
  const leafId = t.trie.leafId;
  const starts: number[] = [];
  const lens: number[] = [];
  const ids: number[] = [];
  const scores: number[] = [];
  const begin = new Int32Array(to - from + 1);
  for (let pos = from; pos < to; pos++) {
    begin[pos - from] = starts.length;
    let node = 0;
    let single = false;
    for (let i = pos; i < to; i++) {
      node = t.trie.child(node, cps[i]);
      if (node < 0) break;
      const id = leafId[node];
      if (id < 0) continue;
      starts.push(pos - from); lens.push(i + 1 - pos); ids.push(id); scores.push(t.scores[id]);
      if (i === pos) single = true;
    }
    if (!single) { starts.push(pos - from); lens.push(1); ids.push(t.charId(cps[pos])); scores.push(t.unkScore); }
  }
  begin[to - from] = starts.length;
  return {
    length: to - from, starts: Int32Array.from(starts), lens: Int32Array.from(lens),
    ids: Int32Array.from(ids), scores: Float64Array.from(scores), begin,
  };
}

export interface SegmentPath {
  /** Node indices of the best path, in order. */
  path: Int32Array;
  /** Score of the path's last node: where the next segment starts from. */
  end: number;
  /** Smallest best-vs-runner-up gap over the choices made by the path's nodes (Infinity if none). */
  minGap: number;
  /** Best-vs-runner-up gap of the final (EOS) choice (0 on an exact tie). */
  eosGap: number;
  /**
   * Gap from the best end score to the best one strictly below it. Exact ties resolve the same way
   * (first in order) whatever score is added next, so only this gap matters at a word boundary.
   */
  eosGapBelow: number;
}

/** The library's TokenLattice.viterbi over one segment, in reusable typed arrays. */
export class SegmentViterbi {
  private bt = new Float64Array(256);
  private gap = new Float64Array(256);
  private prev = new Int32Array(256);
  private nextEnd = new Int32Array(256);
  private endFirst = new Int32Array(257);
  private endLast = new Int32Array(257);

  /**
   * Best path when the segment's first nodes follow a node scoring `seed` (0 = the line's BOS).
   * Candidates are tried in the library's order and replace the best only when strictly greater.
   */
  run(seg: SegmentNodes, seed: number): SegmentPath {
    const n = seg.starts.length;
    const len = seg.length;
    this.ensure(n, len);
    const { bt, gap, prev, nextEnd, endFirst, endLast } = this;
    const { starts, lens, scores, begin } = seg;
    endFirst.fill(-1, 0, len + 1);
    for (let k = 0; k < n; k++) {
      const e = starts[k] + lens[k];
      nextEnd[k] = -1;
      if (endFirst[e] < 0) endFirst[e] = k; else nextEnd[endLast[e]] = k;
      endLast[e] = k;
    }
    for (let r = begin[0]; r < begin[1]; r++) { bt[r] = seed + scores[r]; prev[r] = -1; gap[r] = Infinity; }
    for (let pos = 1; pos < len; pos++) {
      const head = endFirst[pos];
      for (let r = begin[pos], to = begin[pos + 1]; r < to; r++) {
        const rs = scores[r];
        let best = -1;
        let bestScore = 0;
        let second = -Infinity;
        for (let l = head; l >= 0; l = nextEnd[l]) {
          const s = bt[l] + rs;
          if (best < 0) { best = l; bestScore = s; } else if (s > bestScore) { second = bestScore; best = l; bestScore = s; } else if (s > second) second = s;
        }
        prev[r] = best;
        bt[r] = bestScore;
        gap[r] = bestScore - second;
      }
    }
    let best = -1;
    let bestScore = 0;
    let second = -Infinity;
    let below = -Infinity;
    for (let l = endFirst[len]; l >= 0; l = nextEnd[l]) {
      const s = bt[l] + 0;
      if (best < 0) { best = l; bestScore = s; } else if (s > bestScore) { second = below = bestScore; best = l; bestScore = s; } else {
        if (s > second) second = s;
        if (s < bestScore && s > below) below = s;
      }
    }
    let m = 0;
    for (let k = best; k >= 0; k = prev[k]) m++;
    const path = new Int32Array(m);
    let minGap = Infinity;
    for (let k = best; k >= 0; k = prev[k]) {
      path[--m] = k;
      const g = gap[k];
      if (g !== g || g < minGap) minGap = g; // NaN sticks: such a path is never reused
    }
    return { path, end: best >= 0 ? bt[best] : seed, minGap, eosGap: bestScore - second, eosGapBelow: bestScore - below };
  }

  private ensure(nodes: number, len: number): void {
    if (nodes > this.bt.length) {
      const cap = nodes * 2;
      this.bt = new Float64Array(cap); this.gap = new Float64Array(cap);
      this.prev = new Int32Array(cap); this.nextEnd = new Int32Array(cap);
    }
    if (len + 1 > this.endFirst.length) {
      this.endFirst = new Int32Array((len + 1) * 2); this.endLast = new Int32Array((len + 1) * 2);
    }
  }
}
