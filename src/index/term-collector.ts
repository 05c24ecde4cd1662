// New chunks' terms on their way into the snapshot's postings: each identifier is counted under its
// lower-cased form and under the stems of its parts (as countTerms counts them), as flat
// (key, row, count) triples over interned keys, so a million-line build holds no per-chunk maps.
import { identifierParts, stem } from '../rank/lexical/terms.js';

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

  add(key: number, row: number, n: number): void {
    if (this.length === this.key.length) {
      const grow = (a: Int32Array) => { const b = new Int32Array(a.length * 2); b.set(a); return b; };
      this.key = grow(this.key); this.row = grow(this.row); this.count = grow(this.count);
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
  private readonly stemsOf = new Map<string, Int32Array>();

  /** Records a chunk's identifiers (with their counts) as row `row`. */
  add(row: number, identifiers: Map<string, number>): void {
    const here = new Map<number, number>();
    for (const [ident, count] of identifiers) {
      this.lower.add(this.lower.id(ident.toLowerCase()), row, count);
      let stems = this.stemsOf.get(ident);
      if (!stems) {
        stems = Int32Array.from(identifierParts(ident), (p) => this.stem.id(stem(p)));
        this.stemsOf.set(ident, stems);
      }
      for (const k of stems) here.set(k, (here.get(k) ?? 0) + count);
    }
    for (const [k, n] of here) this.stem.add(k, row, n);
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
