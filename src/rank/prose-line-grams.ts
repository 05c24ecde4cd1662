// The query's grams (lexical/grams.ts) in a prose file's kept line terms (rank/prose-lines.ts), found
// from its lines' whole words instead of its text: a line's grams are the grams of its words (the 'w'
// keys, which forEachGram's words equal: the builder checks), so each gram's document frequency and a
// line's count of it come from the postings of the few words that hold it.
import { forEachWordGram } from './lexical/grams.js';
import { isStopword } from './lexical/terms.js';
import type { RankPlan } from './plan.js';
import { gramIndexOf, PROSE_B, PROSE_K1, type ProseStats } from './prose.js';

/** What this module reads of a file's kept postings: sorted key ids, each one's lines and counts there. */
export interface WordPostings {
  readonly lines: number;
  readonly ids: Int32Array;
  readonly ownStart: Int32Array;
  readonly ownLine: Uint16Array;
  readonly ownCount: Uint16Array;
  /** Each line's length (UTF-16 units), blank ones included. */
  readonly lengths: Uint32Array;
}

/** Per interned key id, its key ('w' + a folded whole word, 's' + a part's stem). */
const keyOf: string[] = [];
/** Per gram key, the ids of the whole words (no stopwords: forEachGram cuts none) that hold it, each once, ascending. */
const wordsOf = new Map<number | string, number[]>();

/** Called by prose-lines.ts for each key it interns, in id order. */
export function noteKey(id: number, key: string): void {
  keyOf[id] = key;
  if (key.charCodeAt(0) !== 0x77 /* 'w' */) return;
  const word = key.slice(1);
  if (isStopword(word)) return;
  forEachWordGram(word, (g) => {
    const list = wordsOf.get(g);
    if (!list) wordsOf.set(g, [id]);
    else if (list[list.length - 1] !== id) list.push(id);
  });
}

/**
 * A plan's grams by word: for key id, slot[id] - 1 is its entry in `entries` (0: it holds none), flat
 * (gram index, occurrences in the word) pairs, gram indices ascending; `last`: the highest such id.
 */
interface PlanGrams { index: Map<number | string, number>; noted: number; last: number; slot: Int32Array; entries: number[][] }
/** Keyed by the plan's grams list, which a plan made again for the same query shares (plan.ts's recent plans). */
const planGrams = new WeakMap<readonly string[], PlanGrams>();

/** The plan's PlanGrams, brought up to the keys interned since (a new word may hold a gram); null: no grams. */
function gramsOf(plan: RankPlan): PlanGrams | null {
  const grams = plan.prose?.grams ?? [];
  if (grams.length === 0) return null;
  let pg = planGrams.get(grams);
  if (!pg) {
    // The words that hold each gram, from the table kept as keys were interned; grams in index order,
    // so each word's pairs come out ascending.
    const index = gramIndexOf(grams);
    pg = { index, noted: keyOf.length, last: -1, slot: new Int32Array(Math.max(1024, keyOf.length)), entries: [] };
    const { slot, entries } = pg;
    for (const [key, i] of index) {
      const ids = wordsOf.get(key);
      if (!ids) continue;
      const ns = occurrencesOf(key, ids);
      for (let j = 0; j < ids.length; j++) {
        const id = ids[j];
        const e = slot[id];
        if (e === 0) { entries.push([i, ns[j]]); slot[id] = entries.length; } else entries[e - 1].push(i, ns[j]);
        if (id > pg.last) pg.last = id;
      }
    }
    planGrams.set(grams, pg);
  }
  // Keys interned since (a search builds documents' line terms as it goes): only those are cut.
  for (let id = pg.noted; id < keyOf.length; id++) {
    const key = keyOf[id];
    if (key.charCodeAt(0) !== 0x77 || isStopword(key.slice(1))) continue;
    const pairs = pairsOf(pg.index, key.slice(1));
    if (pairs) add(pg, id, pairs);
  }
  pg.noted = keyOf.length;
  return pg;
}

/** Per gram key, occurrences() in each word of its wordsOf list (in that order): grams recur from query to query. */
const counted = new Map<number | string, number[]>();

/** The occurrences of the gram of key `gram` in each of the words `ids` (wordsOf's list, which only grows). */
function occurrencesOf(gram: number | string, ids: readonly number[]): number[] {
  let ns = counted.get(gram);
  if (!ns) counted.set(gram, ns = []);
  for (let j = ns.length; j < ids.length; j++) ns.push(occurrences(keyOf[ids[j]].slice(1), gram));
  return ns;
}

/**
 * How many of a folded word's grams (forEachWordGram, the cut of a line's words, so that the index
 * and a scan agree by construction) have key `gram`.
 */
function occurrences(word: string, gram: number | string): number {
  let n = 0;
  forEachWordGram(word, (k) => { if (k === gram) n++; });
  return n;
}

/**
 * The plan's grams (by `index`) among a folded word's grams, as (gram index, occurrences in the word)
 * pairs ascending by gram; null when it holds none.
 */
function pairsOf(index: Map<number | string, number>, word: string): number[] | null {
  let pairs: number[] | null = null;
  forEachWordGram(word, (k) => {
    const g = index.get(k);
    if (g === undefined) return;
    pairs ??= [];
    let at = 0;
    while (at < pairs.length && pairs[at] !== g) at += 2;
    if (at < pairs.length) pairs[at + 1]++; else pairs.push(g, 1);
  });
  return pairs ? ascending(pairs) : null;
}

