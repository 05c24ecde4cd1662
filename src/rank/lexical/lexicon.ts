// Document frequencies of identifier terms over a large code-and-docs corpus, shipped with the package
// (src/model/bundled/lexicon.tsv). One-shot search streams files once, so it cannot know the searched
// tree's own term statistics before ranking; these global frequencies give BM25 its idf instead.
import { readFileSync } from 'node:fs';
import { SimgrepError } from '../../errors.js';
import { bundledLexiconPath } from '../../model/default-model.js';

export interface Lexicon {
  /** Number of documents the frequencies were counted over. */
  docs: number;
  df(term: string): number;
  /** Looks many terms up in one pass (a long query's), so each later df() of them is a map hit. */
  prefetch?(terms: string[]): void;
}

/** The first line that is not `term<TAB>count` (blank lines pass; a multiline `$` also ends a line at `\r`, so CRLF files read). */
const BAD_LINE = /^(?![^\t\n]+\t[0-9]+$).+$/m;
const DOCS_LINE = /^#docs\t([0-9]+)$/m;

/**
 * Reads `#docs<TAB>N` then `term<TAB>df` lines. A search asks for a handful of terms, so the text is
 * only checked (by one regular expression: a cold search pays ~2 ms, not ~5 for a loop) and each
 * term is found in it on demand (no 100,000-entry map).
 */
export function parseLexicon(text: string, source = 'lexicon'): Lexicon {
  const bad = BAD_LINE.exec(text);
  if (bad) throw new SimgrepError('INTERNAL', `${source}: bad line "${bad[0].slice(0, 60)}"; expected term<TAB>count`);
  const docs = Number(DOCS_LINE.exec(text)?.[1] ?? 0);
  if (!(docs > 0)) throw new SimgrepError('INTERNAL', `${source}: missing "#docs<TAB>N" header`);
  const known = new Map<string, number>();
  // A few terms are each found in the text; a query with many (a pasted file) has them all found in
  // one pass over the text (findAll), so a lookup costs the same however long the query is. A process
  // that has gone over the text LINE_TABLE_PASSES times that way (a resident one: each find_related
  // chunk brings new terms) makes a table of every key's line once, and looks terms up in it.
  let table: Int32Array | null = null;
  let scanned = 0;
  const scanning = (chars: number) => {
    scanned += chars;
    if (table === null && scanned >= LINE_TABLE_PASSES * text.length) table = lineTable(text);
  };
  const df = (term: string): number => {
    let n = known.get(term);
    if (n === undefined) {
      let at: number;
      if (table) at = tableLine(text, table, term);
      else {
        const hit = text.startsWith(`${term}\t`) ? 0 : text.indexOf(`\n${term}\t`);
        at = hit <= 0 ? hit : hit + 1;
        scanning(hit < 0 ? text.length : hit);
      }
      n = countAt(text, term, at);
      known.set(term, n);
    }
    return n;
  };
  const prefetch = (terms: string[]): void => {
    const wanted = new Set(terms.filter((t) => !known.has(t)));
    if (wanted.size <= ONE_BY_ONE || table) return;
    for (const [t, at] of findAll(text, wanted)) known.set(t, countAt(text, t, at));
    scanning(text.length);
  };
  const valid = (term: string) => !(term.includes('\n') || term.includes('\t') || term.startsWith('#'));
  return { docs, df: (term) => (valid(term) ? df(term) : 0), prefetch: (terms) => prefetch(terms.filter(valid)) };
}

/** Up to this many terms are found one by one (each a search of up to 1.4 MB); more, in one pass. */
const ONE_BY_ONE = 16;

/** The count on the line at `at` (-1: none) of `term`. */
function countAt(text: string, term: string, at: number): number {
  return at < 0 ? 0 : Number(text.slice(at + term.length + 1, lineEnd(text, at)));
}

/**
 * One pass over the text for `terms`: a line's key is cut out and looked up only where its length,
 * first and last unit match a wanted term's (a bit in a table: a tenth of the lines for a pasted
 * file's terms); each wanted term's first line (as the search in the text finds it), -1 for none.
 */
