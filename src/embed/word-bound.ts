// A chunk's cosine bound from its words, before its token ids are made (issue 30's cold scan: ~86% of
// the chunks tokenized were then dropped by the kernel's bound). The tokenizer names each memoised word
// by its memo entry (LineTokenizer.encodeWordsInto); each entry's weighted coordinates in the kernel's
// pruning basis are summed once, so a chunk's bound is a sum over its distinct words and odd tokens
// where the kernel's is a sum over its distinct tokens, and no id is copied, counted or pooled for a
// chunk it drops. The same multiset of tokens (unknown ids dropped, each line cut as tokenizeTexts cuts
// it), the same bound up to float order, with twice the kernel's margin: a chunk dropped here is one the
// kernel's bound drops too, so every answer stays the same.
import { createIdBuffer, type LineTokenizer, type WordTable } from '../model/tokenizer/index.js';
import type { TokenCoords } from './embedder.js';
import { BOUND_MARGIN, boundOf } from './prune-basis.js';

/** Twice the kernel's margin: what this bound drops, the kernel's (the same sum in another order) drops too. */
const WORD_BOUND_MARGIN = 2 * BOUND_MARGIN;

export interface WordBoundModel {
  /** Ids a line keeps at most (model2vec's maxLength), and the unknown id it drops (null: none). */
  maxLength: number;
  unkId: number | null;
  /** The text the tokenizer is given for a line (tokenizeTexts' cut of a long line). */
  cut(text: string): string;
}

/** Bounds chunks from their words for one tokenizer; null when the tokenizer does not name words. */
export function createWordBound(tokenizer: LineTokenizer, model: WordBoundModel): WordBound | null {
  const b = tokenizer.encodeWordsInto && tokenizer.words ? new WordBound(tokenizer, tokenizer.words, model) : null;
  if (b && process.env.WB_DEBUG) process.on('exit', () => process.stderr.write(`wordbound asked ${b.asked} dropped ${b.dropped} entries ${b.sumEntries} ids ${b.sumIds} tokens ${b.sumTokens} fills ${b.fills} stage2 ${b.stage2}\n`));
  return b;
}

export class WordBound {
  private readonly codes = createIdBuffer(1024);
  /** Per memo entry (made lazily): its tokens' weighted coordinates (k each) and how many ids it keeps. */
  private entryCoords = new Float64Array(0);
  private entryTokens: Int32Array;
  /** The `epoch` an entry's coordinates were summed in: a new query or a cleared memo starts another. */
  private readonly entryEpoch: Int32Array;
  private epoch = 1;
  private generation: number;
  private coords: TokenCoords | null = null;
  private k = 0;
  /** The chunk being bounded: its distinct entries and ids, with their counts. */
  private readonly entryCount: Int32Array;
  private readonly entries: Int32Array;
  private entryN = 0;
  private readonly idCount: Int32Array;
  private readonly ids: Int32Array;
  private idN = 0;
  private c = new Float64Array(0);
  /** How many chunks outOfReach was asked about, and how many it dropped (for tests and measurements). */
  asked = 0;
  dropped = 0;
  sumEntries = 0; sumIds = 0; sumTokens = 0; fills = 0; stage2 = 0;

  constructor(private readonly tokenizer: LineTokenizer, private readonly words: WordTable, private readonly model: WordBoundModel) {
    const n = words.capacity;
    this.entryTokens = new Int32Array(n);
    this.entryEpoch = new Int32Array(n);
    this.entryCount = new Int32Array(n);
    this.entries = new Int32Array(n);
    this.idCount = new Int32Array(tokenizer.vocabSize);
    this.ids = new Int32Array(tokenizer.vocabSize);
    this.generation = words.generation;
  }

  /** Bounds with these coordinates (a kernel's for one query) from now on. */
  use(coords: TokenCoords): void {
    if (coords === this.coords) return;
    this.coords = coords;
    this.epoch++;
    if (coords.k !== this.k) {
      this.k = coords.k;
      this.entryCoords = new Float64Array(this.words.capacity * coords.k);
      this.c = new Float64Array(coords.k);
    }
  }

