// New chunks' terms on their way into the snapshot's postings: each identifier is counted under its
// lower-cased form and under the stems of its parts (as countTerms counts them), as flat
// (key, row, count) triples over interned keys, so a million-line build holds no per-chunk maps
// (6 bytes a triple: a 1M-line build has about 7M).
import { identifierParts, stem } from '../rank/lexical/terms.js';
import type { ChunkIdentifiers } from './chunk-features.js';
import { IdentifierTable } from './identifier-table.js';
import { resized } from './typed-arrays.js';

/** A term's count saturates here, as the snapshot file stores it (BM25's term frequency saturates long before). */
export const COUNT_MAX = 0xffff;
/** Triples per storage block once the first block has grown to it: growing never copies more. */
const BLOCK_BITS = 16;
const BLOCK = 1 << BLOCK_BITS;
const IN_BLOCK = BLOCK - 1;

/**
 * Interned keys and growable (key, row, count) triples, stored compactly: keys and counts in blocks
 * (no doubling slack, no copy of the whole to grow), rows once per run of triples with one row (a
 * chunk's terms are added together). Term counts are 16 bits, saturating at COUNT_MAX (`wide`: 32,
 * for defined names' places).
 */
export class KeyTriples {
  readonly keys: string[] = [];
  /** Key -> id while keys come in; let go by settleKeys() (a million-line build's ~400k keys: ~15 MB). */
  private ids: Map<string, number> | null = new Map();
  /** The key order once worked out by settleKeys(), until a key is added. */
  private sorted: number[] | null = null;
  private readonly keyBlocks: Int32Array[] = [];
  private readonly countBlocks: (Uint16Array | Int32Array)[] = [];
  /** Run r: row runRow[r] for triples [runStart[r], runStart[r + 1]). */
  private runRow = new Int32Array(64);
  private runStart = new Int32Array(65);
  private runs = 0;
  length = 0;

  constructor(readonly wide = false) {}

  id(k: string): number {
    const ids = this.lookup();
    let id = ids.get(k);
    if (id === undefined) { id = this.keys.length; this.keys.push(k); ids.set(k, id); this.sorted = null; }
    return id;
  }

  /** Key ids in key order (the default sort's: UTF-16 code units, as `<` compares). */
  order(): number[] {
    if (this.sorted) return this.sorted;
    const ids = this.lookup();
    return this.keys.slice().sort().map((k) => ids.get(k)!);
  }

  /**
   * Works out the key order now and lets the key -> id map go, once no more keys are expected (the
   * map is made again if one comes). Sorting by key needs the map: sorting ids with a comparator
   * instead costs about 250 ms more on a million-line build.
   */
  settleKeys(): void {
    this.sorted = this.order();
    this.ids = null;
  }

  /** Lets every key and triple go (they are merged into postings; nothing reads them after). */
  clear(): void {
    this.keys.length = 0;
    this.ids = new Map();
    this.sorted = null;
    this.keyBlocks.length = 0;
    this.countBlocks.length = 0;
    this.runRow = new Int32Array(64);
    this.runStart = new Int32Array(65);
    this.runs = 0;
    this.length = 0;
  }

  private lookup(): Map<string, number> {
    return this.ids ??= new Map(this.keys.map((k, i) => [k, i]));
  }

  add(key: number, row: number, count: number): void {
    const t = this.length;
    const b = t >>> BLOCK_BITS;
    const at = t & IN_BLOCK;
    if (b === this.keyBlocks.length) {
      this.keyBlocks.push(new Int32Array(Math.min(BLOCK, 1024)));
      this.countBlocks.push(this.wide ? new Int32Array(this.keyBlocks[b].length) : new Uint16Array(this.keyBlocks[b].length));
    } else if (at === this.keyBlocks[b].length) {
      // Only the first block grows (to BLOCK): small collections stay small.
      this.keyBlocks[b] = resized(this.keyBlocks[b], at * 2);
      this.countBlocks[b] = resized(this.countBlocks[b], at * 2);
    }
    this.keyBlocks[b][at] = key;
    this.countBlocks[b][at] = this.wide || count < COUNT_MAX ? count : COUNT_MAX;
    if (this.runs === 0 || this.runRow[this.runs - 1] !== row) {
      if (this.runs === this.runRow.length) {
        this.runRow = resized(this.runRow, this.runs * 2);
        this.runStart = resized(this.runStart, this.runs * 2 + 1);
      }
      this.runRow[this.runs++] = row;
    }
    this.runStart[this.runs] = ++this.length;
  }

