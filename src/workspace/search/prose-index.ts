// Prose documents' line terms from the index's statistics file (snapshot/prose-stats-file.ts), for one
// query at a time: each document's postings of the query's keys and grams only, packed as a counted
// document's are (rank/prose-lines-build.ts packProseLines), so its statistics and the bound that visits
// no line are exactly those of the whole document for that query, and the bound from its lines at most
// theirs (its grams' part taken at their most in a line), without reading its text.
import { internGram, type DocumentGrams } from '../../rank/prose-doc-grams.js';
import { internKey, packProseLines, proseTermKeys, type PackedProseLines } from '../../rank/prose-lines-build.js';
import { gramKey } from '../../rank/lexical/grams.js';
import type { ProseLineTerms, ProsePlanTerms } from '../../types.js';
import { BLANK_BIT, decodeGramPostings, decodePostings, NO_STATS, gramName, type DecodedGramPostings, type DecodedPostings } from '../snapshot/prose-stats-file.js';
import type { ProseStatsLayer, ProseStatsLayers } from '../snapshot/prose-stats-layers.js';
import { DamagedFileError } from '../snapshot/section-file.js';
import { readLineGrams } from './prose-read-grams.js';

/** A query's postings in one document: per key id its (line, count) pairs; per gram id its document frequency and most in a line. */
interface Found { keys: Map<number, Int32Array>; grams: Map<number, { df: number; most: number }> }

/**
 * Decoded postings kept by a process that searches again (most of a query's grams, and many of its
 * words, come back in the next): up to this many bytes, the least recently used dropped first.
 */
const DECODED_BYTES = 16 << 20;

export class ProseIndexLines {
  private readonly decoded = new Map<number, Decoded>();
  /** Each document's line lengths and blank lines, as packProseLines takes them (5 bytes a line). */
  private readonly shapes = new Map<number, { lengths: Uint32Array; blank: Uint8Array }>();
  private decodedBytes = 0;
  private made: { terms: ProsePlanTerms['terms']; grams: readonly string[] | undefined; found: Map<number, Found>; packed: Map<number, PackedProseLines> } | null = null;
  /**
   * `file`: the base file and its delta, null when there is neither; `damaged`: why they could not be
   * opened (a section failed its checksum), or set once a block fails: nothing more is taken from them
   * (the documents are counted).
   */
  constructor(readonly file: ProseStatsLayers | null, public damaged: string | null = null) {}

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

  /**
   * linesOf's, with the grams of its lines that hold a key counted from the document's `bytes`
   * (prose-read-grams.ts) instead of each at its most in the document: the bound on its best line
   * (rank/prose-lines.ts proseBest) is then their own lexical score; linesOf gives them for the rest
   * of this query. Null where linesOf's is, or when the bytes are not the indexed document's.
   */
  async linesRead(state: string, plan: ProsePlanTerms, bytes: Uint8Array): Promise<ProseLineTerms | null> {
    const lines = this.linesOf(state, plan) as PackedProseLines | null;
    if (!lines || !this.made) return null;
    const doc = this.file!.docOf(state)!;
    const found = this.made.found.get(doc);
    const grams = await readLineGrams(bytes, state.slice(state.lastIndexOf('\0') + 1), lines, heldLines(found), plan);
    if (!grams) return null;
    // The same line terms, kept for this query, with their grams exact: proseBest's answer kept for the bound is dropped.
    lines.grams = grams;
    lines.plan = null;
    return lines;
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
    file.layers.forEach((layer, l) => {
      for (const key of proseTermKeys(plan)) {
        const i = layer.file.find(key);
        if (i < 0) continue;
        const id = internKey(key);
        const d = this.postings(layer, l, i);
        for (let k = 0; k < d.docs.length; k++) at(d.docs[k] + layer.first).keys.set(id, d.pairs.subarray(d.start[k], d.start[k + 1]));
      }
      for (const g of plan.prose?.grams ?? []) {
        const k = gramKey(g);
        const i = layer.file.find('g' + gramName(k));
        if (i < 0) continue;
        const id = internGram(k);
        const d = this.gramPostings(layer, l, i);
        for (let j = 0; j < d.docs.length; j++) at(d.docs[j] + layer.first).grams.set(id, { df: d.df[j], most: d.most[j] });
      }
    });
    return byDoc;
  }

