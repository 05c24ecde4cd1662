// New chunks' terms on their way into the snapshot's postings: each identifier is counted under its
// folded (lower-cased) form and under the stems of its parts (as countTerms counts them), as flat
// (key, row, count) triples over interned keys, so a million-line build holds no per-chunk maps
// (6 bytes a triple: a 1M-line build has about 7M; with a spill directory, full blocks of them wait
// on disk).
import { identifierParts, stem } from '../../rank/lexical/terms.js';
import { fold } from '../../rank/lexical/words.js';
import type { ChunkIdentifiers } from './chunk-features.js';
import { IdentifierTable } from '../packed/identifier-table.js';
import { KeyTriples } from './key-triples.js';
import { resized } from '../packed/typed-arrays.js';

export interface TermCollectorOptions {
  /** Where full blocks of triples wait until they are merged (a big build's ~40 MB); none: in memory. */
  spillDir?: string;
}

export class TermCollector {
  readonly lower: KeyTriples;
  readonly stem: KeyTriples;
  /** Defined names by lower-cased name (and, for $names, without the $) and by part stem; the count is the name's place among its chunk's names. */
  readonly defLower: KeyTriples;
  readonly defStem: KeyTriples;
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

  constructor(o: TermCollectorOptions = {}) {
    this.lower = new KeyTriples(false, o.spillDir);
    this.stem = new KeyTriples(false, o.spillDir);
    this.defLower = new KeyTriples(true, o.spillDir);
    this.defStem = new KeyTriples(true, o.spillDir);
  }

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
    this.termIds[this.termIdsUsed++] = this.lower.id(fold(name));
    for (const p of parts) this.termIds[this.termIdsUsed++] = this.stem.id(stem(p));
    this.termStart[ident + 1] = this.termIdsUsed;
    if (this.stem.keys.length > this.stemCount.length) this.stemCount = resized(this.stemCount, this.stem.keys.length * 2);
  }

  /** Records a chunk's defined names (in their order) as row `row`. */
  addDefs(row: number, names: string[]): void {
    names.forEach((name, place) => {
      // Folded as the terms and the scan's symbolScore fold it (left37).
      const lower = fold(name);
      this.defLower.add(this.defLower.id(lower), row, place);
      const bare = lower.replace(/^\$+/, '');
      if (bare !== lower) this.defLower.add(this.defLower.id(bare), row, place);
      for (const k of new Set(identifierParts(name).map(stem))) this.defStem.add(this.defStem.id(k), row, place);
    });
  }
}
