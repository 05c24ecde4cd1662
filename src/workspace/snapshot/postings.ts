// Term -> (chunk, count) lists over sorted keys: looked up by binary search (nothing to build when a
// process starts), merged with additions and chunk renumbering when the index changes. The entries
// of postings read from a snapshot file stay on disk until a query asks for a key's.
import { PackedStrings, PackedStringsBuilder, type StringList } from '../packed/string-list.js';
import { COUNT_MAX, KeyTriples } from './key-triples.js';
import { joined } from '../packed/typed-arrays.js';

export interface Entries {
  chunk: Int32Array;
  /** A term's count in 16 bits (saturating at COUNT_MAX), a defined name's place in its chunk in 32. */
  count: Int32Array | Uint16Array;
}

/** Entries [from, to), read on demand (from a snapshot file). */
export type EntryReader = (from: number, to: number) => Entries;

const NON_ASCII = /[^\x00-\x7f]/;

/**
 * Distinct keys a process reads from a file before it reads all the entries once (a long-lived
 * process). A search asks for each of its terms' entries more than once (which files hold one, then
 * each chunk's counts): a key read again is no new lookup, so one search of a long query's 24 terms
 * (plan.ts maxQueryTerms) reads only those, not the whole file (7.2 million entries on the 1M-line
 * bench tree: ~90 ms and 43 MB in a one-shot process).
 */
const READS_BEFORE_LOADING = 24;

/**
 * One layer of postings, and optionally a tail: the postings of chunks appended since (a snapshot
 * patched in place keeps its base layer as read from the file and adds a small tail).
 */
export class Postings {
  /** The entries in memory: given, or read whole from the file after READS_BEFORE_LOADING lookups. */
  private loaded: Entries | null;
  /** The entries read from the file so far, by their first entry (dropped once all are loaded). */
  private readonly kept = new Map<number, Entries>();

  constructor(
    /** Sorted, distinct. */
    readonly keys: StringList,
    /** keys[i] owns entries [start[i], start[i + 1]). */
    readonly start: Int32Array,
    private readonly source: Entries | EntryReader,
    readonly tail: Postings | null = null,
  ) {
    this.loaded = typeof source === 'function' ? null : source;
  }

  /** These postings with `added` (rows numbered as chunks by `rowChunk`) in their tail; this layer is shared, not copied. */
  withTail(added: KeyTriples, rowChunk: Int32Array): Postings {
    return this.withTailLayer((this.tail ?? Postings.empty()).merge(null, added, rowChunk));
  }

  /** This layer with `tail` as its tail. */
  withTailLayer(tail: Postings | null): Postings {
    return new Postings(this.keys, this.start, this.loaded ?? this.source, tail);
  }

  /** One layer holding this layer's and the tail's entries. */
  flat(): Postings {
    if (!this.tail) return this;
    const own = this.withTailLayer(null);
    const t = this.tail.flat();
    const all = t.all();
    const triples = new KeyTriples(all.count instanceof Int32Array);
    let top = 0;
    for (let i = 0; i < t.keys.length; i++) {
      const id = triples.id(t.keys.at(i)!);
      for (let e = t.start[i]; e < t.start[i + 1]; e++) { triples.add(id, all.chunk[e], all.count[e]); if (all.chunk[e] > top) top = all.chunk[e]; }
    }
    return own.merge(null, triples, Int32Array.from({ length: top + 1 }, (_, c) => c));
  }

  private entries(from: number, to: number): Entries {
    if (!this.loaded) {
      const hit = this.kept.get(from);
      if (hit && hit.chunk.length === to - from) return hit;
      const file = this.source as EntryReader;
      if (this.kept.size < READS_BEFORE_LOADING) {
        const e = file(from, to);
        this.kept.set(from, e);
        return e;
      }
      this.loaded = file(0, this.size);
      this.kept.clear();
    }
    const e = this.loaded;
    return { chunk: e.chunk.subarray(from, to), count: e.count.subarray(from, to) };
  }

  static empty(): Postings {
    return new Postings([], new Int32Array(1), { chunk: new Int32Array(0), count: new Int32Array(0) });
  }

  /** How many entries all keys hold together. */
  get size(): number {
    return this.start[this.keys.length];
  }