/** (gram, count) pairs sorted by gram. */
function ascending(pairs: number[]): number[] {
  const order: [number, number][] = [];
  for (let j = 0; j < pairs.length; j += 2) order.push([pairs[j], pairs[j + 1]]);
  return order.sort((x, y) => x[0] - y[0]).flat();
}

/** Sets key id's entry: its (gram, count) pairs, ascending by gram. */
function add(pg: PlanGrams, id: number, pairs: number[]): void {
  if (id >= pg.slot.length) {
    const grown = new Int32Array(Math.max(id + 1, pg.slot.length * 2));
    grown.set(pg.slot);
    pg.slot = grown;
  }
  pg.entries.push(pairs);
  pg.slot[id] = pg.entries.length;
  pg.last = Math.max(pg.last, id);
}

/**
 * A file's keys that hold the plan's grams, by gram: gram g's (index into the file's ids, occurrences in
 * that word) pairs are x[j], n[j] for j in [start[g], start[g + 1]), x ascending. In scratch arrays the
 * next gramHits call reuses (a search asks for thousands of files: no arrays made per file).
 */
export interface GramHits { readonly grams: number; readonly start: Int32Array; readonly x: Int32Array; readonly n: Int32Array }

/** Scratch of gramHits: the file's keys that hold a gram (index into ids, entry), then the pairs by gram. */
let hitX = new Int32Array(256);
let hitE = new Int32Array(256);
let hits: GramHits = { grams: 0, start: new Int32Array(64), x: new Int32Array(256), n: new Int32Array(256) };
let fill = new Int32Array(64);

/** The file's GramHits for the plan (one pass over its key ids); null when the plan has no grams. */
export function gramHits(t: WordPostings, plan: RankPlan): GramHits | null {
  const pg = gramsOf(plan);
  if (!pg) return null;
  const nGrams = plan.prose!.grams.length;
  const { slot, entries, last } = pg;
  // The keys of the file that hold a gram, in id order (so by gram, x stays ascending).
  let m = 0;
  let pairs = 0;
  for (let x = 0; x < t.ids.length; x++) {
    const id = t.ids[x];
    if (id > last) break;
    const e = slot[id];
    if (e === 0) continue;
    if (m === hitX.length) { hitX = grow(hitX); hitE = grow(hitE); }
    hitX[m] = x;
    hitE[m++] = e - 1;
    pairs += entries[e - 1].length >> 1;
  }
  if (hits.start.length < nGrams + 1) { hits = { ...hits, start: new Int32Array(2 * nGrams + 2) }; fill = new Int32Array(2 * nGrams + 2); }
  if (hits.x.length < pairs) hits = { ...hits, x: new Int32Array(2 * pairs), n: new Int32Array(2 * pairs) };
  const { start, x: hx, n: hn } = hits;
  start.fill(0, 0, nGrams + 1);
  for (let h = 0; h < m; h++) {
    const list = entries[hitE[h]];
    for (let j = 0; j < list.length; j += 2) start[list[j] + 1]++;
  }
  for (let g = 0; g < nGrams; g++) { start[g + 1] += start[g]; fill[g] = start[g]; }
  for (let h = 0; h < m; h++) {
    const list = entries[hitE[h]];
    for (let j = 0; j < list.length; j += 2) {
      const at = fill[list[j]]++;
      hx[at] = hitX[h];
      hn[at] = list[j + 1];
    }
  }
  hits = { grams: nGrams, start, x: hx, n: hn };
  return hits;
}

function grow(a: Int32Array): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

/** Scratch: per line, its count of the gram at hand (zero between uses). */
let count = new Float64Array(1024);

/** Scratch of addGramBm25: the lines of the gram at hand. */
let touched = new Int32Array(1024);

/**
 * Adds into out[i], for each line i where `take[i] > 0`, its grams' BM25 with the statistics: exactly
 * prose.ts gramBm25 of the line (the same terms, added in ascending gram order as it adds them).
 */
export function addGramBm25(t: WordPostings, h: GramHits, s: ProseStats, take: Float64Array, out: Float64Array): void {
  if (count.length < t.lines) count = new Float64Array(t.lines * 2);
  if (touched.length < t.lines) touched = new Int32Array(t.lines * 2);
  const { ownStart, ownLine, ownCount, lengths } = t;
  for (let g = 0; g < h.grams; g++) {
    let k = 0;
    for (let p = h.start[g]; p < h.start[g + 1]; p++) {
      const x = h.x[p];
      const n = h.n[p];
      for (let j = ownStart[x]; j < ownStart[x + 1]; j++) {
        const line = ownLine[j];
        if (!(take[line] > 0)) continue;
        if (count[line] === 0) touched[k++] = line;
        count[line] += ownCount[j] * n;
      }
    }
    const idf = s.gramIdf[g];
    for (let q = 0; q < k; q++) {
      const line = touched[q];
      const f = count[line];
      const norm = PROSE_K1 * (1 - PROSE_B + (PROSE_B * lengths[line]) / s.avgChars);
      out[line] += idf * (f * (PROSE_K1 + 1)) / (f + norm);
      count[line] = 0;
    }
  }
}
