// Over all kept prose documents, per gram the documents that hold it (registered as each is kept, released
// as it is dropped), and a plan's grams found in all of them at once (gramHolders). A document's own grams
// and their lines are prose-doc-grams.ts's.
import type { RankPlan } from './plan.js';
import { gramIdsOf, grown, type DocumentGrams } from './prose-doc-grams.js';

/**
 * The documents registered (every kept document's grams, until it is dropped), a slot each (null once
 * released), and per gram id the registered documents that hold it: flat (slot, index in its grams,
 * document frequency and most in a line: packedDfMost) triples, `used` numbers of each list in use. A
 * query's grams are then found in all documents at once, in work proportional to the documents that
 * hold them, not documents x grams, and a document's bound reads its grams' statistics from the plan's
 * lists in order (issue 30: read from each document's own arrays, at random, they were most of
 * proseReach's time for find_related's ~100 grams over ~1,400 documents).
 */
let registered: (DocumentGrams | null)[] = [];
let live = 0;
let holders: Int32Array[] = [];
let used = new Int32Array(1024);
/** Bumped on every change to the registered documents: a plan's PlanGramHolders is made again after one. */
let version = 0;

/** Registers a document's grams (a kept document, once counted): it is found through holders from now on. */
export function registerGrams(d: DocumentGrams): void {
  if (d.slot >= 0) return;
  d.slot = registered.length;
  registered.push(d);
  live++;
  version++;
  for (let i = 0; i < d.gramId.length; i++) hold(d.gramId[i], d.slot, i, packedDfMost(d.gramDf[i], d.gramMost[i]));
}

/**
 * A gram's document frequency (at most 0xffff: a Uint16) and its most in a line in one int: the most in
 * the high 16 bits, 0xffff there when it is that or more (then read from the document: MOST_FAR).
 */
const packedDfMost = (df: number, most: number): number => (df | (Math.min(most, MOST_FAR) << 16)) | 0;
const MOST_FAR = 0xffff;

function hold(gid: number, slot: number, i: number, dfMost: number): void {
  if (gid >= used.length) used = grown(used, gid + 1);
  let list = holders[gid];
  const n = used[gid];
  if (!list) list = holders[gid] = new Int32Array(12);
  else if (n + 3 > list.length) list = holders[gid] = grown(list, n + 3);
  list[n] = slot;
  list[n + 1] = i;
  list[n + 2] = dfMost;
  used[gid] = n + 3;
}

/** Releases a document's grams (dropped by its keeper): past half the slots released, the lists are made again from the others. */
export function releaseGrams(d: DocumentGrams): void {
  if (d.slot < 0 || registered[d.slot] !== d) return;
  registered[d.slot] = null;
  d.slot = -1;
  live--;
  version++;
  if (registered.length >= 64 && live * 2 < registered.length) {
    const keep = registered.filter((x): x is DocumentGrams => x !== null);
    registered = [];
    holders = [];
    used.fill(0);
    live = 0;
    for (const x of keep) { x.slot = -1; registerGrams(x); }
  }
}

/**
 * A plan's grams in the registered documents: slot s's (plan gram, index in its grams, its document
 * frequency and most in a line there) at [start[s], start[s + 1]) of `gram`, `at`, `df` and `most`,
 * plan grams ascending (the order the BM25 sums add them).
 */
export interface PlanGramHolders { readonly start: Int32Array; readonly gram: Int32Array; readonly at: Int32Array; readonly df: Uint16Array; readonly most: Uint32Array }

const planHolders = new WeakMap<readonly string[], { version: number; ids: Int32Array; holders: PlanGramHolders }>();

/** The plan's PlanGramHolders (kept for its grams list until a document is registered or released); null: no grams. */
export function gramHolders(plan: RankPlan): PlanGramHolders | null {
  const ids = gramIdsOf(plan);
  if (!ids) return null;
  const grams = plan.prose!.grams;
  const kept = planHolders.get(grams);
  if (kept && kept.version === version && kept.ids === ids) return kept.holders;
  const start = new Int32Array(registered.length + 1);
  let total = 0;
  for (const gid of ids) {
    if (gid < 0 || gid >= used.length) continue;
    const list = holders[gid];
    for (let j = 0; j < used[gid]; j += 3) start[list[j] + 1]++;
    total += used[gid] / 3;
  }
  for (let s = 0; s < registered.length; s++) start[s + 1] += start[s];
  const fill = start.slice(0, registered.length);
  const gram = new Int32Array(total);
  const at = new Int32Array(total);
  const df = new Uint16Array(total);
  const most = new Uint32Array(total);
  ids.forEach((gid, g) => {
    if (gid < 0 || gid >= used.length) return;
    const list = holders[gid];
    for (let j = 0; j < used[gid]; j += 3) {
      const p = fill[list[j]]++;
      gram[p] = g;
      at[p] = list[j + 1];
      const dfMost = list[j + 2];
      df[p] = dfMost & 0xffff;
      const m = dfMost >>> 16;
      most[p] = m < MOST_FAR ? m : registered[list[j]]!.gramMost[list[j + 1]];
    }
  });
  const made = { start, gram, at, df, most };
  planHolders.set(grams, { version, ids, holders: made });
  return made;
}
