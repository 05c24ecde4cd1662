// What the index keeps of a chunk's text so the ranker's lexical signals can be recomputed for any
// query without the text: its identifiers with counts (BM25 term frequencies), the names its lines
// define (symbol boosts), its length in characters (BM25 document length) and whether it is blank.
import { definedName } from '../../rank/definitions.js';
import { isAscii, textWords } from '../../rank/lexical/words.js';
import { HASH_START, hashOf, hashStep } from '../packed/hashed-ids.js';
import { ownString, type IdentifierTable } from '../packed/identifier-table.js';
import { resized } from '../packed/typed-arrays.js';

/** A chunk's distinct identifiers (ids in an IdentifierTable) and how often each occurs. */
export interface ChunkIdentifiers {
  ids: Int32Array;
  counts: Int32Array;
}

export interface ChunkFeatures {
  /** Sum of the lines' lengths (UTF-16 units, terminators excluded), as chunkStats counts them. */
  chars: number;
  /** True when every line is blank (such a chunk has no line to show in lexical mode). */
  blank: boolean;
  /** Identifier occurrences (textWords: on an ASCII line, each maximal [A-Za-z0-9_] run without its leading digits), with counts. */
  identifiers: ChunkIdentifiers;
  /** Names defined by the chunk's lines (definedName), distinct. */
  definitions: string[];
}

export function chunkFeatures(lines: string[], table: IdentifierTable): ChunkFeatures {
  const definitions = new Set<string>();
  let chars = 0;
  let blank = true;
  const counter = counterFor(table);
  for (const line of lines) {
    chars += line.length;
    if (blank && line.trim() !== '') blank = false;
    const name = definedName(line, counter.line(line));
    if (name) definitions.add(ownString(name));
  }
  return { chars, blank, identifiers: counter.done(), definitions: [...definitions] };
}

/** Counts identifiers line by line into ids of `table` (one counter a table, reused chunk after chunk). */
class IdentifierCounter {
  private count = new Int32Array(1024);
  private readonly touched: number[] = [];

  constructor(private readonly table: IdentifierTable) {}

  /**
   * The identifiers countTerms would expand a match to: ident-char runs with leading digits dropped,
   * each hashed as it is scanned. Returns whether the line is ASCII.
   */
  line(text: string): boolean {
    if (!isAscii(text)) {
      for (const word of textWords(text)) this.counted(this.table.idOfHashed(word, 0, word.length, hashOf(word)));
      return false;
    }
    const n = text.length;
    let i = 0;
    while (i < n) {
      let c = text.charCodeAt(i);
      if (!isIdentChar(c)) { i++; continue; }
      while (isDigit(c) && ++i < n) c = text.charCodeAt(i);
      const s = i;
      let h = HASH_START;
      while (i < n && isIdentChar(c = text.charCodeAt(i))) { h = hashStep(h, c); i++; }
      if (s < i) this.counted(this.table.idOfHashed(text, s, i, h));
    }
    return true;
  }

  private counted(id: number): void {
    if (id >= this.count.length) this.count = resized(this.count, Math.max(id + 1, this.count.length * 2));
    if (this.count[id]++ === 0) this.touched.push(id);
  }

  done(): ChunkIdentifiers {
    const n = this.touched.length;
    const ids = new Int32Array(n);
    const counts = new Int32Array(n);
    for (let k = 0; k < n; k++) {
      const id = this.touched[k];
      ids[k] = id;
      counts[k] = this.count[id];
      this.count[id] = 0;
    }
    this.touched.length = 0;
    return { ids, counts };
  }
}

const counters = new WeakMap<IdentifierTable, IdentifierCounter>();

function counterFor(table: IdentifierTable): IdentifierCounter {
  let c = counters.get(table);
  if (!c) { c = new IdentifierCounter(table); counters.set(table, c); }
  return c;
}

function isIdentChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
