// A prose line's plan terms and grams found by its identifier runs (run-table.ts), what each run
// counts for worked out once per plan: counting a document costs one pass over its text whatever the
// query's length, where a search per term or gram costs a pass per term (24 for a pasted file).
import { forEachWordGram } from './lexical/grams.js';
import { isStopword } from './lexical/terms.js';
import type { RankPlan } from './plan.js';
import { countNumbers, gramIndexOf, proseTermCount, type LineTerms } from './prose.js';
import { HASH_START, hashStep, identifierRuns, newRunSlots, runFirst, runList, RunSlotTable, setRun, type RunSlots } from './run-table.js';
import { countRun, isDigit, isIdentChar, termIndexOf, type TermIndex } from './term-index.js';

/**
 * Per dictionary run, where its grams (indices of plan.prose.grams, repeats kept) start in `grams`, and how
 * many: in the thread's table of run grams under the owner's token (run-table.ts RunSlotTable).
 */
interface RunGrams extends RunSlots { generation: number; grams: number[]; byKey: Map<number | string, number> }

/** The thread's table of the plans' run grams (one for all plans: run-table.ts). */
const gramSlots = new RunSlotTable();

/** Keyed by the plan's grams list, which a plan made again for the same query shares (plan.ts's recent plans). */
const planGrams = new WeakMap<readonly string[], RunGrams>();

/**
 * Scratch for one counter: term and gram counts, and which are set; the plan's term index and run grams,
 * looked up once per counter rather than per line (the grams follow the dictionary's generation).
 */
export interface RunScratch { tf: Float64Array; touched: number[]; gf: Float64Array; gTouched: number[]; index: TermIndex; rg: RunGrams | null }

export function runScratch(plan: RankPlan): RunScratch {
  const gf = new Float64Array(plan.prose?.grams.length ?? 0);
  return { tf: new Float64Array(proseTermCount(plan)), touched: [], gf, gTouched: [], index: termIndexOf(plan), rg: gf.length > 0 ? runGramsOf(plan) : null };
}

function runGramsOf(plan: RankPlan): RunGrams {
  const list = plan.prose?.grams ?? [];
  let r = planGrams.get(list);
  if (!r || r.generation !== identifierRuns.generation) {
    r = { generation: identifierRuns.generation, ...newRunSlots(gramSlots), grams: [], byKey: gramIndexOf(list) };
    planGrams.set(list, r);
  }
  return r;
}

/** Counts the plan grams of run `id` (forEachGram's of the word: its folded whole, no stopword) into `gf`. */
function countRunGrams(r: RunGrams, id: number, gf: Float64Array, touched: number[]): void {
  let first = runFirst(r, id);
  if (first < 0) {
    // Past its bound, or of an older round of tokens: an empty list under a new token (run-table.ts runList).
    r.grams = runList(r, r.grams);
    first = r.grams.length;
    const word = identifierRuns.whole(id);
    if (!isStopword(word)) {
      forEachWordGram(word, (key) => {
        const g = r.byKey.get(key);
        if (g !== undefined) r.grams.push(g);
      });
    }
    setRun(r, id, first, r.grams.length - first);
  }
  const end = first + r.table.count[id];
  for (let k = first; k < end; k++) {
    const g = r.grams[k];
    if (gf[g] === 0) touched.push(g);
    gf[g]++;
  }
}

/**
 * An ASCII line's LineTerms (lineTerms': countTerms, countNumbers and lineGrams) and, for a line that holds no term,
 * its grams (ascending; what its document frequencies count). The words of ASCII text are its
 * identifier runs without their leading digits (words.ts), which is what both count.
 */
export function asciiLineTerms(line: string, plan: RankPlan, s: RunScratch): { row: LineTerms; grams: number[] } {
  const index = s.index;
  const n = line.length;
  let i = 0;
  while (i < n) {
    if (!isIdentChar(line.charCodeAt(i))) { i++; continue; }
    while (i < n && isDigit(line.charCodeAt(i))) i++;
    const from = i;
    let h = HASH_START;
    // Never a read at n: charCodeAt past the end is NaN, which V8's optimized loop takes as a bailout
    // (out of bounds) and compiles again, ~0.1 s of a compiler thread a first search (branch first33).
    while (i < n) {
      const c = line.charCodeAt(i);
      if (!isIdentChar(c)) break;
      h = hashStep(h, c);
      i++;
    }
    if (from === i) continue;
    const id = identifierRuns.id(line, from, i, h);
    countRun(index, plan, id, s.tf, s.touched);
    // The dictionary may have started again on this run (a new generation): the grams' table follows it.
    if (s.rg) {
      if (s.rg.generation !== identifierRuns.generation) s.rg = runGramsOf(plan);
      countRunGrams(s.rg, id, s.gf, s.gTouched);
    }
  }
  // The query's numbers, which are no identifier run (words.ts textNumbers).
  countNumbers(line, plan, s.tf, s.touched);
  if (s.touched.length === 0) return { row: null, grams: take(s.gf, s.gTouched, null) };
  const gramCounts: number[] = [];
  const grams = take(s.gf, s.gTouched, gramCounts);
  const counts: number[] = [];
  return { row: { terms: take(s.tf, s.touched, counts), counts, grams, gramCounts }, grams };
}

const NO_GRAMS: readonly number[] = Object.freeze([]);

/** The set entries of `counts` (ascending), their values pushed to `values`; both left zeroed and empty. */
function take(counts: Float64Array, touched: number[], values: number[] | null): number[] {
  const n = touched.length;
  if (n === 0) return values ? [] : NO_GRAMS as number[];
  const keys = new Array<number>(n);
  // Insertion sort: a line holds a few of the plan's terms or grams.
  for (let i = 0; i < n; i++) {
    const k = touched[i];
    let j = i;
    while (j > 0 && keys[j - 1] > k) { keys[j] = keys[j - 1]; j--; }
    keys[j] = k;
  }
  for (let i = 0; i < n; i++) { values?.push(counts[keys[i]]); counts[keys[i]] = 0; }
  touched.length = 0;
  return keys;
}
