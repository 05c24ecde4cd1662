// The query's grams (lexical/grams.ts) in a prose file's kept line terms (rank/prose-lines.ts), found
// from its lines' whole words instead of its text: a line's grams are the grams of its words (the 'w'
// keys, which forEachGram's words equal: the builder checks), so each gram's document frequency and a
// line's count of it come from the postings of the few words that hold it.
import { forEachWordGram, gramKey } from './lexical/grams.js';
import { isStopword } from './lexical/terms.js';
import type { RankPlan } from './plan.js';
import { PROSE_B, PROSE_K1, type ProseStats } from './prose.js';

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
    // so each word's pairs come out ascending (straight into the slots: no map per word).
    const index = new Map(grams.map((g, i) => [gramKey(g), i]));
    pg = { index, noted: keyOf.length, last: -1, slot: new Int32Array(Math.max(1024, keyOf.length)), entries: [] };
    const { slot, entries } = pg;
    for (const [key, i] of index) {
      for (const id of wordsOf.get(key) ?? []) {
        const n = occurrences(keyOf[id], grams[i]);
        const e = slot[id];
        if (e !== 0) { entries[e - 1].push(i, n); continue; }
        entries.push([i, n]);
        slot[id] = entries.length;
        if (id > pg.last) pg.last = id;
      }
    }
    planGrams.set(grams, pg);
  }
  // Keys interned since (a search builds documents' line terms as it goes): only those are cut.
  for (let id = pg.noted; id < keyOf.length; id++) {
    const key = keyOf[id];
    if (key.charCodeAt(0) !== 0x77 || isStopword(key.slice(1))) continue;
    let pairs: number[] | null = null;
    forEachWordGram(key.slice(1), (k) => {
      const g = pg.index.get(k);
      if (g === undefined) return;
      pairs ??= [];
      let at = 0;
      while (at < pairs.length && pairs[at] !== g) at += 2;
      if (at < pairs.length) pairs[at + 1]++; else pairs.push(g, 1);
    });
    if (pairs) add(pg, id, ascending(pairs));
  }
  pg.noted = keyOf.length;
  return pg;
}

/**
 * How many grams of the word of a whole-word key ('w' + word) are `gram`, the word holding it: its
 * overlapping occurrences (a gram starts on a code point, so one found in UTF-16 units is one of its grams;
 * a word of up to GRAM_LENGTH code points is its one gram).
 */
function occurrences(key: string, gram: string): number {
  let n = 0;
  for (let p = key.indexOf(gram, 1); p >= 0; p = key.indexOf(gram, p + 1)) n++;
  return n;
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

/** A file's keys that hold the plan's grams: per gram index, flat (index into ids, occurrences) pairs. */
export type GramHits = number[][];

/** Scratch GramHits, emptied for each file (a search asks for every kept document's, one at a time). */
let scratch: GramHits = [];

/**
 * The file's GramHits for the plan (one pass over its key ids); null when the plan has no grams. Valid
 * until the next call (its arrays are reused).
 */
export function gramHits(t: WordPostings, plan: RankPlan): GramHits | null {
  const pg = gramsOf(plan);
  if (!pg) return null;
  const n = plan.prose!.grams.length;
  while (scratch.length < n) scratch.push([]);
  const by = scratch.length === n ? scratch : (scratch = scratch.slice(0, n));
  for (const list of by) list.length = 0;
  const { slot, entries, last } = pg;
  for (let x = 0; x < t.ids.length; x++) {
    const id = t.ids[x];
    if (id > last) break;
    const e = slot[id];
    if (e === 0) continue;
    const pairs = entries[e - 1];
    for (let j = 0; j < pairs.length; j += 2) by[pairs[j]].push(x, pairs[j + 1]);
  }
  return by;
}

/** Scratch: a stamp per line (which gram last counted it). */
let mark = new Int32Array(1024);
let stamp = 0;
/** Scratch: per line, its count of the gram at hand (zero between uses). */
let count = new Float64Array(1024);

/** Each plan gram's document frequency: how many lines hold a word that holds it (ProseCounter's gram df). */
export function gramFrequencies(t: WordPostings, hits: GramHits | null): Float64Array {
  const df = new Float64Array(hits?.length ?? 0);
  if (!hits) return df;
  if (mark.length < t.lines) mark = new Int32Array(t.lines * 2);
  hits.forEach((pairs, g) => {
    if (stamp >= 0x7fffffff) { mark.fill(0); stamp = 0; }
    const s = ++stamp;
    for (let p = 0; p < pairs.length; p += 2) {
      const x = pairs[p];
      for (let j = t.ownStart[x]; j < t.ownStart[x + 1]; j++) {
        const line = t.ownLine[j];
        if (mark[line] !== s) { mark[line] = s; df[g]++; }
      }
    }
  });
  return df;
}

/**
 * Adds into out[i], for each line i where `take[i] > 0`, its grams' BM25 with the statistics: exactly
 * prose.ts gramBm25 of the line (the same terms, added in ascending gram order as it adds them).
 */
export function addGramBm25(t: WordPostings, hits: GramHits, s: ProseStats, take: Float64Array, out: Float64Array): void {
  if (count.length < t.lines) count = new Float64Array(t.lines * 2);
  const touched: number[] = [];
  hits.forEach((pairs, g) => {
    for (let p = 0; p < pairs.length; p += 2) {
      const x = pairs[p];
      const n = pairs[p + 1];
      for (let j = t.ownStart[x]; j < t.ownStart[x + 1]; j++) {
        const line = t.ownLine[j];
        if (!(take[line] > 0)) continue;
        if (count[line] === 0) touched.push(line);
        count[line] += t.ownCount[j] * n;
      }
    }
    const idf = s.gramIdf[g];
    for (const line of touched) {
      const f = count[line];
      const norm = PROSE_K1 * (1 - PROSE_B + (PROSE_B * t.lengths[line]) / s.avgChars);
      out[line] += idf * (f * (PROSE_K1 + 1)) / (f + norm);
      count[line] = 0;
    }
    touched.length = 0;
  });
}
