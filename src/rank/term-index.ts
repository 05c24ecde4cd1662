// Query terms by key, for plans with many terms (a pasted block of code as the query): counting them
// then costs one pass over a line's identifiers, not one search of the line per term, so a query's
// cost grows with its length plus the text's, never with their product.
// A search's plan keeps at most RANK_DEFAULTS.maxQueryTerms terms (query-terms.ts), no more than
// MANY_TERMS, so it takes the per-term search; this path serves plans built with more (maxTerms).
import type { RankPlan } from './plan.js';
import { identifierParts, stem } from './lexical/terms.js';
import { HASH_START, hashStep, identifierRuns, RUN_LIMIT } from './run-table.js';

/** Above this many terms, a line is counted by its identifiers; below, by a search per term (faster for few). */
export const MANY_TERMS = 24;

export interface TermIndex {
  /** Term key -> its index in plan.terms (keys are unique in a plan). */
  byKey: Map<string, number>;
  /** Defined name (lower-cased) -> its symbol boost. */
  symbols: Map<string, number>;
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
  /** The same for the words of text in other scripts (counted whole by wordTerms, no digits dropped). */
  words: Map<string, readonly number[]>;
}

/** Distinct words of other scripts remembered per plan; later new ones are worked out each time. */
const WORD_LIMIT = 1 << 15;
const NO_TERMS: readonly number[] = [];

const indexes = new WeakMap<RankPlan, TermIndex>();

export function termIndexOf(plan: RankPlan): TermIndex {
  let idx = indexes.get(plan);
  if (!idx) {
    idx = { byKey: new Map(plan.terms.map((t, i) => [t.key, i])), symbols: new Map(), runHits: null, partProbes: [...new Set(plan.terms.filter((t) => !t.whole).map(probeOf))], words: new Map() };
    for (const s of plan.symbols) if (!idx.symbols.has(s.name)) idx.symbols.set(s.name, s.strength);
    indexes.set(plan, idx);
  }
  return idx;
}

/**
 * countTerms by identifiers: each run of identifier characters (leading digits dropped) counts for
 * the whole term equal to it lower-cased and for the part term of each part's stem. That is what the
 * search per term counts, since an identifier that matches a term always holds the term's probe.
 */
export function countTermsByIdentifiers(text: string, plan: RankPlan, tf: Float64Array, touched?: number[]): boolean {
  const index = termIndexOf(plan);
  const n = text.length;
  let matched = false;
  let i = 0;
  while (i < n) {
    if (!isIdentChar(text.charCodeAt(i))) { i++; continue; }
    // Leading digits are dropped, as words.ts drops them (`25px` is the word `px`, `2025` none).
    while (i < n && isDigit(text.charCodeAt(i))) i++;
    const from = i;
    let h = HASH_START;
    for (let c = text.charCodeAt(i); i < n && isIdentChar(c); c = text.charCodeAt(++i)) h = hashStep(h, c);
    if (from === i) continue;
    if (countRun(index, plan, identifierRuns.id(text, from, i, h), tf, touched)) matched = true;
  }
  return matched;
}

/** Per dictionary run, where its terms start in `terms` (-1: not worked out yet) and how many. */
interface RunHits { generation: number; first: Int32Array; count: Int32Array; terms: number[] }

/**
 * Counts the terms run `id` of the dictionary counts for in the plan (countWordByKey's, worked out
 * once per plan) into `tf`, as tally does; whether it counted any.
 */
export function countRun(index: TermIndex, plan: RankPlan, id: number, tf: Float64Array, touched: number[] | undefined): boolean {
  let r = index.runHits;
  if (!r || r.generation !== identifierRuns.generation) {
    r = index.runHits = { generation: identifierRuns.generation, first: new Int32Array(RUN_LIMIT).fill(-1), count: new Int32Array(RUN_LIMIT), terms: [] };
  }
  let first = r.first[id];
  if (first < 0) {
    const terms = plan.terms;
    first = r.first[id] = r.terms.length;
    const lower = identifierRuns.whole(id);
    const whole = index.byKey.get(lower);
    if (whole !== undefined && terms[whole].whole) r.terms.push(whole);
    // A part that stems to a term's key holds its probe (what the search per term relies on too).
    if (index.partProbes.some((p) => lower.includes(p))) {
      for (const partStem of identifierRuns.stems(id)) {
        const t = index.byKey.get(partStem);
        if (t !== undefined && !terms[t].whole) r.terms.push(t);
      }
    }
    r.count[id] = r.terms.length - first;
  }
  const end = first + r.count[id];
  const hits = r.terms;
  for (let k = first; k < end; k++) {
    const t = hits[k];
    if (touched && tf[t] === 0) touched.push(t);
    tf[t]++;
  }
  return end > first;
}

/** The probe of a term: what a text must hold (folded) for one of its words to match it. */
export function probeOf(term: RankPlan['terms'][number]): string {
  return term.whole || term.key.length < 4 ? term.key : term.key.slice(0, -1);
}

/**
 * Counts one word (an identifier, or a word of any script) by key: keys are unique in a plan, so it
 * matches at most the whole term equal to `wholeKey` and the part term of each of its parts' stems.
 */
export function countWordByKey(index: TermIndex, plan: RankPlan, wholeKey: string, word: string, hit: (t: number) => void): void {
  const terms = plan.terms;
  const whole = index.byKey.get(wholeKey);
  if (whole !== undefined && terms[whole].whole) hit(whole);
  for (const part of identifierParts(word)) {
    const t = index.byKey.get(stem(part));
    if (t !== undefined && !terms[t].whole) hit(t);
  }
}

/** The terms one word of any script counts for (countWordByKey), remembered by the word as runs are. */
export function wordTerms(index: TermIndex, plan: RankPlan, word: string, folded: (w: string) => string): readonly number[] {
  const known = index.words.get(word);
  if (known) return known;
  const out: number[] = [];
  countWordByKey(index, plan, folded(word), word, (t) => { out.push(t); });
  const hits = out.length === 0 ? NO_TERMS : out;
  if (index.words.size < WORD_LIMIT) index.words.set(word, hits);
  return hits;
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
