// The terms a query is matched by: its identifiers whole and their stemmed parts, each with its idf
// from the shipped lexicon. A long query (a pasted block of code, find_related's chunk) keeps only its
// most distinctive terms, by count in the query x idf, as Lucene's MoreLikeThis keeps max_query_terms:
// its cost then stays that of a short query, and what it keeps depends on the query and the lexicon
// alone, never on the files searched, so an index answers it exactly as a scan does.
import { idf, type Lexicon } from './lexical/lexicon.js';
import { identifierParts, isStopword, stem } from './lexical/terms.js';
import { fold, isAscii, queryWords } from './lexical/words.js';

/** A query's word longer than this is no term (see queryTerms). */
export const MAX_WORD_CHARS = 16_384;

export interface QueryTerm {
  /** What is matched: a whole identifier (lower-cased) or a stemmed part. */
  key: string;
  whole: boolean;
  idf: number;
}

export interface QueryTerms {
  /** The terms matched, in order of first sight in the query. */
  terms: QueryTerm[];
  /** Each distinct identifier of the query, in order of first sight. */
  idents: string[];
  /** Whether an identifier of the query led to a kept term (always true when nothing was cut). */
  kept(ident: string): boolean;
  /** Whether the query had more than maxTerms terms (a pasted block, find_related's chunk): only the most distinctive were kept. */
  cut: boolean;
  /** How many distinct terms the query had before the cut. */
  count: number;
}

/**
 * An empty list of the kind a list of terms has (a slice keeps its source's kind, here a list of objects; `[]` starts
 * as another): the terms of a query with none (its words are stopwords) and of a semantic plan. Never changed.
 */
export const NO_TERMS = [{}].slice(0, 0) as QueryTerm[];

/**
 * The query's terms; with more than `maxTerms` of them, the `maxTerms` with the greatest count in the
 * query x idf (ties: first seen first; one-character terms left out), in their order of first sight.
 */
export function queryTerms(query: string, lexicon: Lexicon, maxTerms: number): QueryTerms {
  // Each distinct identifier once (a pasted file repeats most), with how often it occurs, in order of
  // first sight: the terms come out in the same order as from every occurrence.
  const seen = new Map<string, number>();
  for (const ident of queryWords(query)) seen.set(ident, (seen.get(ident) ?? 0) + 1);
  // A word that folds to nothing (a lone presentation selector U+FE0E/U+FE0F after a separator: `x \ufe0f- y`
  // is the words `x`, `\ufe0f`, `y`) is no identifier: its key '' would be found at every place of every
  // line (mend37b: counting it grew a list until the heap ran out).
  // Nor is a word of a blob (a hex or base64 run in a pasted file): past V8's bound on a regular expression's
  // literal (32,767 characters) the probes' alternation could not be made, and every file of a scan failed
  // to score (WORKER_FAILED, audit44); no name is that long.
  for (const ident of seen.keys()) if (ident.length > MAX_WORD_CHARS || (!isAscii(ident) && fold(ident) === '')) seen.delete(ident);
  const idents = [...seen.keys()];
  const found = new Map<string, { whole: boolean; word: string; tf: number; order: number }>();
  /** The first key each identifier added (its whole term, or its one part's): what keeps the identifier. */
  const keyOf = new Map<string, string>();
  const add = (ident: string, key: string, whole: boolean, word: string, tf: number) => {
    // No empty term ever (see above): none is found as a word, and every text holds it.
    if (key.length === 0) return;
    const f = found.get(key);
    if (f) f.tf += tf;
    else found.set(key, { whole, word, tf, order: found.size });
    if (!keyOf.has(ident)) keyOf.set(ident, key);
  };
  for (const ident of idents) {
    const tf = seen.get(ident)!;
    const lower = fold(ident);
    const parts = identifierParts(ident);
    if (parts.length > 1) add(ident, lower, true, lower, tf);
    for (const part of parts) {
      if (parts.length === 1 && isStopword(part)) continue;
      if (part.length < 2 && parts.length > 1) continue;
      add(ident, stem(part), false, part, tf);
    }
  }
  // Lists made by pushing, not by map(): V8's compiled map() makes a list of another kind ("holey") than
  // its interpreter's, and every loop over a plan's terms, compiled for the one, was dropped at the first
  // plan made by the other (16 functions at once, once this function was compiled: branch deopt43); the
  // lexicon's prefetch, inlined here, at the first list of words.
  const words: string[] = [];
  for (const f of found.values()) words.push(f.word);
  lexicon.prefetch?.(words);
  let all: { term: QueryTerm; tf: number; order: number }[] = [];
  for (const [key, f] of found) all.push({ term: { key, whole: f.whole, idf: idf(lexicon, f.word) }, tf: f.tf, order: f.order });
  const cut = all.length > maxTerms;
  if (cut) {
    // A one-character name (`w`, `i`, `x`) is a local variable: it tells nothing of what the code
    // does, yet its probe is in nearly every line, so each line would be counted term by term.
    all = all.filter((x) => x.term.key.length > 1)
      .sort((x, y) => y.tf * y.term.idf - x.tf * x.term.idf || x.order - y.order)
      .slice(0, maxTerms)
      .sort((x, y) => x.order - y.order);
  }
  const terms: QueryTerm[] = all.length > 0 ? [] : NO_TERMS;
  for (const x of all) terms.push(x.term);
  const keys = cut ? new Set(terms.map((t) => t.key)) : null;
  return { terms, idents, cut, count: found.size, kept: (ident) => keys === null || keys.has(keyOf.get(ident) ?? fold(ident)) };
}
