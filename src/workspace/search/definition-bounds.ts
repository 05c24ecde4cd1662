// Bounds of each chunk's symbol boost from the defined-name postings, for the candidate pass: the
// definition boost of names that hold a query term (by a merge of the terms' name lists) and the
// boosts of the plan's symbols.
import { symbolScore } from '../../rank/chunk-scorer.js';
import type { RankPlan } from '../../rank/plan.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import type { Entries } from '../snapshot/postings.js';
import { pathInfo } from '../snapshot/path-info.js';
import type { CandidateQuery } from './candidate-query.js';
import { cleanWork, work } from './work-arrays.js';

/** The chunks whose symbol bounds and the names whose covered idf the last query set (definitionBounds). */
const offeredChunks: number[] = [];
const coveredNames: number[] = [];

/** Per snapshot, the chunk of each defined name (by defStart), made on first use: a query looks up thousands. */
const defChunks = new WeakMap<Snapshot, Int32Array>();

function definitionChunks(s: Snapshot): Int32Array {
  let out = defChunks.get(s);
  if (!out) {
    out = new Int32Array(s.defNames.length);
    const n = s.start.length;
    for (let c = 0; c < n; c++) out.fill(c, s.defStart[c], Math.min(s.defStart[c + 1], out.length));
    defChunks.set(s, out);
  }
  return out;
}

/**
 * Per chunk, bounds of the symbol boost chunkStats gives it (the best boost among its lines that hold
 * a query term), from the defined-name postings: `possible` takes every name the chunk defines;
 * `certain` only plain-identifier names that themselves hold a query term, since such a name's line
 * holds that term and chunkStats sees it. Null when the plan boosts no definition. (The arrays are
 * reused by the next call.)
 */
export function definitionBounds(s: Snapshot, q: CandidateQuery, plan: RankPlan): { possible: Float64Array; certain: Float64Array } | null {
  if (plan.symbols.length === 0 && !(plan.definitionBoost > 0 && plan.idfSum > 0)) return null;
  const n = s.start.length;
  // Zero but where the last query set them (cleaned now: a pass over every chunk and name costs more).
  const possible = cleanWork('possible', Float64Array, n, offeredChunks);
  const certain = cleanWork('certain', Float64Array, n, offeredChunks);
  offeredChunks.length = 0;
  const { defStart, defPlain } = s;
  const chunkOf = definitionChunks(s);
  const offer = (c: number, d: number, v: number, holdsTerm: boolean) => offerBoost(possible, certain, defPlain, c, d, v, holdsTerm);
  const { definitionBoost, idfSum } = plan;
  const boosts = definitionBoost > 0 && idfSum > 0;
  if (mergedOn) {
    const holding = mergeNames(s, plan, chunkOf, boosts ? { possible, certain } : null);
    offerSymbols(s, q, plan, (d) => sortedHas(holding, d), offer);
    return { possible, certain };
  }
  // Per defined name, the idf of the query terms it holds (typed arrays, not a map: there is one
  // entry per name, whatever the query).
  const coveredIdf = cleanWork('coveredIdf', Float64Array, s.defNames.length, coveredNames);
  const isCovered = cleanWork('isCovered', Uint8Array, s.defNames.length, coveredNames);
  const covered = coveredNames;
  covered.length = 0;
  // The loops read locals only (as selectCandidates': a property read through a many-shaped snapshot costs more).
  for (const term of plan.terms) {
    const found = (term.whole ? s.byDefLower : s.byDefStem).find(term.key);
    if (!found) continue;
    const { chunk, count } = found;
    const idf = term.idf;
    for (let j = 0; j < chunk.length; j++) {
      const d = defStart[chunk[j]] + count[j];
      if (isCovered[d] === 0) { isCovered[d] = 1; covered.push(d); }
      coveredIdf[d] += idf;
    }
  }
  if (definitionBoost > 0 && idfSum > 0) {
    for (let i = 0; i < covered.length; i++) {
      const d = covered[i];
      offer(chunkOf[d], d, definitionBoost * (coveredIdf[d] / idfSum), true);
    }
  }
  offerSymbols(s, q, plan, (d) => isCovered[d] === 1, offer);
  return { possible, certain };
}

/**
 * Name d's boost v offered to its chunk c's bounds (`holdsTerm`: whether the name holds a query term). A
 * function of the module, not a closure made per query: mergeNames calls it for each name that holds a term
 * (thousands for find_related's chunk), and a call to a closure made per query was compiled for the first
 * one and dropped at the next ("wrong call target"), its doubles passed boxed (latency-log.md, warm36).
 */
function offerBoost(possible: Float64Array, certain: Float64Array, defPlain: Uint8Array, c: number, d: number, v: number, holdsTerm: boolean): void {
  if (possible[c] === 0 && certain[c] === 0) offeredChunks.push(c);
  if (v > possible[c]) possible[c] = v;
  if (holdsTerm && defPlain[d] === 1 && v > certain[c]) certain[c] = v;
}

