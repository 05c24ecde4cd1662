// Character grams of words, a second field for prose lines' BM25 (rank/prose.ts): a word and its
// inflected or prefixed forms (Arabic's attached article and conjunctions, German and Hindi endings)
// share most of their grams where they share no whole word. One rule for every script but Han: ICU's
// words (words.ts), so Chinese grams stay inside the words ICU finds; a Han character is a gram by
// itself (each is a morpheme: 药房 and 药剂 share 药, which ICU's words and their 3-grams do not).
import { isStopword } from './terms.js';
import { fold, textWords } from './words.js';

/** Code points per gram: a word of at most this many is one gram, whole. */
export const GRAM_LENGTH = 3;

const SURROGATE = /[\uD800-\uDFFF]/;
const HAN = /\p{Script=Han}/u;
const HAN_ONLY = /^\p{Script=Han}+$/u;

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
 * of each word: the kept prose line terms find a line's grams from its words by it, rank/prose-doc-grams.ts).
 */
export function forEachWordGram(w: string, gram: (key: number | string) => void): void {
  if (SURROGATE.test(w)) { for (const g of slowWordGrams(w)) gram(gramKey(g)); return; }
  if (HAN.test(w)) {
    // Most Chinese words are Han alone: each character's key is its one UTF-16 unit (gramKey).
    if (HAN_ONLY.test(w)) for (let i = 0; i < w.length; i++) gram(w.charCodeAt(i));
    else for (const g of slowWordGrams(w)) gram(gramKey(g));
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

/**
 * The grams of one folded word, in order, repeats kept, by code point: each Han character alone, and
 * each run of other characters cut into every run of GRAM_LENGTH code points (a shorter one whole).
 * Chosen on the first 40 question ids of the prose dev set: Chinese 0.768 -> 0.795 MRR@10, the
 * other languages unchanged (a Han word's characters and the word as well: 0.798; and its bigrams:
 * 0.797; bench/prose/question-probe.ts, docs/models.md).
 */
function slowWordGrams(w: string): string[] {
  const out: string[] = [];
  let run: string[] = [];
  const flush = () => {
    if (run.length === 0) return;
    if (run.length <= GRAM_LENGTH) out.push(run.join(''));
    else for (let i = 0; i + GRAM_LENGTH <= run.length; i++) out.push(run.slice(i, i + GRAM_LENGTH).join(''));
    run = [];
  };
  for (const c of w) {
    if (HAN.test(c)) { flush(); out.push(c); } else run.push(c);
  }
  flush();
  return out;
}

/** The distinct grams of a query, in order of first sight (as strings: the plan travels as JSON). */
export function queryGrams(query: string): string[] {
  const out = new Set<string>();
  for (const w of textWords(fold(query))) {
    if (isStopword(w)) continue;
    for (const g of slowWordGrams(w)) out.add(g);
  }
  return [...out];
}
