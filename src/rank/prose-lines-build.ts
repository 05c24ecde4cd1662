// A prose file's kept line terms built from its lines (rank/prose-lines.ts reads them for a query): each
// line's words counted as countTerms counts them and its numbers as countNumbers does, each line's and window's BM25 part per key at an idf
// of 1, each key's best of those, and the file's grams (prose-doc-grams.ts).
import type { ProseLineTerms, ProsePlanTerms } from '../types.js';
import type { PathSignals } from './path-signals.js';
import { identifierParts, stem } from './lexical/terms.js';
import { fold, isAscii, textNumbers, textWords } from './lexical/words.js';
import type { RankPlan } from './plan.js';
import { PROSE_DF_CHARS, PROSE_DF_LINES, PROSE_WINDOW_LINES, proseBm25, proseWindowBm25, type ProseStats } from './prose.js';
import { isBlank } from './prose-counter.js';
import { documentGrams, noteWordGrams, type DocumentGrams, type WordPostings } from './prose-doc-grams.js';
import { registerGrams, releaseGrams } from './prose-gram-holders.js';

/**
 * Keys of every file's postings, interned once per process: a file keeps sorted key ids, not strings
 * ('w' + a folded whole word, 's' + a part's stem, 'n' + a number: lexical/words.ts textNumbers).
 */
const keyIds = new Map<string, number>();
/**
 * At most this many keys are interned (a process that lives on over many document trees would grow the
 * table without end): past it, a new file keeps no line terms and is read and counted as before.
 */
const MAX_KEYS = 1 << 20;
const idOf = (key: string): number => {
  let id = keyIds.get(key);
  if (id === undefined) { id = keyIds.size; keyIds.set(key, id); keyNames.push(key); noteWordGrams(id, key); }
  return id;
};

/**
 * Per word as a line writes it, where its key ids are in wordKeyPool: [n, its folded whole word's, each
 * part's stem's]. A word's keys are worked out (fold, parts, stems: most of counting a line's garbage)
 * once, not at every line that says it. Words of 13 characters or more are not kept (V8 keeps such a
 * substring as a slice of its line, which the table would hold), and the table starts again when full.
 */
const wordKeyAt = new Map<string, number>();
let wordKeyPool = new Int32Array(1 << 14);
let wordKeyUsed = 0;
const WORD_KEYS = 1 << 15;
const WORD_POOL = WORD_KEYS * 4;
const KEPT_WORD_LENGTH = 13;

/** Where `word`'s key ids are in wordKeyPool (interned now if new, in the order the words' keys always were). */
function keysAt(word: string): number {
  const kept = wordKeyAt.get(word);
  if (kept !== undefined) return kept;
  const parts = identifierParts(word);
  const need = parts.length + 2;
  // Full: the table starts again (the keys stay interned; only where a word's are is forgotten).
  if (wordKeyAt.size >= WORD_KEYS || wordKeyUsed + need > WORD_POOL) { wordKeyAt.clear(); wordKeyUsed = 0; }
  if (wordKeyUsed + need > wordKeyPool.length) wordKeyPool = grownCounts(wordKeyPool, wordKeyUsed + need);
  const at = wordKeyUsed;
  wordKeyPool[at] = parts.length + 1;
  wordKeyPool[at + 1] = idOf('w' + fold(word));
  for (let i = 0; i < parts.length; i++) wordKeyPool[at + 2 + i] = idOf('s' + stem(parts[i]));
  // A long word's place is used again by the next word.
  if (word.length < KEPT_WORD_LENGTH) { wordKeyAt.set(word, at); wordKeyUsed += need; }
  return at;
}

/** A line's count per key id (0 between lines) and the keys it holds, in the order they came. */
let lineCount = new Int32Array(1 << 14);
let lineKeys = new Int32Array(1 << 10);

/** Counts key `id` in the line at hand (lineCount, lineKeys: `seen` keys so far); how many it has seen now. */
function noteKey(id: number, seen: number): number {
  if (id >= lineCount.length) lineCount = grownCounts(lineCount, id + 1);
  if (lineCount[id]++ === 0) lineKeys[seen++] = id;
  if (seen === lineKeys.length) lineKeys = grownCounts(lineKeys, seen + 1);
  return seen;
}

function grownCounts(a: Int32Array, least: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(Math.max(least, a.length * 2));
  b.set(a);
  return b;
}

/** Whether a line's words, folded, are the words of its folded text (what forEachGram cuts): almost always. */
function sameWords(words: string[], foldedWords: string[]): boolean {
  return words.length === foldedWords.length && words.every((w, i) => fold(w) === foldedWords[i]);
}

