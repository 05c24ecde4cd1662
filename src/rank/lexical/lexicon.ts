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
  // one pass over the text, so a lookup costs the same however long the query is.
  const df = (term: string): number => {
    let n = known.get(term);
    if (n === undefined) {
      const hit = text.startsWith(`${term}\t`) ? 0 : text.indexOf(`\n${term}\t`);
      const at = hit <= 0 ? hit : hit + 1;
      n = at < 0 ? 0 : Number(text.slice(at + term.length + 1, lineEnd(text, at)));
      known.set(term, n);
    }
    return n;
  };
  const prefetch = (terms: string[]): void => {
    const wanted = new Set(terms.filter((t) => !known.has(t)));
    if (wanted.size <= ONE_BY_ONE) return;
    const shapes = new Set([...wanted].map((t) => shapeOf(t, 0, t.length)));
    for (let at = 0; at < text.length;) {
      const end = lineEnd(text, at);
      // The count is a few digits before the line's end: its tab is found from there.
      let tab = end - 1;
      while (tab > at && text.charCodeAt(tab) !== 9) tab--;
      // Only a key of a wanted term's length, first and last character is cut out and looked up (a
      // tenth of the lines for a pasted file's terms); the first line of a term counts, as the
      // search in the text finds it.
      if (tab > at && tab < end && shapes.has(shapeOf(text, at, tab))) {
        const key = text.slice(at, tab);
        if (wanted.delete(key)) known.set(key, Number(text.slice(tab + 1, end)));
      }
      at = end + 1;
    }
    for (const t of wanted) known.set(t, 0);
  };
  const valid = (term: string) => !(term.includes('\n') || term.includes('\t') || term.startsWith('#'));
  return { docs, df: (term) => (valid(term) ? df(term) : 0), prefetch: (terms) => prefetch(terms.filter(valid)) };
}

/** A key's length, first and last UTF-16 units as one number: a filter only (the key cut out is then compared whole). */
function shapeOf(text: string, from: number, to: number): number {
  return (to - from) * 4294967296 + text.charCodeAt(from) * 65536 + text.charCodeAt(to - 1);
}

/** Up to this many terms are found one by one (each a search of up to 1.4 MB); more, in one pass. */
const ONE_BY_ONE = 16;

function lineEnd(text: string, at: number): number {
  const nl = text.indexOf('\n', at);
  return nl < 0 ? text.length : nl;
}

let bundled: Lexicon | null = null;

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
