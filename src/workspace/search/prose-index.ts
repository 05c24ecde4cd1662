// Prose documents' line terms from the index's statistics file (snapshot/prose-stats-file.ts), for one
// query at a time: each document's postings of the query's keys and grams only, packed as a counted
// document's are (rank/prose-lines-build.ts packProseLines), so its statistics and the bounds on its
// best line are exactly those of the whole document for that query, without reading its text.
import { internGram, type DocumentGrams } from '../../rank/prose-doc-grams.js';
import { internKey, packProseLines, type PackedProseLines } from '../../rank/prose-lines-build.js';
import { gramKey } from '../../rank/lexical/grams.js';
import type { ProseLineTerms, ProsePlanTerms } from '../../types.js';
import { BLANK_BIT, forEachPosting, gramName, type ProseStatsFile } from '../snapshot/prose-stats-file.js';
import { DamagedFileError } from '../snapshot/section-file.js';

/** A query's postings in one document: per key id and per gram id, its (line, count) pairs. */
interface Found { keys: Map<number, number[]>; grams: Map<number, number[]> }

export class ProseIndexLines {
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
    if (doc === undefined) return null;
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
      forEachPosting(file.postingsAt(i), (doc, pairs) => at(doc).keys.set(id, pairs.slice()));
    }
    for (const g of plan.prose?.grams ?? []) {
      const k = gramKey(g);
      const i = file.find('g' + gramName(k));
      if (i < 0) continue;
      const id = internGram(k);
      forEachPosting(file.postingsAt(i), (doc, pairs) => at(doc).grams.set(id, pairs.slice()));
    }
    return byDoc;
  }

  private pack(doc: number, found: Found | undefined): PackedProseLines {
    const file = this.file!;
    const stored = file.lengths(doc);
    const lengths = new Uint32Array(stored.length);
    const blank = new Array<boolean>(stored.length);
    for (let i = 0; i < stored.length; i++) {
      lengths[i] = stored[i] & ~BLANK_BIT;
      blank[i] = (stored[i] & BLANK_BIT) !== 0;
    }
    const ids = Int32Array.from(found?.keys.keys() ?? []).sort();
    const packed = packProseLines({ lengths, blank, docs: file.docs(doc), chars: file.chars(doc) }, ids, (id) => found!.keys.get(id)!);
    packed.grams = gramsOf(found?.grams);
    return packed;
  }
}

/** A document's grams among the query's, as prose-doc-grams.ts documentGrams counts them (not registered: found per document). */
function gramsOf(grams: Map<number, number[]> | undefined): DocumentGrams {
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
