// The small pieces the term counters share: a term's probe (what a text must hold for one of its words
// to match the term), a tally of term counts, and the identifier character classes.
// A search's plan keeps at most RANK_DEFAULTS.maxQueryTerms terms (query-terms.ts), so a line is
// counted by one search per term; a long query (a pasted file) costs what a short one does.
import type { RankPlan } from './plan.js';

/** The probe of a term: what a text must hold (folded) for one of its words to match it. */
export function probeOf(term: RankPlan['terms'][number]): string {
  return term.whole || term.key.length < 4 ? term.key : term.key.slice(0, -1);
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