  /** Entries [from, to) of `key`, or null. */
  range(key: string): [number, number] | null {
    let lo = 0;
    let hi = this.keys.length - 1;
    // An ASCII key (most terms) is compared with the packed bytes: a long query looks up thousands.
    if (this.keys instanceof PackedStrings && !NON_ASCII.test(key)) {
      const keys = this.keys;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const d = keys.compareAscii(mid, key);
        if (d === 0) return [this.start[mid], this.start[mid + 1]];
        if (d < 0) lo = mid + 1; else hi = mid - 1;
      }
      return null;
    }
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const k = this.keys.at(mid)!;
      if (k === key) return [this.start[mid], this.start[mid + 1]];
      if (k < key) lo = mid + 1; else hi = mid - 1;
    }
    return null;
  }

  /** The entries of `key` (this layer's, then the tail's), or null. */
  find(key: string): Entries | null {
    const r = this.range(key);
    const own = r ? this.entries(r[0], r[1]) : null;
    const more = this.tail?.find(key) ?? null;
    if (!more || !own) return own ?? more;
    return { chunk: joined(own.chunk, more.chunk), count: joined(own.count, more.count) };
  }

  /** Every entry of this layer, in key order. */
  all(): Entries {
    return this.loaded ?? (this.source as EntryReader)(0, this.size);
  }

  /**
   * These postings with chunks renumbered by `remap` (-1 drops an entry; keys left empty go) plus the
   * triples of `added` (their rows turned into chunks by `rowChunk`), as new postings.
   */
  merge(remap: Int32Array | null, added: KeyTriples, rowChunk: Int32Array): Postings {
    if (this.tail) {
      // The tail layer's entries join the added ones as rows past rowChunk's (each renumbered by remap), so the
      // base is merged once: not flat() (a copy of every list) and merged again (a second copy, then a re-sort
      // of every list a changed file's chunks are in).
      const t = this.tail.flat();
      const all = t.all();
      const both = new KeyTriples(added.wide);
      let top = -1;
      for (let e = 0; e < all.chunk.length; e++) if (all.chunk[e] > top) top = all.chunk[e];
      const rows = rowChunk.length;
      added.forEach((key, row, count) => { both.add(both.id(added.keys[key]), row, count); });
      for (let i = 0; i < t.keys.length; i++) {
        const id = both.id(t.keys.at(i)!);
        for (let e = t.start[i]; e < t.start[i + 1]; e++) both.add(id, rows + all.chunk[e], all.count[e]);
      }
      const chunks = new Int32Array(rows + top + 1);
      chunks.set(rowChunk);
      for (let c = 0; c <= top; c++) chunks[rows + c] = remap ? (c < remap.length ? remap[c] : -1) : c;
      return this.withTailLayer(null).merge(remap, both, chunks);
    }
    // The added keys in sorted order, and their triples grouped by key (a counting sort).
    const order = added.order();
    const rank = new Int32Array(added.keys.length);
    order.forEach((id, r) => { rank[id] = r; });
    const groupStart = new Int32Array(added.keys.length + 1);
    added.forEach((key) => { groupStart[rank[key] + 1]++; });
    for (let r = 0; r < added.keys.length; r++) groupStart[r + 1] += groupStart[r];
    const fill = groupStart.slice(0, -1);
    const addChunk = new Int32Array(added.length);
    // Counts keep their width: 16 bits (terms, saturating) or 32 (defined names' places).
    const addCount = added.wide ? new Int32Array(added.length) : new Uint16Array(added.length);
    added.forEach((key, row, count) => {
      const r = rank[key];
      addChunk[fill[r]] = rowChunk[row];
      addCount[fill[r]++] = count;
    });
    // Each key's added entries by chunk (rows come in the order they were indexed, not of their chunks).
    const scratch = new MergeScratch();
    for (let r = 0; r < added.keys.length; r++) ascendByChunk(addChunk, addCount, groupStart[r], groupStart[r + 1], scratch);
    // A first build (nothing to merge with, no entry dropped, no key left empty): the grouped arrays are the postings.
    if (this.keys.length === 0 && addChunk.every((c) => c >= 0) && groupStart.every((g, r) => r === 0 || g > groupStart[r - 1])) {
      const out = new PackedStringsBuilder();
      for (const id of order) out.add(added.keys[id]);
      return new Postings(out.build(), groupStart, { chunk: addChunk, count: addCount });
    }
    const old = this.all();
    const keys = PackedStrings.of(this.keys);
    const n = keys.length;
    // Where each added key goes among the old keys (binary search: the old keys are never all decoded).
    const newKeys = order.map((id) => added.keys[id]);
    const place = newKeys.map((k) => this.lowerBound(k));
    const exact = newKeys.map((k, r) => place[r] < n && keys.at(place[r]) === k);
    const out = new PackedStringsBuilder();
    const starts = new Int32Array(n + newKeys.length + 1);
    let nk = 0;
    const size = old.chunk.length + added.length;
    const chunk = new Int32Array(size);
    const wide = old.count instanceof Int32Array;
    const count = wide ? new Int32Array(size) : new Uint16Array(size);
    const cap = wide ? 0x7fffffff : COUNT_MAX;
    let at = 0;
    const takeAdded = (r: number) => {
      for (let e = groupStart[r]; e < groupStart[r + 1]; e++) {
        if (addChunk[e] >= 0) { chunk[at] = addChunk[e]; count[at++] = Math.min(addCount[e], cap); }
      }
    };
    let j = 0;
    for (let i = 0; i <= n; i++) {
      // Added keys that sort before old key i.
      for (; j < newKeys.length && place[j] === i && !exact[j]; j++) {
        const begin = at;
        takeAdded(j);
        if (at > begin) { out.add(newKeys[j]); starts[++nk] = at; }
      }
      if (i === n) break;
      // The renumbered entries and the added ones (each key's ascending) merged by chunk as they are
      // copied (an added entry before an old one only below it), so every list ascends, as a first
      // build's (term-counts.ts termBm25s walks only those). Renumbered entries out of order (a
      // compaction puts appended files' chunks back in file order) are merged after.
      const begin = at;
      let a = 0;
      let aEnd = 0;
      if (j < newKeys.length && place[j] === i) { a = groupStart[j]; aEnd = groupStart[++j]; }
      let ordered = true;
      let last = -1;
      let below = a < aEnd ? addChunk[a] : 0x7fffffff;
      for (let e = this.start[i]; e < this.start[i + 1]; e++) {
        const c = remap ? remap[old.chunk[e]] : old.chunk[e];
        if (c < 0) continue;
        if (c > below) {
          for (; a < aEnd && addChunk[a] < c; a++) if (addChunk[a] >= 0) { chunk[at] = addChunk[a]; count[at++] = Math.min(addCount[a], cap); }
          below = a < aEnd ? addChunk[a] : 0x7fffffff;
        }
        if (c < last) ordered = false;
        last = c;
        chunk[at] = c;
        count[at++] = old.count[e];
      }
      for (; a < aEnd; a++) if (addChunk[a] >= 0) { chunk[at] = addChunk[a]; count[at++] = Math.min(addCount[a], cap); }
      if (!ordered) ascendByChunk(chunk, count, begin, at, scratch);
      if (at > begin) { out.addFrom(keys, i, i + 1); starts[++nk] = at; }
    }
    // Every entry kept (a first build): the arrays as they are, no copy.
    const fit = <T extends Int32Array | Uint16Array>(a: T) => (at === size ? a : a.slice(0, at) as T);
    return new Postings(out.build(), starts.slice(0, nk + 1), { chunk: fit(chunk), count: fit(count) });
  }

  /** The first key index whose key is not below `key`. */
  private lowerBound(key: string): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.keys.at(mid)! < key) lo = mid + 1; else hi = mid;
    }
    return lo;
  }
}