/** Lines are numbered in 16 bits: a file's statistics count at most PROSE_DF_LINES lines (a longer one keeps none). */
if (PROSE_DF_LINES > 0xffff) throw new Error('prose line numbers need more than 16 bits');

/** A float32 at least `x` (x >= 0): fround's relative error is at most 2^-24. */
const up = (x: number): number => Math.fround(x * (1 + 1e-6));

/** Builds a file's ProseLineTerms from its lines, in order (as the pipeline's ProseCounter sees them). */
export class ProseLinesBuilder {
  private readonly lengths: number[] = [];
  private readonly blank: boolean[] = [];
  private docs = 0;
  private chars = 0;
  private seen = 0;
  /** Per key id, flat (line, count) pairs in line order. */
  private readonly byKey = new Map<number, number[]>();

  /**
   * True once the key table is full (MAX_KEYS) while this file is counted, or a line's words differ from
   * those forEachGram cuts (the folded text's words: its grams would not be its words' grams), or a word
   * is counted more than a count's 16 bits hold in a line: it keeps none.
   */
  private over = false;

  /** True once the file is longer than what its statistics count (PROSE_DF_LINES, PROSE_DF_CHARS): no bound then. */
  get full(): boolean {
    return this.lengths.length >= PROSE_DF_LINES || this.seen >= PROSE_DF_CHARS;
  }

  add(text: string): void {
    if (this.full || this.over) return;
    if (keyIds.size >= MAX_KEYS) { this.over = true; return; }
    const at = this.lengths.length;
    this.lengths.push(text.length);
    this.seen += text.length;
    const blank = isBlank(text);
    this.blank.push(blank);
    if (blank) return;
    this.docs++;
    this.chars += text.length;
    const words = textWords(text);
    if (!isAscii(text) && !sameWords(words, textWords(fold(text)))) { this.over = true; return; }
    // The line's keys counted in a table by key id, in the order they first come (a Map's order, without its garbage).
    let seen = 0;
    for (const word of words) {
      const from = keysAt(word);
      const ids = wordKeyPool;
      for (let j = from + 1; j <= from + ids[from]; j++) seen = noteKey(ids[j], seen);
    }
    // Its numbers: a query's are terms of a prose line's BM25 (rank/prose.ts proseTermCount).
    for (const n of textNumbers(text)) seen = noteKey(idOf('n' + n), seen);
    for (let k = 0; k < seen; k++) {
      const id = lineKeys[k];
      const n = lineCount[id];
      lineCount[id] = 0;
      if (n > 0xffff) { this.over = true; for (let r = k + 1; r < seen; r++) lineCount[lineKeys[r]] = 0; return; }
      const list = this.byKey.get(id);
      if (list) list.push(at, n); else this.byKey.set(id, [at, n]);
    }
  }

  /** The file's line terms; null when it is longer than its statistics count (ProseFile gives no bound then) or the key table is full. */
  done(): ProseLineTerms | null {
    const raw = this.postings();
    if (!raw) return null;
    const ids = Int32Array.from(this.byKey.keys()).sort();
    const packed = packProseLines(raw, ids, (id) => this.byKey.get(id)!);
    packed.grams = documentGrams(packed);
    registerGrams(packed.grams);
    packed.bytes += 14 * packed.grams.gramId.length + 6 * packed.grams.line.length + 8 * ids.length + 2 * packed.lines;
    return packed;
  }

  /**
   * What the index keeps of the file (workspace/snapshot/prose-stats-file.ts): its lines' lengths, which
   * are blank, and per key id its (line, count) pairs in line order; null as done() is.
   */
  postings(): (ProseDocShape & { byKey: ReadonlyMap<number, number[]> }) | null {
    if (this.full || this.over) return null;
    return { lengths: this.lengths, blank: this.blank, docs: this.docs, chars: this.chars, byKey: this.byKey };
  }
}

/** A document's lines: each one's length and whether it is blank; its non-blank lines and their characters. */
export interface ProseDocShape { lengths: ArrayLike<number>; blank: ArrayLike<boolean | number>; docs: number; chars: number }

/**
 * A document's PackedProseLines (grams not set) from its shape and, for each of `ids` (ascending key
 * ids), its flat (line, count) pairs in line order: the BM25 parts worked out as the builder works them
 * out, so a document packed from the index's postings adds the same floats as one counted here.
 */
