// Prose documents' line terms from the index's statistics file (snapshot/prose-stats-file.ts), for one
// query at a time: each document's postings of the query's keys and grams only, packed as a counted
// document's are (rank/prose-lines-build.ts packProseLines), so its statistics and the bounds on its
// best line are exactly those of the whole document for that query, without reading its text.
import { internGram, type DocumentGrams } from '../../rank/prose-doc-grams.js';
import { internKey, packProseLines, type PackedProseLines } from '../../rank/prose-lines-build.js';
import { gramKey } from '../../rank/lexical/grams.js';
import type { ProseLineTerms, ProsePlanTerms } from '../../types.js';
import { BLANK_BIT, decodePostings, NO_STATS, gramName, type DecodedPostings, type ProseStatsFile } from '../snapshot/prose-stats-file.js';
import { DamagedFileError } from '../snapshot/section-file.js';

/** A query's postings in one document: per key id and per gram id, its (line, count) pairs. */
interface Found { keys: Map<number, Int32Array>; grams: Map<number, Int32Array> }

/**
 * Decoded postings kept by a process that searches again (most of a query's grams, and many of its
 * words, come back in the next): up to this many bytes, the least recently used dropped first.
 */
const DECODED_BYTES = 16 << 20;

export class ProseIndexLines {
  private readonly decoded = new Map<number, DecodedPostings>();
  /** Each document's line lengths and blank lines, as packProseLines takes them (5 bytes a line). */
  private readonly shapes = new Map<number, { lengths: Uint32Array; blank: Uint8Array }>();
  private decodedBytes = 0;
  private made: { terms: ProsePlanTerms['terms']; grams: readonly string[] | undefined; found: Map<number, Found>; packed: Map<number, PackedProseLines> } | null = null;
  /**
   * `file`: null when there is none; `damaged`: why it could not be opened (a section failed its
   * checksum), or set once a block of it fails: nothing more is taken from it (the documents are counted).
   */
  constructor(readonly file: ProseStatsFile | null, public damaged: string | null = null) {}

  /** A document's line terms for `plan`'s keys and grams; null when the file holds none of this state. */
  linesOf(state: string, plan: ProsePlanTerms): ProseLineTerms | null {
    if (this.damaged || !this.file) return null;
    const doc = this.file.docOf(state);
    if (doc === undefined || this.file.docs(doc) === NO_STATS) return null;
    let made = this.made;
    if (!made || made.terms !== plan.terms || made.grams !== plan.prose?.grams) {
      try {
        made = this.made = { terms: plan.terms, grams: plan.prose?.grams, found: this.find(plan), packed: new Map() };
      } catch (e) {
        if (!(e instanceof DamagedFileError)) throw e;
        this.damaged = e.message;
        return null;
      }
    }
    let packed = made.packed.get(doc);
    if (!packed) made.packed.set(doc, (packed = this.pack(doc, made.found.get(doc))));
    return packed;
  }

  /** The query's postings, by document. */
  private find(plan: ProsePlanTerms): Map<number, Found> {
    const file = this.file!;
    const byDoc = new Map<number, Found>();
    const at = (doc: number) => {
      let f = byDoc.get(doc);
      if (!f) byDoc.set(doc, (f = { keys: new Map(), grams: new Map() }));
      return f;
    };
    for (const term of plan.terms) {
      const key = (term.whole ? 'w' : 's') + term.key;
      const i = file.find(key);
      if (i < 0) continue;
      const id = internKey(key);
      const d = this.postings(i);
      for (let k = 0; k < d.docs.length; k++) at(d.docs[k]).keys.set(id, d.pairs.subarray(d.start[k], d.start[k + 1]));
    }
    for (const g of plan.prose?.grams ?? []) {
      const k = gramKey(g);
      const i = file.find('g' + gramName(k));
      if (i < 0) continue;
      const id = internGram(k);
      const d = this.postings(i);
      for (let j = 0; j < d.docs.length; j++) at(d.docs[j]).grams.set(id, d.pairs.subarray(d.start[j], d.start[j + 1]));
    }
    return byDoc;
  }

  /** Name i's postings, decoded (kept, within DECODED_BYTES). */
  private postings(i: number): DecodedPostings {
    const hit = this.decoded.get(i);
    if (hit) {
      this.decoded.delete(i);
      this.decoded.set(i, hit);
      return hit;
    }
    const d = decodePostings(this.file!.postingsAt(i));
    const size = bytesOf(d);
    if (size > DECODED_BYTES / 4) return d;
    this.decoded.set(i, d);
    this.decodedBytes += size;
    for (const [j, old] of this.decoded) {
      if (this.decodedBytes <= DECODED_BYTES) break;
      this.decoded.delete(j);
      this.decodedBytes -= bytesOf(old);
    }
    return d;
  }

  private pack(doc: number, found: Found | undefined): PackedProseLines {
    const file = this.file!;
    let shape = this.shapes.get(doc);
    if (!shape) {
      const stored = file.lengths(doc);
      shape = { lengths: new Uint32Array(stored.length), blank: new Uint8Array(stored.length) };
      for (let i = 0; i < stored.length; i++) {
        shape.lengths[i] = stored[i] & ~BLANK_BIT;
        shape.blank[i] = (stored[i] & BLANK_BIT) !== 0 ? 1 : 0;
      }
      this.shapes.set(doc, shape);
    }
    const { lengths, blank } = shape;
    const ids = Int32Array.from(found?.keys.keys() ?? []).sort();
    const packed = packProseLines({ lengths, blank, docs: file.docs(doc), chars: file.chars(doc) }, ids, (id) => found!.keys.get(id)!);
    packed.grams = gramsOf(found?.grams);
    return packed;
  }
}

const bytesOf = (d: DecodedPostings): number => d.docs.byteLength + d.start.byteLength + d.pairs.byteLength;

/** A document's grams among the query's, as prose-doc-grams.ts documentGrams counts them (not registered: found per document). */
function gramsOf(grams: Map<number, Int32Array> | undefined): DocumentGrams {
  const gramId = Int32Array.from(grams?.keys() ?? []).sort();
  const gramDf = new Uint16Array(gramId.length);
  const gramMost = new Uint32Array(gramId.length);
  const lineStart = new Int32Array(gramId.length + 1);
  const line: number[] = [];
  const count: number[] = [];
  gramId.forEach((gid, i) => {
    const pairs = grams!.get(gid)!;
    let most = 0;
    for (let j = 0; j < pairs.length; j += 2) { line.push(pairs[j]); count.push(pairs[j + 1]); most = Math.max(most, pairs[j + 1]); }
    gramDf[i] = pairs.length >> 1;
    gramMost[i] = most;
    lineStart[i + 1] = line.length;
  });
  return { slot: -1, gramId, gramDf, gramMost, lineStart, line: Uint16Array.from(line), count: Uint32Array.from(count) };
}
