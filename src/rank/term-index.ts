// Query terms by key, for plans with many terms (a pasted block of code as the query): counting them
// then costs one pass over a line's identifiers, not one search of the line per term, so a query's
// cost grows with its length plus the text's, never with their product.
import type { RankPlan } from './plan.js';
import { identifierParts, stem } from './lexical/terms.js';

/** Above this many terms, a line is counted by its identifiers; below, by a search per term (faster for few). */
export const MANY_TERMS = 24;

export interface TermIndex {
  /** Term key -> its index in plan.terms (keys are unique in a plan). */
  byKey: Map<string, number>;
  /** Defined name (lower-cased) -> its symbol boost. */
  symbols: Map<string, number>;
}

const indexes = new WeakMap<RankPlan, TermIndex>();

export function termIndexOf(plan: RankPlan): TermIndex {
  let idx = indexes.get(plan);
  if (!idx) {
    idx = { byKey: new Map(plan.terms.map((t, i) => [t.key, i])), symbols: new Map() };
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
export function countTermsByIdentifiers(text: string, lower: string, plan: RankPlan, tf: Float64Array, touched?: number[]): boolean {
  const { byKey } = termIndexOf(plan);
  const terms = plan.terms;
  let matched = false;
  const hit = (t: number) => {
    if (touched && tf[t] === 0) touched.push(t);
    tf[t]++;
    matched = true;
  };
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (!isIdentChar(text.charCodeAt(i))) { i++; continue; }
    let s = i;
    while (i < n && isIdentChar(text.charCodeAt(i))) i++;
    while (s < i && isDigit(text.charCodeAt(s))) s++;
    if (s === i) continue;
    const whole = byKey.get(lower.slice(s, i));
    if (whole !== undefined && terms[whole].whole) hit(whole);
    for (const part of identifierParts(text.slice(s, i))) {
      const t = byKey.get(stem(part));
      if (t !== undefined && !terms[t].whole) hit(t);
    }
  }
  return matched;
}

export function isIdentChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

export function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