export function packProseLines(doc: ProseDocShape, ids: Int32Array, pairsOf: (id: number, k: number) => ArrayLike<number>): PackedProseLines {
  const { lengths, blank } = doc;
  const n = lengths.length;
  // BM25 parts with an idf of 1: a query's part for a term is its idf times these (proseBm25 is a sum of such parts).
  const unit: ProseStats = { idf: [1], norm: 1, avgChars: doc.docs > 0 ? doc.chars / doc.docs : 1, gramIdf: [], gramNorm: 0 };
  const tf = new Float64Array(1);
  const one = [0];
  const ownStart = new Int32Array(ids.length + 1);
  const winStart = new Int32Array(ids.length + 1);
  // Typed arrays of the exact size (a key's pairs are counted first), not lists copied at the end: a
  // pasted file's terms are in most lines of most documents, and every document is packed.
  const lists: ArrayLike<number>[] = [];
  let pairs = 0;
  for (let k = 0; k < ids.length; k++) { const list = pairsOf(ids[k], k); lists.push(list); pairs += list.length >> 1; }
  const ownLine = new Uint16Array(pairs);
  const ownCount = new Uint16Array(pairs);
  const ownPart = new Float32Array(pairs);
  // A key's windows: at most the 2 * PROSE_WINDOW_LINES + 1 around each of its lines, and the document's lines.
  let winRoom = 0;
  for (const list of lists) winRoom += Math.min(n, (list.length >> 1) * (2 * PROSE_WINDOW_LINES + 1));
  const winLine = new Uint16Array(winRoom);
  const winPart = new Float32Array(winRoom);
  // Per window centre, the key's count in it (0 between keys) and the centres in the order first counted.
  if (windowCount.length < n) windowCount = new Float64Array(Math.max(n, windowCount.length * 2));
  if (windowCentres.length < n) windowCentres = new Int32Array(Math.max(n, windowCentres.length * 2));
  const fw = windowCount;
  const centres = windowCentres;
  let nOwn = 0;
  let nWin = 0;
  for (let k = 0; k < ids.length; k++) {
    const list = lists[k];
    let touched = 0;
    for (let j = 0; j < list.length; j += 2) {
      const line = list[j];
      tf[0] = list[j + 1];
      ownLine[nOwn] = line;
      ownCount[nOwn] = list[j + 1];
      ownPart[nOwn++] = up(proseBm25(tf, one, lengths[line], unit));
      // The windows that hold this line: those centred on it and on its neighbours (lineLexical's).
      for (let c = Math.max(0, line - PROSE_WINDOW_LINES); c <= Math.min(n - 1, line + PROSE_WINDOW_LINES); c++) {
        if (blank[c]) continue;
        if (fw[c] === 0) centres[touched++] = c;
        fw[c] += list[j + 1];
      }
    }
    for (let i = 0; i < touched; i++) {
      const c = centres[i];
      let chars = 0;
      for (let x = Math.max(0, c - PROSE_WINDOW_LINES); x <= Math.min(n - 1, c + PROSE_WINDOW_LINES); x++) chars += lengths[x];
      tf[0] = fw[c];
      fw[c] = 0;
      winLine[nWin] = c;
      winPart[nWin++] = up(proseWindowBm25(tf, one, chars, unit));
    }
    ownStart[k + 1] = nOwn;
    winStart[k + 1] = nWin;
  }
  // Per key (keyMost): its lines, its best line's part and its best window's (a bound on a line's sum,
  // term by term), and its shortest line: only a line that holds a term scores, so a query's grams are
  // bounded in the shortest line that holds one of its terms (prose-lines.ts), not the document's shortest.
  const keyMost = new Float32Array(KEY_MOST * ids.length);
  for (let k = 0; k < ids.length; k++) {
    let own = 0;
    let win = 0;
    let least = Infinity;
    for (let j = ownStart[k]; j < ownStart[k + 1]; j++) { own = Math.max(own, ownPart[j]); least = Math.min(least, lengths[ownLine[j]]); }
    for (let j = winStart[k]; j < winStart[k + 1]; j++) win = Math.max(win, winPart[j]);
    keyMost[KEY_MOST * k] = ownStart[k + 1] - ownStart[k];
    keyMost[KEY_MOST * k + 1] = own;
    keyMost[KEY_MOST * k + 2] = win;
    keyMost[KEY_MOST * k + 3] = Number.isFinite(least) ? least : 0;
  }
  let shortest = Infinity;
  for (let i = 0; i < n; i++) if (!blank[i]) shortest = Math.min(shortest, lengths[i]);
  return new PackedProseLines(
    n, doc.docs, doc.chars, ids, Uint32Array.from(lengths), ownStart, ownLine, ownCount, ownPart,
    winStart, winLine.slice(0, nWin), winPart.slice(0, nWin), keyMost, Number.isFinite(shortest) ? shortest : 0,
  );
}

/** packProseLines' scratch: per window centre, a key's count in it; the centres it touched. */
let windowCount = new Float64Array(1024);
let windowCentres = new Int32Array(1024);

