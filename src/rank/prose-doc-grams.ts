// Each kept prose document's grams counted once, as its line terms are (rank/prose-lines.ts): per gram
// its words hold, how many lines hold it (its document frequency there), the most any one line holds,
// and the lines that hold it with their count; and, over all kept documents, per gram the documents that
// hold it (prose-gram-holders.ts). A query's gram statistics for every document are then found in one walk over its grams'
// holders, a line's gram BM25 is a walk through its grams' lines (not through the postings of every word
// that holds each gram), and that part has a bound without the lines (gramMost).
import { forEachWordGram } from './lexical/grams.js';
import { isStopword } from './lexical/terms.js';
import type { RankPlan } from './plan.js';
import { gramIndexOf, PROSE_B, PROSE_K1, type ProseStats } from './prose.js';

/** What this module reads of a file's kept postings (prose-lines.ts): sorted key ids, each one's lines and counts there. */
export interface WordPostings {
  readonly lines: number;
  readonly ids: Int32Array;
  readonly ownStart: Int32Array;
  readonly ownLine: Uint16Array;
  readonly ownCount: Uint16Array;
}

/** Per gram key (lexical/grams.ts gramKey), its id: interned as the words that hold it are; and each key by its id. */
const gramIds = new Map<number | string, number>();
const gramKeys: (number | string)[] = [];

/** Gram key `key`'s id, interned now if no word has (the index's postings: workspace/search/prose-index.ts). */
export function internGram(key: number | string): number {
  let gid = gramIds.get(key);
  if (gid === undefined) { gid = gramIds.size; gramIds.set(key, gid); gramKeys.push(key); }
  return gid;
}

/** The gram key of id `gid`. */
export const gramKeyOf = (gid: number): number | string => gramKeys[gid];
/**
 * Per interned key id (prose-lines.ts), its grams as flat (gram id, occurrences in the word) pairs at
 * [pairStart[id], pairStart[id + 1]) of pairData: none for a stem key or a stopword (forEachGram cuts none).
 */
let pairStart = new Int32Array(1 << 16);
let pairData = new Int32Array(1 << 18);
let noted = 0;

/** Called by prose-lines.ts for each key it interns, in id order: its word's gram pairs. */
export function noteWordGrams(id: number, key: string): void {
  if (id !== noted) throw new Error(`prose gram pairs: key ${id} noted out of order (expected ${noted})`);
  if (id + 2 > pairStart.length) pairStart = grown(pairStart, id + 2);
  let end = pairStart[id];
  if (key.charCodeAt(0) === 0x77 /* 'w' */ && !isStopword(key.slice(1))) {
    const from = end;
    forEachWordGram(key.slice(1), (g) => {
      const gid = internGram(g);
      let at = from;
      while (at < end && pairData[at] !== gid) at += 2;
      if (at < end) { pairData[at + 1]++; return; }
      if (end + 2 > pairData.length) pairData = grown(pairData, end + 2);
      pairData[end++] = gid;
      pairData[end++] = 1;
    });
  }
  pairStart[id + 1] = end;
  noted = id + 1;
}

export function grown(a: Int32Array, least: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(Math.max(least, a.length * 2));
  b.set(a);
  return b;
}

/**
 * A document's grams: ids ascending; per gram, the count of lines that hold it (a word that holds it)
 * and the most a line holds it (each word's count times its occurrences in the word, summed).
 */
export interface DocumentGrams {
  /** Its slot among the registered documents (prose-gram-holders.ts registerGrams), -1 when it is not (or no longer) registered. */
  slot: number;
  readonly gramId: Int32Array;
  readonly gramDf: Uint16Array;
  readonly gramMost: Uint32Array;
  /** Gram i's lines (ascending) and its count in each (what a line's gram BM25 takes) at [lineStart[i], lineStart[i + 1]). */
  readonly lineStart: Int32Array;
  readonly line: Uint16Array;
  readonly count: Uint32Array;
  /**
   * Per line, how many distinct grams it holds (at most 0xffff), and the most any line holds: a line
   * holds at most that many of a query's grams, so its grams' part is at most the sum of that many of
   * their bounds, the greatest (prose-lines.ts). Absent where the lines' grams are not all counted (the
   * index's statistics file, a document's lines read for one query).
   */
  readonly lineGrams?: Uint16Array;
  readonly mostLineGrams?: number;
}

/** Scratch of documentGrams: per line, the count of the gram at hand, and the lines touched; per gram id, its entries. */
let acc = new Float64Array(1024);
let touched = new Int32Array(1024);
let perGram = new Int32Array(1 << 14);