  /** Calls fn(key, row, count) for every triple, in the order they were added. */
  forEach(fn: (key: number, row: number, count: number) => void): void {
    for (let r = 0; r < this.runs; r++) {
      const row = this.runRow[r];
      for (let t = this.runStart[r]; t < this.runStart[r + 1]; t++) {
        fn(this.keyBlocks[t >>> BLOCK_BITS][t & IN_BLOCK], row, this.countBlocks[t >>> BLOCK_BITS][t & IN_BLOCK]);
      }
    }
  }

  /** The triples as three flat arrays (for the cluster's staged shards). */
  columns(): { key: Int32Array; row: Int32Array; count: Int32Array } {
    const key = new Int32Array(this.length);
    const row = new Int32Array(this.length);
    const count = new Int32Array(this.length);
    let t = 0;
    this.forEach((k, r, c) => { key[t] = k; row[t] = r; count[t++] = c; });
    return { key, row, count };
  }
}

export class TermCollector {
  readonly lower = new KeyTriples();
  readonly stem = new KeyTriples();
  /** Defined names by lower-cased name (and, for $names, without the $) and by part stem; the count is the name's place among its chunk's names. */
  readonly defLower = new KeyTriples(true);
  readonly defStem = new KeyTriples(true);
  /** The identifiers of the chunks added (chunkFeatures counts into it). */
  identifiers = new IdentifierTable();
  /**
   * Per identifier id, worked out once: its lower-cased key's id, then its part stems' ids, at
   * termIds[termStart[id], termStart[id + 1]) (flat: a typed array per identifier costs ~250 bytes,
   * 100 MB over a million-line build's 400k identifiers).
   */
  private termStart = new Int32Array(1024);
  private termIds = new Int32Array(4096);
  private termIdsUsed = 0;
  private termsKnown = 0;
  /** A chunk's stem counts by stem id, and which ids it touched (reset after each chunk). */
  private stemCount = new Int32Array(256);
  private readonly touched: number[] = [];

  /**
   * Lets go of what only adding needs, once the chunks are all in: the identifier table and each
   * identifier's terms (a million-line build's are ~30 MB), and each kind's key lookup (~17 MB; its
   * key order is worked out now, for the merge). Adding more still works: the identifiers start over
   * in a new table (pass the new `identifiers` to chunkFeatures).
   */
  settle(): void {
    for (const t of [this.lower, this.stem, this.defLower, this.defStem]) t.settleKeys();
    this.identifiers = new IdentifierTable();
    this.termStart = new Int32Array(1024);
    this.termIds = new Int32Array(4096);
    this.termIdsUsed = 0;
    this.termsKnown = 0;
  }

  /** Records a chunk's identifiers (ids of this.identifiers, with their counts) as row `row`. */
  add(row: number, chunk: ChunkIdentifiers): void {
    for (let j = 0; j < chunk.ids.length; j++) {
      const ident = chunk.ids[j];
      const count = chunk.counts[j];
      while (ident >= this.termsKnown) this.learnNext();
      const from = this.termStart[ident];
      const to = this.termStart[ident + 1];
      const ids = this.termIds;
      this.lower.add(ids[from], row, count);
      for (let i = from + 1; i < to; i++) {
        const k = ids[i];
        if (this.stemCount[k] === 0) this.touched.push(k);
        this.stemCount[k] += count;
      }
    }
    for (const k of this.touched) { this.stem.add(k, row, this.stemCount[k]); this.stemCount[k] = 0; }
    this.touched.length = 0;
  }

  /** Works out the terms of the next identifier not yet known (identifier ids are dense, in order of first sight). */
  private learnNext(): void {
    const ident = this.termsKnown++;
    const name = this.identifiers.names[ident];
    const parts = identifierParts(name);
    if (ident + 2 > this.termStart.length) this.termStart = resized(this.termStart, this.termStart.length * 2);
    if (this.termIdsUsed + parts.length + 1 > this.termIds.length) this.termIds = resized(this.termIds, Math.max(this.termIds.length * 2, this.termIdsUsed + parts.length + 1));
    this.termIds[this.termIdsUsed++] = this.lower.id(name.toLowerCase());
    for (const p of parts) this.termIds[this.termIdsUsed++] = this.stem.id(stem(p));
    this.termStart[ident + 1] = this.termIdsUsed;
    if (this.stem.keys.length > this.stemCount.length) this.stemCount = resized(this.stemCount, this.stem.keys.length * 2);
  }

  /** Records a chunk's defined names (in their order) as row `row`. */
  addDefs(row: number, names: string[]): void {
    names.forEach((name, place) => {
      const lower = name.toLowerCase();
      this.defLower.add(this.defLower.id(lower), row, place);
      const bare = lower.replace(/^\$+/, '');
      if (bare !== lower) this.defLower.add(this.defLower.id(bare), row, place);
      for (const k of new Set(identifierParts(name).map(stem))) this.defStem.add(this.defStem.id(k), row, place);
    });
  }
}
