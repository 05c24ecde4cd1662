// Each kept prose document's grams counted once, as its line terms are (rank/prose-lines.ts): per gram
// its words hold, how many lines hold it (its document frequency there) and the most any one line holds.
// A query's gram statistics for a document are then a lookup per gram, not a walk through the postings
// of every word that holds it, and its grams' part of a line's BM25 has a bound without the lines.
import { forEachWordGram } from './lexical/grams.js';
import { isStopword } from './lexical/terms.js';
import type { RankPlan } from './plan.js';
import { gramIndexOf } from './prose.js';
import type { WordPostings } from './prose-line-grams.js';

/** Per gram key (lexical/grams.ts gramKey), its id: interned as the words that hold it are. */
const gramIds = new Map<number | string, number>();
/**
 * Per interned key id (prose-lines.ts), its grams as flat (gram id, occurrences in the word) pairs at
 * [pairStart[id], pairStart[id + 1]) of pairData: none for a stem key or a stopword (forEachGram cuts none).
 */
let pairStart = new Int32Array(1 << 16);
let pairData = new Int32Array(1 << 18);
let noted = 0;

/** Called for each key interned, in id order (prose-line-grams.ts noteKey): its word's gram pairs. */
export function noteWordGrams(id: number, key: string): void {
  if (id !== noted) throw new Error(`prose gram pairs: key ${id} noted out of order (expected ${noted})`);
  if (id + 2 > pairStart.length) pairStart = grown(pairStart, id + 2);
  let end = pairStart[id];
  if (key.charCodeAt(0) === 0x77 /* 'w' */ && !isStopword(key.slice(1))) {
    const from = end;
    forEachWordGram(key.slice(1), (g) => {
      let gid = gramIds.get(g);
      if (gid === undefined) { gid = gramIds.size; gramIds.set(g, gid); }
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

function grown(a: Int32Array, least: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(Math.max(least, a.length * 2));
  b.set(a);
  return b;
}

/**
 * A document's grams: ids ascending; per gram, the count of lines that hold it (a word that holds it)
 * and the most a line holds it (each word's count times its occurrences in the word, summed).
 */
export interface DocumentGrams { readonly gramId: Int32Array; readonly gramDf: Uint16Array; readonly gramMost: Uint32Array }

/** Scratch of documentGrams: per line, the count of the gram at hand, and the lines touched. */
let acc = new Float64Array(1024);
let touched = new Int32Array(1024);

/** The grams of a document's kept postings (its whole-word keys' grams), counted from its lines. */
export function documentGrams(t: WordPostings): DocumentGrams {
  // (gram id, word's index in ids, occurrences) of every gram of every word, grouped by gram.
  const byGram = new Map<number, number[]>();
  for (let x = 0; x < t.ids.length; x++) {
    const id = t.ids[x];
    for (let j = pairStart[id]; j < pairStart[id + 1]; j += 2) {
      const list = byGram.get(pairData[j]);
      if (list) list.push(x, pairData[j + 1]); else byGram.set(pairData[j], [x, pairData[j + 1]]);
    }
  }
  const gramId = Int32Array.from(byGram.keys()).sort();
  const gramDf = new Uint16Array(gramId.length);
  const gramMost = new Uint32Array(gramId.length);
  if (acc.length < t.lines) { acc = new Float64Array(t.lines * 2); touched = new Int32Array(t.lines * 2); }
  const { ownStart, ownLine, ownCount } = t;
  gramId.forEach((gid, i) => {
    const list = byGram.get(gid)!;
    let k = 0;
    for (let p = 0; p < list.length; p += 2) {
      const x = list[p];
      for (let j = ownStart[x]; j < ownStart[x + 1]; j++) {
        const line = ownLine[j];
        if (acc[line] === 0) touched[k++] = line;
        acc[line] += ownCount[j] * list[p + 1];
      }
    }
    let most = 0;
    for (let q = 0; q < k; q++) { most = Math.max(most, acc[touched[q]]); acc[touched[q]] = 0; }
    gramDf[i] = k;
    gramMost[i] = Math.min(most, 0xffffffff);
  });
  return { gramId, gramDf, gramMost };
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
