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
  /** Per identifier id: its lower-cased key's id, then its part stems' ids (worked out once). */
  private readonly termsOf: Int32Array[] = [];
  /** A chunk's stem counts by stem id, and which ids it touched (reset after each chunk). */
  private stemCount = new Int32Array(256);
  private readonly touched: number[] = [];

  /** Records a chunk's identifiers (ids of this.identifiers, with their counts) as row `row`. */
  add(row: number, chunk: ChunkIdentifiers): void {
    for (let j = 0; j < chunk.ids.length; j++) {
      const ident = chunk.ids[j];
      const count = chunk.counts[j];
      const ids = this.termsOf[ident] ?? this.termsOfNew(ident);
      this.lower.add(ids[0], row, count);
      for (let i = 1; i < ids.length; i++) {
        const k = ids[i];
        if (this.stemCount[k] === 0) this.touched.push(k);
        this.stemCount[k] += count;
      }
    }
    for (const k of this.touched) { this.stem.add(k, row, this.stemCount[k]); this.stemCount[k] = 0; }
    this.touched.length = 0;
  }

  private termsOfNew(ident: number): Int32Array {
    const name = this.identifiers.names[ident];
    const parts = identifierParts(name);
    const ids = new Int32Array(parts.length + 1);
    ids[0] = this.lower.id(name.toLowerCase());
    parts.forEach((p, i) => { ids[i + 1] = this.stem.id(stem(p)); });
    this.termsOf[ident] = ids;
    if (this.stem.keys.length > this.stemCount.length) this.stemCount = resized(this.stemCount, this.stem.keys.length * 2);
    return ids;
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