/** Scratch arrays for ascendByChunk, grown as needed, for one merge. */
class MergeScratch {
  chunk = new Int32Array(0);
  wide = new Int32Array(0);
  narrow = new Uint16Array(0);

  /** Scratch of at least n entries, counts as wide as `count`. */
  take(n: number, count: Int32Array | Uint16Array): [Int32Array, Int32Array | Uint16Array] {
    if (this.chunk.length < n) this.chunk = new Int32Array(Math.max(n, 2 * this.chunk.length));
    if (count instanceof Int32Array) {
      if (this.wide.length < n) this.wide = new Int32Array(Math.max(n, 2 * this.wide.length));
      return [this.chunk.subarray(0, n), this.wide.subarray(0, n)];
    }
    if (this.narrow.length < n) this.narrow = new Uint16Array(Math.max(n, 2 * this.narrow.length));
    return [this.chunk.subarray(0, n), this.narrow.subarray(0, n)];
  }
}

/**
 * Entries [from, to) in ascending chunk order, a chunk's entries in the order they came (a stable
 * merge of their ascending runs, two by two, through `scratch`): a list that ascends already costs one
 * look an entry (merge asks only of a list it saw out of order).
 */
function ascendByChunk(chunk: Int32Array, count: Int32Array | Uint16Array, from: number, to: number, scratch: MergeScratch): void {
  let e = from + 1;
  while (e < to && chunk[e - 1] <= chunk[e]) e++;
  if (e >= to) return;
  // The list's runs, ends counted from `from`, merged back and forth between the list and a scratch copy.
  const ends = [e - from];
  for (e++; e < to; e++) if (chunk[e] < chunk[e - 1]) ends.push(e - from);
  ends.push(to - from);
  const n = to - from;
  let srcC: Int32Array = chunk.subarray(from, to);
  let srcN: Int32Array | Uint16Array = count.subarray(from, to);
  let [dstC, dstN] = scratch.take(n, count);
  const listC = srcC;
  while (ends.length > 1) {
    let lo = 0;
    let runs = 0;
    for (let r = 0; r < ends.length; r += 2) {
      const mid = ends[r];
      const hi = r + 1 < ends.length ? ends[r + 1] : mid;
      let i = lo;
      let j = mid;
      let o = lo;
      while (i < mid && j < hi) {
        if (srcC[j] < srcC[i]) { dstC[o] = srcC[j]; dstN[o++] = srcN[j++]; } else { dstC[o] = srcC[i]; dstN[o++] = srcN[i++]; }
      }
      for (; i < mid; i++) { dstC[o] = srcC[i]; dstN[o++] = srcN[i]; }
      for (; j < hi; j++) { dstC[o] = srcC[j]; dstN[o++] = srcN[j]; }
      ends[runs++] = hi;
      lo = hi;
    }
    ends.length = runs;
    [srcC, dstC] = [dstC, srcC];
    [srcN, dstN] = [dstN, srcN];
  }
  if (srcC !== listC) { chunk.set(srcC, from); count.set(srcN, from); }
}
