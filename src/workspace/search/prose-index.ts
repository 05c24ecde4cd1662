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

/**
 * A query's postings in one document: its key ids (ascending) and each one's (line, count) pairs; its
 * gram ids (ascending) with each one's document frequency and most in a line. Views into one query's
 * columns (QueryPostings), not a map per document: a pasted file's 24 terms and ~100 grams are in most
 * of a tree's documents, and a map entry per document, key and gram was most of a cold search's time here.
 */
interface Found { keyId: Int32Array; pairs: (k: number) => Int32Array; gramId: Int32Array; gramDf: Uint16Array; gramMost: Uint32Array }

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
  private made: { terms: ProsePlanTerms['terms']; grams: readonly string[] | undefined; found: QueryPostings; packed: Map<number, PackedProseLines> } | null = null;
  /**
   * `file`: the base file and its delta, null when there is neither; `damaged`: why they could not be
   * opened (a section failed its checksum), or set once a block fails: nothing more is taken from them
   * (the documents are counted).
   */
  /** `damaged`: why the file is not read (a failed check, or `outdated`: another simgrep's format); its documents are counted as a scan counts them. */
  constructor(readonly file: ProseStatsLayers | null, public damaged: string | null = null, readonly outdated = false) {}

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
    if (!packed) made.packed.set(doc, (packed = this.pack(doc, made.found.of(doc))));
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
    const found = this.made.found.of(doc);
    const grams = await readLineGrams(bytes, state.slice(state.lastIndexOf('\0') + 1), lines, heldLines(found), plan);
    if (!grams) return null;
    // The same line terms, kept for this query, with their grams exact: proseBest's answer kept for the bound is dropped.
    lines.grams = grams;
    lines.plan = null;
    return lines;
  }

  /** The query's postings, by document. */
  private find(plan: ProsePlanTerms): QueryPostings {
    const file = this.file!;
    const keys: { id: number; d: DecodedPostings; first: number }[] = [];
    const grams: { id: number; d: DecodedGramPostings; first: number }[] = [];
    file.layers.forEach((layer, l) => {
      const asked = new Set<string>();
      for (const key of proseTermKeys(plan)) {
        const i = asked.has(key) ? -1 : layer.file.find(key);
        asked.add(key);
        if (i >= 0) keys.push({ id: internKey(key), d: this.postings(layer, l, i), first: layer.first });
      }
      for (const g of plan.prose?.grams ?? []) {
        const k = gramKey(g);
        const name = 'g' + gramName(k);
        const i = asked.has(name) ? -1 : layer.file.find(name);
        asked.add(name);
        if (i >= 0) grams.push({ id: internGram(k), d: this.gramPostings(layer, l, i), first: layer.first });
      }
    });
    const last = file.layers[file.layers.length - 1];
    return new QueryPostings(last ? last.first + last.file.docCount : 0, keys, grams);
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

  private pack(doc: number, found: Found): PackedProseLines {
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
    const packed = packProseLines({ lengths, blank, docs: file.docs(doc), chars: file.chars(doc) }, found.keyId, (_, k) => found.pairs(k));
    packed.grams = new MostGrams(found.gramId, found.gramDf, found.gramMost, found);
    return packed;
  }
}

/** The lines that hold one of the query's keys. */
function heldLines(found: Found | undefined): Uint16Array {
  const held = new Set<number>();
  for (let k = 0; k < (found?.keyId.length ?? 0); k++) {
    const pairs = found!.pairs(k);
    for (let j = 0; j < pairs.length; j += 2) held.add(pairs[j]);
  }
  return Uint16Array.from(held).sort();
}

type Decoded = DecodedPostings | DecodedGramPostings;
const bytesOf = (d: Decoded): number => ('pairs' in d ? d.start.byteLength + d.pairs.byteLength : d.df.byteLength + d.most.byteLength) + d.docs.byteLength;

/**
 * The query's postings by document, in columns: each document's keys (and their postings and place
 * in them), then its grams, at [keyStart[doc], keyStart[doc + 1]) and [gramStart[doc], gramStart[doc + 1]),
 * in ascending id order (the postings are laid out in that order: a counting sort by document).
 */
class QueryPostings {
  private readonly keyStart: Int32Array;
  private readonly keyId: Int32Array;
  /** Per entry: which of `keys` it is from, and the document's place in that key's postings. */
  private readonly keyFrom: Int32Array;
  private readonly keyAt: Int32Array;
  private readonly gramStart: Int32Array;
  private readonly gramId: Int32Array;
  private readonly gramDf: Uint16Array;
  private readonly gramMost: Uint32Array;

  constructor(docs: number, private readonly keys: readonly { id: number; d: DecodedPostings; first: number }[], grams: readonly { id: number; d: DecodedGramPostings; first: number }[]) {
    // Ascending ids: a document is in one layer, and find() asks for each id once a layer.
    const byId = <T extends { id: number }>(xs: readonly T[]) => xs.map((_, i) => i).sort((a, b) => xs[a].id - xs[b].id);
    const keyOrder = byId(keys);
    const gramOrder = byId(grams);
    this.keyStart = startsByDocument(docs, keys);
    const nKeys = this.keyStart[docs];
    this.keyId = new Int32Array(nKeys);
    this.keyFrom = new Int32Array(nKeys);
    this.keyAt = new Int32Array(nKeys);
    const filled = new Int32Array(docs);
    for (const x of keyOrder) {
      const { id, d, first } = keys[x];
      for (let k = 0; k < d.docs.length; k++) {
        const doc = d.docs[k] + first;
        const e = this.keyStart[doc] + filled[doc]++;
        this.keyId[e] = id;
        this.keyFrom[e] = x;
        this.keyAt[e] = k;
      }
    }
    this.gramStart = startsByDocument(docs, grams);
    const nGrams = this.gramStart[docs];
    this.gramId = new Int32Array(nGrams);
    this.gramDf = new Uint16Array(nGrams);
    this.gramMost = new Uint32Array(nGrams);
    filled.fill(0);
    for (const x of gramOrder) {
      const { id, d, first } = grams[x];
      for (let j = 0; j < d.docs.length; j++) {
        const doc = d.docs[j] + first;
        const e = this.gramStart[doc] + filled[doc]++;
        this.gramId[e] = id;
        this.gramDf[e] = d.df[j];
        this.gramMost[e] = d.most[j];
      }
    }
  }

  /** Document `doc`'s postings of the query. */
  of(doc: number): Found {
    const k0 = this.keyStart[doc];
    const k1 = this.keyStart[doc + 1];
    const g0 = this.gramStart[doc];
    const g1 = this.gramStart[doc + 1];
    return {
      keyId: this.keyId.subarray(k0, k1),
      pairs: (k) => {
        const { d } = this.keys[this.keyFrom[k0 + k]];
        const at = this.keyAt[k0 + k];
        return d.pairs.subarray(d.start[at], d.start[at + 1]);
      },
      gramId: this.gramId.subarray(g0, g1),
      gramDf: this.gramDf.subarray(g0, g1),
      gramMost: this.gramMost.subarray(g0, g1),
    };
  }
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

/** Where each document's entries start when the lists' entries are laid out by document (a counting sort; a list's documents count from its layer's `first`). */
function startsByDocument(docs: number, lists: readonly { d: { docs: ArrayLike<number> }; first: number }[]): Int32Array {
  const start = new Int32Array(docs + 1);
  for (const { d, first } of lists) for (let k = 0; k < d.docs.length; k++) start[d.docs[k] + first + 1]++;
  for (let doc = 0; doc < docs; doc++) start[doc + 1] += start[doc];
  return start;
}