  /** Name i's postings (a word's or a stem's) in layer l, decoded (kept, within DECODED_BYTES). */
  private postings(layer: ProseStatsLayer, l: number, i: number): DecodedPostings {
    return this.kept(2 * i + l, () => decodePostings(layer.file.postingsAt(i))) as DecodedPostings;
  }

  /** Name i's postings (a gram's) in layer l, decoded (kept, within DECODED_BYTES). */
  private gramPostings(layer: ProseStatsLayer, l: number, i: number): DecodedGramPostings {
    return this.kept(2 * i + l, () => decodeGramPostings(layer.file.postingsAt(i))) as DecodedGramPostings;
  }

  private kept(i: number, decode: () => Decoded): Decoded {
    const hit = this.decoded.get(i);
    if (hit) {
      this.decoded.delete(i);
      this.decoded.set(i, hit);
      return hit;
    }
    const d = decode();
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
    packed.grams = gramsOf(found);
    return packed;
  }
}

/** The lines that hold one of the query's keys. */
function heldLines(found: Found | undefined): Uint16Array {
  const held = new Set<number>();
  for (const pairs of found?.keys.values() ?? []) for (let j = 0; j < pairs.length; j += 2) held.add(pairs[j]);
  return Uint16Array.from(held).sort();
}

type Decoded = DecodedPostings | DecodedGramPostings;
const bytesOf = (d: Decoded): number => ('pairs' in d ? d.start.byteLength + d.pairs.byteLength : d.df.byteLength + d.most.byteLength) + d.docs.byteLength;

/**
 * A document's grams among the query's: each one's document frequency and most in a line (exact, as
 * prose-doc-grams.ts documentGrams counts them), and as its lines every line that holds a query key
 * (the only lines whose grams score: rank/prose.ts proseLexical) at that most, so the grams' part of the
 * bound on its best line (rank/prose-lines.ts proseBest) is at least what any line's grams give. The
 * lines are laid out when first asked (MostGrams): most documents are ranked by their bound that visits
 * no line (proseReach: the ids, frequencies and mosts only), and a pasted file's grams are ~100 times
 * its key lines.
 */
function gramsOf(found: Found | undefined): DocumentGrams {
  const grams = found?.grams;
  const gramId = Int32Array.from(grams?.keys() ?? []).sort();
  const gramDf = new Uint16Array(gramId.length);
  const gramMost = new Uint32Array(gramId.length);
  gramId.forEach((gid, i) => {
    const g = grams!.get(gid)!;
    gramDf[i] = g.df;
    gramMost[i] = g.most;
  });
  return new MostGrams(gramId, gramDf, gramMost, found);
}

/** gramsOf's grams: each at its most in every line that holds a key, laid out on first use. */
class MostGrams implements DocumentGrams {
  slot = -1;
  private byLine: { lineStart: Int32Array; line: Uint16Array; count: Uint32Array } | null = null;
  constructor(readonly gramId: Int32Array, readonly gramDf: Uint16Array, readonly gramMost: Uint32Array, private found: Found | undefined) {}
  get lineStart(): Int32Array { return this.lines().lineStart; }
  get line(): Uint16Array { return this.lines().line; }
  get count(): Uint32Array { return this.lines().count; }

  private lines(): { lineStart: Int32Array; line: Uint16Array; count: Uint32Array } {
    if (this.byLine) return this.byLine;
    const n = this.gramId.length;
    const lines = heldLines(this.found);
    this.found = undefined;
    const lineStart = new Int32Array(n + 1);
    const line = new Uint16Array(n * lines.length);
    const count = new Uint32Array(n * lines.length);
    for (let i = 0; i < n; i++) {
      line.set(lines, i * lines.length);
      count.fill(this.gramMost[i], i * lines.length, (i + 1) * lines.length);
      lineStart[i + 1] = (i + 1) * lines.length;
    }
    return (this.byLine = { lineStart, line, count });
  }
}