/** Each plan symbol's definitions offered their boost (`holdsTerm(d)`: whether name d holds a query term). */
function offerSymbols(s: Snapshot, q: CandidateQuery, plan: RankPlan, holdsTerm: (d: number) => boolean, offer: (c: number, d: number, v: number, holdsTerm: boolean) => void): void {
  const { defStart } = s;
  for (const sym of plan.symbols) {
    const found = s.byDefLower.find(sym.name);
    if (!found) continue;
    for (let j = 0; j < found.chunk.length; j++) {
      const c = found.chunk[j];
      const d = defStart[c] + found.count[j];
      const path = q.display[s.chunkFile[c]];
      if (path === undefined) continue;
      const fileStem = (q.infos?.[s.chunkFile[c]] ?? pathInfo(path)).facts.fileStem;
      offer(c, d, symbolScore(s.defNames.at(d)!, plan, fileStem), holdsTerm(d));
    }
  }
}

let mergedOn = true;

/** Lets the tests compare the merge of the terms' name lists with the per-name sums (on by default). */
export function setMergedNames(on: boolean): void {
  mergedOn = on;
}

/**
 * The defined names that hold a query term, ascending, from the terms' defined-name lists (each in name
 * order, as a snapshot file keeps them; else sorted), merged: each entry as the key name * k + term (k
 * lists; exact while names * k is below 2 ** 53), the lists' runs of keys merged two by two until one
 * run is left (a long query's 24 lists: 5 passes of a comparison an entry), so a name's terms come
 * together in term order and its idf is summed as the per-name sums add it. `offer` (where the plan
 * gives a definition boost): each name's boost offered to its chunk's bounds. The array is reused by the next call.
 */
function mergeNames(s: Snapshot, plan: RankPlan, chunkOf: Int32Array, bounds: { possible: Float64Array; certain: Float64Array } | null): Int32Array {
  const { definitionBoost, idfSum } = plan;
  const { defStart, defPlain } = s;
  const possible = bounds?.possible;
  const certain = bounds?.certain;
  // The terms' lists and idfs by a loop, not `map`: V8's `map` makes a list of one elements kind in the
  // interpreter and of another once compiled, and the loops below were compiled for one ("wrong map": 3-4
  // of mergeNames' deopts in a warm phase; latency-log.md, warm36).
  const { terms } = plan;
  const k = terms.length;
  const lists: (Entries | null)[] = [];
  const idf = work('mergedIdf', Float64Array, k);
  let total = 0;
  for (let t = 0; t < k; t++) {
    const term = terms[t];
    const l = (term.whole ? s.byDefLower : s.byDefStem).find(term.key);
    lists.push(l);
    idf[t] = term.idf;
    total += l ? l.chunk.length : 0;
  }
  let keys = work('mergedKeys', Float64Array, total);
  let into = work('mergedInto', Float64Array, total);
  // Where each run of keys ends (one run a list that has entries).
  const runEnds = new Int32Array(k);
  let runs = 0;
  let end = 0;
  for (let t = 0; t < k; t++) {
    const l = lists[t];
    if (!l || l.chunk.length === 0) continue;
    const from = end;
    const { chunk, count } = l;
    let last = -1;
    let sorted = true;
    for (let j = 0; j < chunk.length; j++) {
      const d = defStart[chunk[j]] + count[j];
      if (d < last) sorted = false;
      keys[end++] = d * k + t;
      last = d;
    }
    // Lists ascend by chunk since merge31 (postings.ts); a snapshot file written by an older build may hold
    // lists in the order of its rows, not of its renumbered chunks.
    if (!sorted) keys.subarray(from, end).sort();
    runEnds[runs++] = end;
  }
  while (runs > 1) {
    let merged = 0;
    let from = 0;
    for (let r = 0; r < runs; r += 2) {
      const mid = runEnds[r];
      const to = r + 1 < runs ? runEnds[r + 1] : mid;
      let i = from;
      let j = mid;
      let o = from;
      while (i < mid && j < to) into[o++] = keys[j] < keys[i] ? keys[j++] : keys[i++];
      while (i < mid) into[o++] = keys[i++];
      while (j < to) into[o++] = keys[j++];
      runEnds[merged++] = to;
      from = to;
    }
    runs = merged;
    const was = keys;
    keys = into;
    into = was;
  }
  const holding = work('holdingNames', Int32Array, total);
  let held = 0;
  let name = -1;
  let sum = 0;
  for (let e = 0; e < total; e++) {
    const key = keys[e];
    const d = Math.floor(key / k);
    if (d !== name) {
      if (name >= 0) { holding[held++] = name; if (possible) offerBoost(possible, certain!, defPlain, chunkOf[name], name, definitionBoost * (sum / idfSum), true); }
      name = d;
      sum = 0;
    }
    sum += idf[key - d * k];
  }
  if (name >= 0) { holding[held++] = name; if (possible) offerBoost(possible, certain!, defPlain, chunkOf[name], name, definitionBoost * (sum / idfSum), true); }
  return holding.subarray(0, held);
}

/** Whether the ascending array holds v. */
function sortedHas(xs: Int32Array, v: number): boolean {
  let lo = 0;
  let hi = xs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] === v) return true;
    if (xs[mid] < v) lo = mid + 1; else hi = mid - 1;
  }
  return false;
}
