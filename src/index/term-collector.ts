// New chunks' terms on their way into the snapshot's postings: each identifier is counted under its
// lower-cased form and under the stems of its parts (as countTerms counts them), as flat
// (key, row, count) triples over interned keys, so a million-line build holds no per-chunk maps.
import { identifierParts, stem } from '../rank/lexical/terms.js';
import type { ChunkIdentifiers } from './chunk-features.js';
import { IdentifierTable } from './identifier-table.js';
import { resized } from './typed-arrays.js';

/** Interned keys and growable (key, row, count) triples. */
export class KeyTriples {
  readonly keys: string[] = [];
  private readonly ids = new Map<string, number>();
  key = new Int32Array(1024);
  row = new Int32Array(1024);
  count = new Int32Array(1024);
  length = 0;

  id(k: string): number {
    let id = this.ids.get(k);
    if (id === undefined) { id = this.keys.length; this.keys.push(k); this.ids.set(k, id); }
    return id;
  }

  /** Key ids in key order (the default sort's: UTF-16 code units, as `<` compares). */
  order(): number[] {
    return this.keys.slice().sort().map((k) => this.ids.get(k)!);
  }

  add(key: number, row: number, n: number): void {
    if (this.length === this.key.length) {
      const size = this.key.length * 2;
      this.key = resized(this.key, size); this.row = resized(this.row, size); this.count = resized(this.count, size);
    }
    this.key[this.length] = key;
    this.row[this.length] = row;
    this.count[this.length++] = n;
  }
}

export class TermCollector {
  readonly lower = new KeyTriples();
  readonly stem = new KeyTriples();
  /** Defined names by lower-cased name (and, for $names, without the $) and by part stem; the count is the name's place among its chunk's names. */
  readonly defLower = new KeyTriples();
  readonly defStem = new KeyTriples();
  /** The identifiers of the chunks added (chunkFeatures counts into it). */
  readonly identifiers = new IdentifierTable();
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
