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
}

/**
 * Reads `#docs<TAB>N` then `term<TAB>df` lines. A search asks for a handful of terms, so the text is
 * only checked line by line here and each term is found in it on demand (no 100,000-entry map).
 */
export function parseLexicon(text: string, source = 'lexicon'): Lexicon {
  let docs = 0;
  for (let at = 0; at < text.length;) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl;
    if (end > at) {
      const tab = text.indexOf('\t', at);
      if (tab <= at || tab >= end || !isCount(text, tab + 1, end)) {
        throw new SimgrepError('INTERNAL', `${source}: bad line "${text.slice(at, Math.min(end, at + 60))}"; expected term<TAB>count`);
      }
      if (text.startsWith('#docs\t', at)) docs = Number(text.slice(tab + 1, end));
    }
    at = end + 1;
  }
  if (!(docs > 0)) throw new SimgrepError('INTERNAL', `${source}: missing "#docs<TAB>N" header`);
  const known = new Map<string, number>();
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
  return { docs, df: (term) => (term.includes('\n') || term.includes('\t') || term.startsWith('#') ? 0 : df(term)) };
}

function isCount(text: string, from: number, to: number): boolean {
  if (to <= from) return false;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

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