/**
 * The (word's index in ids, occurrences) of every gram of every word of `t`, grouped by gram: gram
 * `gramId[i]`'s at [from[i], from[i + 1]) of `word` and `times`, words in ascending order. Typed arrays
 * and a counting sort, not a list per gram: a build counts every Markdown file with this.
 */
function gramsOfWords(t: WordPostings): { gramId: Int32Array; from: Int32Array; word: Int32Array; times: Int32Array } {
  if (gramIds.size > perGram.length) perGram = grown(perGram, gramIds.size);
  let total = 0;
  let distinct = 0;
  for (let x = 0; x < t.ids.length; x++) {
    const id = t.ids[x];
    total += (pairStart[id + 1] - pairStart[id]) >> 1;
    for (let j = pairStart[id]; j < pairStart[id + 1]; j += 2) if (perGram[pairData[j]]++ === 0) distinct++;
  }
  const gramId = new Int32Array(distinct);
  let n = 0;
  for (let x = 0; x < t.ids.length && n < distinct; x++) {
    const id = t.ids[x];
    for (let j = pairStart[id]; j < pairStart[id + 1]; j += 2) {
      const gid = pairData[j];
      // Marked as listed (negative) so a gram is listed once.
      if (perGram[gid] > 0) { gramId[n++] = gid; perGram[gid] = -perGram[gid]; }
    }
  }
  gramId.sort();
  const from = new Int32Array(distinct + 1);
  for (let i = 0; i < distinct; i++) {
    const gid = gramId[i];
    from[i + 1] = from[i] - perGram[gid];
    // From here, gram gid's next entry's place.
    perGram[gid] = from[i];
  }
  const word = new Int32Array(total);
  const times = new Int32Array(total);
  for (let x = 0; x < t.ids.length; x++) {
    const id = t.ids[x];
    for (let j = pairStart[id]; j < pairStart[id + 1]; j += 2) {
      const k = perGram[pairData[j]]++;
      word[k] = x;
      times[k] = pairData[j + 1];
    }
  }
  for (let i = 0; i < distinct; i++) perGram[gramId[i]] = 0;
  return { gramId, from, word, times };
}

/**
 * Calls `each(i, k)` for gram i of `g` with its k lines in touched[0, k) and their counts in acc
 * (which the caller must set back to 0), in the order documentGrams has always listed them.
 */
function forEachGramLines(t: WordPostings, g: ReturnType<typeof gramsOfWords>, each: (i: number, k: number) => void): void {
  if (acc.length < t.lines) { acc = new Float64Array(t.lines * 2); touched = new Int32Array(t.lines * 2); }
  const { ownStart, ownLine, ownCount } = t;
  for (let i = 0; i < g.gramId.length; i++) {
    let k = 0;
    for (let p = g.from[i]; p < g.from[i + 1]; p++) {
      const x = g.word[p];
      for (let j = ownStart[x]; j < ownStart[x + 1]; j++) {
        const line = ownLine[j];
        if (acc[line] === 0) touched[k++] = line;
        acc[line] += ownCount[j] * g.times[p];
      }
    }
    each(i, k);
  }
}

/** The grams of a document's kept postings (its whole-word keys' grams), counted from its lines. */
export function documentGrams(t: WordPostings): DocumentGrams {
  const g = gramsOfWords(t);
  const n = g.gramId.length;
  const gramDf = new Uint16Array(n);
  const gramMost = new Uint32Array(n);
  const lineStart = new Int32Array(n + 1);
  let line = new Uint16Array(Math.max(16, g.word.length));
  let count = new Uint32Array(line.length);
  forEachGramLines(t, g, (i, k) => {
    const at = lineStart[i];
    if (at + k > line.length) {
      const size = Math.max(at + k, line.length * 2);
      const l = new Uint16Array(size); l.set(line); line = l;
      const c = new Uint32Array(size); c.set(count); count = c;
    }
    let most = 0;
    // In line order (lineGramBm25 searches a gram's lines for a line).
    touched.subarray(0, k).sort();
    for (let q = 0; q < k; q++) {
      const ln = touched[q];
      most = Math.max(most, acc[ln]);
      line[at + q] = ln;
      count[at + q] = acc[ln];
      acc[ln] = 0;
    }
    gramDf[i] = k;
    gramMost[i] = most;
    lineStart[i + 1] = at + k;
  });
  const end = lineStart[n];
  const lineGrams = new Uint16Array(t.lines);
  for (let j = 0; j < end; j++) if (lineGrams[line[j]] < 0xffff) lineGrams[line[j]]++;
  let mostLineGrams = 0;
  for (let l = 0; l < t.lines; l++) mostLineGrams = Math.max(mostLineGrams, lineGrams[l]);
  return { slot: -1, gramId: g.gramId, gramDf, gramMost, lineStart, line: line.slice(0, end), count: count.slice(0, end), lineGrams, mostLineGrams };
}

