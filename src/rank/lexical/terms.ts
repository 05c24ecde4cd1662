// Identifier-aware terms, shared by the query planner (main thread) and the chunk scorer (workers).
// A text's terms are its words (words.ts: identifiers of any script) folded, plus their snake_case and
// camelCase parts: `parseHTTPResponse_v2` -> parsehttpresponse_v2, parse, http, response, v2.
// Parts are compared after a light stemmer, so "routes" finds `route` and "registered" `register`.
import { textWords, wordParts } from './words.js';

/** Words too common in questions to carry meaning ("how does the app..."). */
const STOPWORDS = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'can', 'do', 'does', 'for', 'from', 'how', 'i',
  'if', 'in', 'into', 'is', 'it', 'its', 'of', 'on', 'or', 'so', 'that', 'the', 'their', 'then',
  'there', 'these', 'this', 'to', 'via', 'was', 'we', 'what', 'when', 'where', 'which', 'who', 'why',
  'with', 'without', 'our', 'you', 'your', 'around', 'used', 'using', 'get', 'gets',
]);

export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}

/** Identifiers (words of any script) of a text, case kept, in order (duplicates kept). */
export function identifiers(text: string): string[] {
  return textWords(text);
}

/** snake_case and camelCase parts of one identifier, folded, in order (the whole not included). */
export function identifierParts(ident: string): string[] {
  return wordParts(ident);
}

/**
 * The stems of an identifier's parts, in order (identifierParts, then stem), always a list of one
 * kind to V8 (packed, of any value; NO_STRINGS where there is no part: `_`, `$`). `parts.map(stem)`
 * made lists of two kinds (packed from the interpreter's map, holey from TurboFan's, and an empty
 * list of a third), and V8's optimized loops over stems, having seen one kind, dropped their code
 * at the first list of another and compiled it again: `--trace-deopt`'s "wrong map" in the chunk
 * scorer's spanTerms and chunkStats in every worker and the prose counter's countRun (branch jit35).
 * The lists are shared: never changed.
 */
export function partStems(ident: string): string[] {
  const parts = identifierParts(ident);
  if (parts.length === 0) return NO_STRINGS;
  const out: string[] = [];
  for (const part of parts) out.push(stem(part));
  return out;
}

/**
 * An empty list of the kind a list of strings has (a slice keeps its source's kind; `[]` starts as another):
 * partStems' lists where there is no part, a plan's prose grams and numbers where there are none. Never changed.
 */
export const NO_STRINGS: string[] = [''].slice(0, 0);

/**
 * A light suffix stemmer for parts (not a linguist's stemmer: it only has to map the forms a query
 * and code use for one word to one key): routes/route, registered/register, handling/handle.
 */
export function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) w = w.slice(0, -3) + 'y';
  else if (w.length > 4 && /(?:ss|x|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  if (w.length > 4 && w.endsWith('e')) w = w.slice(0, -1);
  if (w.length > 4 && w[w.length - 1] === w[w.length - 2] && !/[aeiouls]/.test(w[w.length - 1])) w = w.slice(0, -1);
  return w;
}

const dirTexts = new Map<string, string>();

/** pathTerms(path).join(' '), its directory names' part worked out once per directory. */
export function pathText(path: string): string {
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  const file = path.slice(cut + 1);
  if (file === '') return pathTerms(path).join(' ');
  const dir = cut < 0 ? '' : path.slice(0, cut);
  let dirs = dirTexts.get(dir);
  if (dirs === undefined) {
    dirs = dir.split(/[\\/]+/).filter(Boolean).slice(-3).filter((d) => d !== '.' && d !== '..').join(' ');
    if (dirTexts.size >= 100_000) dirTexts.clear();
    dirTexts.set(dir, dirs);
  }
  const dot = file.indexOf('.', 1);
  const stem = dot > 0 ? file.slice(0, dot) : file;
  return dirs === '' ? `${stem} ${stem}` : `${stem} ${stem} ${dirs}`;
}

/** The terms of a path: its file stem twice and its last three directory names (semble's recipe). */
export function pathTerms(path: string): string[] {
  const parts = path.split(/[\\/]+/).filter(Boolean);
  const file = parts.pop() ?? '';
  const dot = file.indexOf('.', 1);
  const fileStem = dot > 0 ? file.slice(0, dot) : file;
  const dirs = parts.slice(-3).filter((d) => d !== '.' && d !== '..');
  return [fileStem, fileStem, ...dirs];
}