/** Lets a file's line terms go (its keeper dropped them): its grams are no longer found for later queries. */
export function releaseProseLines(terms: ProseLineTerms): void {
  releaseGrams((terms as PackedProseLines).grams);
}

/**
 * ProseLineTerms in typed arrays: sorted key ids; key k's lines, and each one's BM25 part with an idf of
 * 1, at [ownStart[k], ownStart[k + 1]) (how many is its document frequency); the non-blank lines whose
 * window holds it, and the window's part, at [winStart[k], winStart[k + 1]). Parts are rounded up.
 */
export class PackedProseLines implements ProseLineTerms, WordPostings {
  bytes: number;
  /** The document's grams (prose-doc-grams.ts): set once built. */
  grams!: DocumentGrams;
  /** Its slot in the lists across kept documents (prose-sweep.ts), -1 when it is not in them (-2: left out by their bound). */
  sweepSlot = -1;
  /** The last plan proseBest was asked about, under which path, the bound on its lines' cosines it was given, and its answer. */
  plan: RankPlan | null = null;
  bestPath: string | null = null;
  bestCosine = 1;
  best = 0;
  /** The last plan proseReach was asked about, under which path, the bound on its lines' cosines, its answer and the path's signals for it. */
  reachPlan: RankPlan | null = null;
  reachPath: string | null = null;
  reachCosine = 1;
  reach = 0;
  /** proseReach's bound on the lexical score of any line, for reachPlan (its distance is `reach` at reachCosine). */
  reachLexical = 0;
  signals: PathSignals | null = null;
  /** The statistics proseLineStats last worked out, and for which plan (the file read after its bound: pipeline.ts). */
  statsPlan: RankPlan | null = null;
  stats: ProseStats | null = null;

  constructor(
    readonly lines: number, readonly docs: number, readonly chars: number, readonly ids: Int32Array, readonly lengths: Uint32Array,
    readonly ownStart: Int32Array, readonly ownLine: Uint16Array, readonly ownCount: Uint16Array, readonly ownPart: Float32Array,
    readonly winStart: Int32Array, readonly winLine: Uint16Array, readonly winPart: Float32Array,
    /**
     * Per key, KEY_MOST numbers side by side (what a query's bound that visits no line reads of each of
     * its keys, in one read of memory: issue 30, ~1,400 documents' keys read at random): the lines that
     * hold it, the most of its ownPart and of its winPart, and the length of its shortest line; all exact
     * in a float32 (the parts are float32s; counts and lengths below 2^24).
     */
    readonly keyMost: Float32Array,
    /** The shortest non-blank line's length. */
    readonly shortest: number,
  ) {
    this.bytes = 4 * ((1 + KEY_MOST) * ids.length + lengths.length + ownStart.length + winStart.length) + 8 * ownLine.length + 6 * winLine.length + 128;
  }

  /** The index of key `id` in ids, or -1. */
  indexOf(id: number): number {
    let lo = 0;
    let hi = this.ids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = this.ids[mid];
      if (v < id) lo = mid + 1; else if (v > id) hi = mid - 1; else return mid;
    }
    return -1;
  }
}

/**
 * The keys of a plan's prose terms, in term order (rank/prose.ts proseTermCount): each term's ('w' + a
 * whole word, 's' + a part's stem), then each of the query's numbers' ('n' + the number). Kept per terms
 * list (a plan made again for the same query shares it, and its numbers come from the same query).
 */
export function proseTermKeys(plan: ProsePlanTerms): readonly string[] {
  let keys = termKeys.get(plan.terms);
  if (!keys) {
    keys = plan.terms.map((t) => (t.whole ? 'w' : 's') + t.key);
    for (const n of plan.prose?.numbers ?? []) keys.push('n' + n);
    termKeys.set(plan.terms, keys);
  }
  return keys;
}

const termKeys = new WeakMap<ProsePlanTerms['terms'], string[]>();

/** Numbers per key in PackedProseLines.keyMost: its lines, its most ownPart, its most winPart, its shortest line's length. */
export const KEY_MOST = 4;

/** Key `key`'s id ('w' + a folded whole word, 's' + a part's stem, 'n' + a number), interned now if no file has (the index's postings: workspace/search/prose-index.ts). */
export const internKey = (key: string): number => idOf(key);

/** Each interned key by its id. */
const keyNames: string[] = [];
/** The key of id `id`. */
export const keyNameOf = (id: number): string => keyNames[id];

/** Key `key`'s id ('w' + a folded whole word, 's' + a part's stem, 'n' + a number), if a file has interned it. */
export const keyIdOf = (key: string): number | undefined => keyIds.get(key);

/** How many keys are interned (a plan's unknown keys are looked up again once this grows). */
export const keyCount = (): number => keyIds.size;