/** A document's grams as the index keeps them (workspace/prose-stats.ts): documentGrams' ids, document frequencies and most in a line only. */
export function documentGramCounts(t: WordPostings): { gramId: Int32Array; gramDf: Uint16Array; gramMost: Uint32Array } {
  const g = gramsOfWords(t);
  const gramDf = new Uint16Array(g.gramId.length);
  const gramMost = new Uint32Array(g.gramId.length);
  forEachGramLines(t, g, (i, k) => {
    let most = 0;
    for (let q = 0; q < k; q++) {
      const ln = touched[q];
      most = Math.max(most, acc[ln]);
      acc[ln] = 0;
    }
    gramDf[i] = k;
    gramMost[i] = most;
  });
  return { gramId: g.gramId, gramDf, gramMost };
}

/** Per plan grams list (shared by a plan made again for the same query): its grams' ids (-1: no word holds it yet), and the table's size then (-1: all found). */
const planGramIds = new WeakMap<readonly string[], { ids: Int32Array; known: number }>();

/** The plan's grams' ids, in plan order, looked up again while one is unknown and grams have come in since; null: no grams. */
export function gramIdsOf(plan: RankPlan): Int32Array | null {
  const grams = plan.prose?.grams ?? [];
  if (grams.length === 0) return null;
  const kept = planGramIds.get(grams);
  if (kept && (kept.known === -1 || kept.known === gramIds.size)) return kept.ids;
  const ids = new Int32Array(grams.length).fill(-1);
  for (const [key, i] of gramIndexOf(grams)) ids[i] = gramIds.get(key) ?? -1;
  planGramIds.set(grams, { ids, known: ids.includes(-1) ? gramIds.size : -1 });
  return ids;
}

/** Gram `gid`'s index in a document's sorted gram ids, or -1. */
export function gramIndexIn(d: DocumentGrams, gid: number): number {
  const ids = d.gramId;
  let lo = 0;
  let hi = ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = ids[mid];
    if (v < gid) lo = mid + 1; else if (v > gid) hi = mid - 1; else return mid;
  }
  return -1;
}

/**
 * Adds into out[l], for each of the `n` lines l in `lines`, its grams' BM25 with the statistics: what
 * addLineGramBm25 adds for it (the same terms in the same order), each gram's count there found by a
 * binary search of the gram's lines; for a few lines of a document whose grams have many lines.
 */
export function addLinesGramBm25(d: DocumentGrams, at: Int32Array, nGrams: number, lengths: Uint32Array, s: ProseStats, lines: Int32Array, n: number, out: Float64Array): void {
  const { lineStart, line, count } = d;
  for (let g = 0; g < nGrams; g++) {
    const i = at[g];
    if (i < 0) continue;
    const idf = s.gramIdf[g];
    for (let q = 0; q < n; q++) {
      const l = lines[q];
      let lo = lineStart[i];
      let hi = lineStart[i + 1] - 1;
      let found = -1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const v = line[mid];
        if (v < l) lo = mid + 1; else if (v > l) hi = mid - 1; else { found = mid; break; }
      }
      if (found < 0) continue;
      const f = count[found];
      const norm = PROSE_K1 * (1 - PROSE_B + (PROSE_B * lengths[l]) / s.avgChars);
      out[l] += idf * (f * (PROSE_K1 + 1)) / (f + norm);
    }
  }
}

/**
 * Adds into out[i], for each line i where `take[i] > 0`, its grams' BM25 with the statistics: exactly
 * prose.ts gramBm25 of the line (the same terms, added in ascending gram order as it adds them). `at`:
 * each of the plan's nGrams grams' index in the document's grams (-1: absent); `lengths`: its lines'.
 */
export function addLineGramBm25(d: DocumentGrams, at: Int32Array, nGrams: number, lengths: Uint32Array, s: ProseStats, take: Float64Array, out: Float64Array): void {
  const { lineStart, line, count } = d;
  for (let g = 0; g < nGrams; g++) {
    const i = at[g];
    if (i < 0) continue;
    const idf = s.gramIdf[g];
    for (let j = lineStart[i]; j < lineStart[i + 1]; j++) {
      const l = line[j];
      if (!(take[l] > 0)) continue;
      const f = count[j];
      const norm = PROSE_K1 * (1 - PROSE_B + (PROSE_B * lengths[l]) / s.avgChars);
      out[l] += idf * (f * (PROSE_K1 + 1)) / (f + norm);
    }
  }
}
