// Character grams of words, a second field for prose lines' BM25 (rank/prose.ts): a word and its
// inflected or prefixed forms (Arabic's attached article and conjunctions, German and Hindi endings)
// share most of their grams where they share no whole word. One rule for every script: ICU's words
// (words.ts), so Chinese grams stay inside the words ICU finds.
import { isStopword } from './terms.js';
import { fold, textWords } from './words.js';

/** Code points per gram: a word of at most this many is one gram, whole. */
export const GRAM_LENGTH = 3;

const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * A gram's key for lookups: its 1-3 UTF-16 units packed into one number when it has no surrogate
 * (no unit of a word is 0, so lengths 1, 2 and 3 never collide), else the string itself.
 */
export function gramKey(g: string): number | string {
  if (g.length > GRAM_LENGTH || SURROGATE.test(g)) return g;
  let k = 0;
  for (let i = 0; i < g.length; i++) k = k * 65536 + g.charCodeAt(i);
  return k;
}

/**
 * Calls `gram` with the key (gramKey) of each gram of a text, in order, repeats kept: each word
 * (words.ts) of the folded text, stopwords left out, cut into every run of GRAM_LENGTH code points (a
 * shorter word whole). Bare numbers are no word here either.
 */
export function forEachGram(text: string, gram: (key: number | string) => void): void {
  for (const w of textWords(fold(text))) if (!isStopword(w)) forEachWordGram(w, gram);
}

/**
 * Calls `gram` with the key of each gram of one folded word, in order, repeats kept (forEachGram's cut
 * of each word: the kept prose line terms find a line's grams from its words by it, rank/prose-line-grams.ts).
 */
export function forEachWordGram(w: string, gram: (key: number | string) => void): void {
  if (SURROGATE.test(w)) {
    const cps = Array.from(w);
    if (cps.length <= GRAM_LENGTH) gram(gramKey(w));
    else for (let i = 0; i + GRAM_LENGTH <= cps.length; i++) gram(gramKey(cps.slice(i, i + GRAM_LENGTH).join('')));
    return;
  }
  if (w.length <= GRAM_LENGTH) { gram(gramKey(w)); return; }
  let a = w.charCodeAt(0);
  let b = w.charCodeAt(1);
  for (let i = 2; i < w.length; i++) {
    const c = w.charCodeAt(i);
    gram((a * 65536 + b) * 65536 + c);
    a = b;
    b = c;
  }
}

/** The distinct grams of a query, in order of first sight (as strings: the plan travels as JSON). */
export function queryGrams(query: string): string[] {
  const out = new Set<string>();
  for (const w of textWords(fold(query))) {
    if (isStopword(w)) continue;
    const cps = Array.from(w);
    if (cps.length <= GRAM_LENGTH) out.add(w);
    else for (let i = 0; i + GRAM_LENGTH <= cps.length; i++) out.add(cps.slice(i, i + GRAM_LENGTH).join(''));
  }
  return [...out];
}

const isIdent = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
const isDigitCode = (c: number) => c >= 48 && c <= 57;

/**
 * The grams forEachGram would cut from an ASCII text, found by looking for each gram's text in it
 * instead of cutting every word: `hit(at, g)` for each occurrence at `at` of `grams[g]` that is a gram of
 * the word around it (a word of at most GRAM_LENGTH units only where the gram is the whole word, no
 * stopword, no leading digit: words.ts' ASCII words). `lower` is the text lower-cased.
 */
export function asciiGramHits(lower: string, grams: readonly string[], hit: (at: number, g: number) => void): void {
  grams.forEach((gram, g) => {
    for (let p = lower.indexOf(gram); p >= 0; p = lower.indexOf(gram, p + 1)) {
      let s = p;
      while (s > 0 && isIdent(lower.charCodeAt(s - 1))) s--;
      let e = p + gram.length;
      while (e < lower.length && isIdent(lower.charCodeAt(e))) e++;
      while (s < e && isDigitCode(lower.charCodeAt(s))) s++;
      if (p < s) continue;
      const len = e - s;
      if (len <= GRAM_LENGTH ? len !== gram.length : gram.length !== GRAM_LENGTH) continue;
      if (isStopword(lower.slice(s, e))) continue;
      hit(p, g);
    }
  });
}