  /**
   * True when the text of lines texts[from, to) (each tokenized on its own, then joined) provably has a
   * cosine to the query below `floorCos` by more than the kernel's margin: the kernel's bound would
   * drop it. False when it may not, or cannot tell (a line past the model's maxLength, no tokens).
   */
  outOfReach(texts: string[], from: number, to: number, floorCos: number): boolean {
    const coords = this.coords;
    if (!coords || !(floorCos > BOUND_MARGIN)) return false;
    this.asked++;
    const { k, c, codes, entryCount, idCount, entryTokens, entryEpoch } = this;
    const { maxLength, unkId } = this.model;
    c.fill(0);
    let total = 0;
    let bounded = true;
    for (let i = from; i < to; i++) {
      codes.length = 0;
      this.tokenizer.encodeWordsInto!(this.model.cut(texts[i]), codes);
      // The memo was cleared before this line: the chunk's entries so far are summed now, before an entry
      // index is reused for another word.
      if (this.words.generation !== this.generation) {
        this.flushEntries();
        this.generation = this.words.generation;
        this.epoch++;
      }
      const out = codes.ids;
      let line = 0;
      for (let t = 0; t < codes.length; t++) {
        const v = out[t];
        if (v >= 0) {
          if (v === unkId) continue;
          line++;
          if (idCount[v]++ === 0) this.ids[this.idN++] = v;
        } else {
          const e = -1 - v;
          if (entryEpoch[e] !== this.epoch) this.fillEntry(e);
          line += entryTokens[e];
          if (entryCount[e]++ === 0) this.entries[this.entryN++] = e;
        }
      }
      if (line > maxLength) { bounded = false; break; }
      total += line;
    }
    let out = false;
    this.sumEntries += this.entryN; this.sumIds += this.idN; this.sumTokens += total;
    if (bounded && total > 0) {
      // The kernel's two stages: the first coordinates settle most chunks.
      const first = coords.first;
      const floor = floorCos - WORD_BOUND_MARGIN;
      this.addDistinct(0, first);
      out = boundOf(c, first) < floor;
      if (!out && first < k) {
        this.stage2++;
        this.addDistinct(first, k);
        out = boundOf(c, k) < floor;
      }
    }
    this.clearDistinct();
    if (out) this.dropped++;
    return out;
  }

  /** Sums entry e's ids' weighted coordinates (unknown ids dropped, as the kernel never sees them). */
  private fillEntry(e: number): void {
    const { k, words } = this;
    const at = e * k;
    this.entryCoords.fill(0, at, at + k);
    let n = 0;
    for (let t = words.idAt[e]; t < words.idAt[e + 1]; t++) {
      const id = words.ids[t];
      if (id === this.model.unkId) continue;
      n++;
      this.coords!.add(id, 1, this.entryCoords, at, 0, k);
    }
    this.entryTokens[e] = n; this.fills++;
    this.entryEpoch[e] = this.epoch;
  }

  /** Adds coordinates [from, to) of the chunk's distinct entries and ids, times their counts, to c. */
  private addDistinct(from: number, to: number): void {
    const { c, k, entryCoords, entryCount } = this;
    for (let j = 0; j < this.entryN; j++) {
      const e = this.entries[j];
      const n = entryCount[e];
      const at = e * k;
      for (let d = from; d < to; d++) c[d] += n * entryCoords[at + d];
    }
    for (let j = 0; j < this.idN; j++) {
      const id = this.ids[j];
      this.coords!.add(id, this.idCount[id], c, 0, from, to);
    }
  }

  /** Adds the entries counted so far, every coordinate, to c, and forgets them (their indices are about to be reused). */
  private flushEntries(): void {
    const { c, k, entryCoords, entryCount } = this;
    for (let j = 0; j < this.entryN; j++) {
      const e = this.entries[j];
      const n = entryCount[e];
      const at = e * k;
      for (let d = 0; d < k; d++) c[d] += n * entryCoords[at + d];
      entryCount[e] = 0;
    }
    this.entryN = 0;
  }

  private clearDistinct(): void {
    for (let j = 0; j < this.entryN; j++) this.entryCount[this.entries[j]] = 0;
    for (let j = 0; j < this.idN; j++) this.idCount[this.ids[j]] = 0;
    this.entryN = 0;
    this.idN = 0;
  }
}
