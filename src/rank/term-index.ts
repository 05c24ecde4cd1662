// The pieces the term counters share: a plan's terms by key with what each identifier run of the
// process's dictionary (run-table.ts) counts for (prose-run-terms.ts counts an ASCII prose line in one
// pass over its runs), a term's probe (what a text must hold for one of its words to match the term),
// a tally of term counts, and the identifier character classes.
import type { RankPlan } from './plan.js';
import { identifierRuns, newRunSlots, runFirst, runList, RunSlotTable, setRun, type RunSlots } from './run-table.js';

export interface TermIndex {
  /** Term key -> its index in plan.terms (keys are unique in a plan). */
  byKey: Map<string, number>;
  /**
   * What each identifier run of the process's dictionary (run-table.ts) counts for in this plan (term
   * indices, with repeats, as counted), worked out on first sight; for dictionary `generation`.
   */
  runHits: RunHits | null;
  /**
   * The probes of the plan's part terms (probeOf): a run whose lower-cased whole holds none matches no
   * part term, so its parts are not split and stemmed.
   */
  partProbes: string[];
  /** Whether a text holds one of partProbes: one regular expression of them (a long query's ~20 probes, tried natively). */
  holdsPartProbe: (text: string) => boolean;
}

/** Keyed by the plan's terms list, which a plan made again for the same query shares (plan.ts's recent plans). */
const indexes = new WeakMap<RankPlan['terms'], TermIndex>();

export function termIndexOf(plan: RankPlan): TermIndex {
  let idx = indexes.get(plan.terms);
  if (!idx) {
    const partProbes = [...new Set(plan.terms.filter((t) => !t.whole).map(probeOf))];
    idx = { byKey: new Map(plan.terms.map((t, i) => [t.key, i])), runHits: null, partProbes, holdsPartProbe: anyOf(partProbes) };
    indexes.set(plan.terms, idx);
  }
  return idx;
}

/**
 * Whether a text holds any of `needles` (as some(includes) says): a regular expression of them, escaped,
 * without the u flag, so it compares UTF-16 units as includes does. `anyCase`: ASCII letters in either
 * case (the i flag without u: no other character matches an ASCII letter), as the text lower-cased would
 * on ASCII text (not on all text: '\u212Aelvin'.toLowerCase() holds 'kelvin', which /kelvin/i does not match).
 */
export function anyOf(needles: string[], anyCase = false): (text: string) => boolean {
  if (needles.length === 0) return () => false;
  if (needles.some((n) => n.length === 0)) return () => true;
  const re = new RegExp(needlesPattern(needles), anyCase ? 'i' : '');
  return (text) => re.test(text);
}

/** A regular expression's source matching any of `needles` (each escaped). */
export function needlesPattern(needles: string[]): string {
  return needles.map((n) => n.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&')).join('|');
}

/**
 * A plan's runs worked out: where each run's terms start in `terms` and how many, in the thread's table of
 * term hits under the hits' token (run-table.ts RunSlotTable: an entry another plan took since is worked out again).
 */
export interface RunHits extends RunSlots { generation: number; terms: number[] }

/** The thread's table of the plans' run hits (one for all plans: run-table.ts). */
const termSlots = new RunSlotTable();

/**
 * Counts the terms run `id` of the dictionary counts for in the plan (the whole term equal to it and
 * the part term of each part's stem, worked out once per plan) into `tf`, as tally does; whether it
 * counted any.
 */
export function countRun(index: TermIndex, plan: RankPlan, id: number, tf: Float64Array, touched: number[] | undefined): boolean {
  const r = runTermsOf(index, plan, id);
  const first = r.table.first[id];
  const end = first + r.table.count[id];
  const hits = r.terms;
  for (let k = first; k < end; k++) {
    const t = hits[k];
    if (touched && tf[t] === 0) touched.push(t);
    tf[t]++;
  }
  return end > first;
}

/**
 * Pushes to `out` the terms run `id` of the dictionary counts for in the plan, once per count (countRun's,
 * in its order): what the chunk scorer's spanTerms compared term by term for each identifier holding a probe.
 */
export function pushRunTerms(index: TermIndex, plan: RankPlan, id: number, out: number[]): void {
  const r = runTermsOf(index, plan, id);
  const first = r.table.first[id];
  const end = first + r.table.count[id];
  for (let k = first; k < end; k++) out.push(r.terms[k]);
}

/** The plan's run hits with run `id`'s worked out (on first sight: its whole, and its parts' stems where it holds a part probe). */
function runTermsOf(index: TermIndex, plan: RankPlan, id: number): RunHits {
  const r = runHitsOf(index);
  if (runFirst(r, id) >= 0) return r;
  // Past its bound, or of an older round of tokens: an empty list under a new token (run-table.ts runList).
  r.terms = runList(r, r.terms);
  const terms = plan.terms;
  const first = r.terms.length;
  const lower = identifierRuns.whole(id);
  const whole = index.byKey.get(lower);
  if (whole !== undefined && terms[whole].whole) r.terms.push(whole);
  // A part that stems to a term's key holds its probe (what the search per term relies on too).
  if (index.holdsPartProbe(lower)) {
    for (const partStem of identifierRuns.stems(id)) {
      const t = index.byKey.get(partStem);
      if (t !== undefined && !terms[t].whole) r.terms.push(t);
    }
  }
  setRun(r, id, first, r.terms.length - first);
  return r;
}

/**
 * The plan's run hits for the dictionary's current generation (started over with it: a new token). A caller
 * that counts many runs passes over those worked out to count for no term: runFirst(hits, id) >= 0 and the
 * table's count 0 (read from `hits.table` at the time: it grows).
 */
export function runHitsOf(index: TermIndex): RunHits {
  let r = index.runHits;
  if (!r || r.generation !== identifierRuns.generation) {
    r = index.runHits = { generation: identifierRuns.generation, ...newRunSlots(termSlots), terms: [] };
  }
  return r;
}

/**
 * The probe of a term: what a text must hold (folded) for one of its words to match it. A part's key
 * is a stem, and every word that stems to it holds the key less its last letter: the stemmer only
 * ever changes a word's last letter (`flies` -> `fly`, `handle` -> `handl`) or cuts letters after it.
 */
export function probeOf(term: RankPlan['terms'][number]): string {
  const cut = !term.whole && (term.key.length >= 4 || (term.key.length === 3 && term.key.endsWith('y')));
  return cut ? term.key.slice(0, -1) : term.key;
}

/** Adds one to a term's count, noting in `touched` each term counted for the first time. */
export function tally(tf: Float64Array, touched?: number[]): { hit: (t: number) => void; matched: boolean } {
  const count = {
    matched: false,
    hit(t: number) {
      if (touched && tf[t] === 0) touched.push(t);
      tf[t]++;
      count.matched = true;
    },
  };
  return count;
}

export function isIdentChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

export function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