function findAll(text: string, terms: Set<string>): Map<string, number> {
  const shapes = new Uint8Array(SHAPE_BITS >> 3);
  for (const t of terms) { const h = shapeOf(t.length, t.charCodeAt(0), t.charCodeAt(t.length - 1)); shapes[h >> 3] |= 1 << (h & 7); }
  const found = new Map<string, number>();
  const n = text.length;
  for (let at = 0; at < n;) {
    const tab = text.indexOf('\t', at);
    if (tab < 0) break;
    const nl = text.indexOf('\n', at);
    // A line without a tab (a blank one) holds no key.
    if (nl >= 0 && nl < tab) { at = nl + 1; continue; }
    const h = shapeOf(tab - at, text.charCodeAt(at), text.charCodeAt(tab - 1));
    if (tab > at && (shapes[h >> 3] & (1 << (h & 7))) !== 0) {
      const key = text.slice(at, tab);
      if (terms.has(key) && !found.has(key)) found.set(key, at);
    }
    at = nl < 0 ? n : nl + 1;
  }
  for (const t of terms) if (!found.has(t)) found.set(t, -1);
  return found;
}

/**
 * Passes over the text (in characters searched, one-by-one lookups included) after which a process
 * makes the line table: it costs one to three passes (14-17 ms of CPU for the bundled 1.4 MB at load 15, a
 * findAll pass 12-13 ms), so a one-shot
 * search (one pass at most, even for a 100,000-character query) never makes it.
 */
const LINE_TABLE_PASSES = 3;

/**
 * Every line's start by the hash of its key (open addressing, start + 1; 0: empty), the first line
 * of a key only, as the search in the text finds it: the same line for every term.
 */
function lineTable(text: string): Int32Array {
  // The text's UTF-16 units in an array (a loop over charCodeAt costs twice as much).
  const bytes = Buffer.from(text, 'utf16le');
  const u = new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.length >> 1);
  const n = u.length;
  let lines = 1;
  for (let i = 0; i < n; i++) if (u[i] === 10) lines++;
  let size = 1024;
  while (size < lines * 2) size <<= 1;
  const table = new Int32Array(size);
  const mask = size - 1;
  for (let at = 0; at < n;) {
    let h = 0x811c9dc5;
    let i = at;
    let c = 0;
    for (; i < n; i++) {
      c = u[i];
      if (c === 9 || c === 10) break;
      h = Math.imul(h ^ c, 0x01000193);
    }
    // A line without a tab (a blank one) holds no key.
    if (c === 9 && i > at) {
      const length = i - at;
      for (let slot = h & mask; ; slot = (slot + 1) & mask) {
        const line = table[slot] - 1;
        if (line < 0) { table[slot] = at + 1; break; }
        let same = u[line + length] === 9;
        for (let k = 0; same && k < length; k++) same = u[line + k] === u[at + k];
        if (same) break;
      }
    }
    while (i < n && u[i] !== 10) i++;
    at = i + 1;
  }
  return table;
}

/** The line of `term` in the table (-1: none). */
function tableLine(text: string, table: Int32Array, term: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < term.length; i++) h = Math.imul(h ^ term.charCodeAt(i), 0x01000193);
  const mask = table.length - 1;
  for (let slot = h & mask; ; slot = (slot + 1) & mask) {
    const line = table[slot] - 1;
    if (line < 0) return -1;
    if (sameKey(text, line, term)) return line;
  }
}

/** Whether the key of the line at `line` is `term`. */
function sameKey(text: string, line: number, term: string): boolean {
  return text.charCodeAt(line + term.length) === 9 && text.startsWith(term, line);
}

const SHAPE_BITS = 1 << 20;
/** A key's length, first and last UTF-16 units hashed to a bit of the shape table: a filter only (the key cut out is then compared whole). */
function shapeOf(length: number, first: number, last: number): number {
  return (Math.imul(length, 0x9e3779b1) ^ Math.imul(first, 0x85ebca6b) ^ Math.imul(last, 0xc2b2ae35)) >>> 12;
}

function lineEnd(text: string, at: number): number {
  const nl = text.indexOf('\n', at);
  return nl < 0 ? text.length : nl;
}

let bundled: Lexicon | null = null;

/** Whether this thread has parsed the bundled lexicon (a searcher's warm-up does, before its model loads). */
export function bundledLexiconParsed(): boolean {
  return bundled !== null;
}

/** The bundled lexicon, parsed once per thread that asks. */
export function bundledLexicon(): Lexicon {
  if (bundled) return bundled;
  const file = bundledLexiconPath();
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new SimgrepError('INTERNAL', `the bundled lexicon ${file} cannot be read (${(e as NodeJS.ErrnoException).code}); reinstall simgrep`);
  }
  return (bundled = parseLexicon(text, file));
}

/** Lucene's BM25 idf: ln(1 + (N - df + 0.5) / (df + 0.5)). */
export function idf(lexicon: Lexicon, term: string): number {
  const n = lexicon.docs;
  const df = Math.min(lexicon.df(term), n);
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}
