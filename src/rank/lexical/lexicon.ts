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

/** Parses `#docs<TAB>N` then `term<TAB>df` lines. */
export function parseLexicon(text: string, source = 'lexicon'): Lexicon {
  const counts = new Map<string, number>();
  let docs = 0;
  for (const line of text.split('\n')) {
    if (!line) continue;
    const tab = line.indexOf('\t');
    const value = Number(line.slice(tab + 1));
    if (tab <= 0 || !Number.isFinite(value)) {
      throw new SimgrepError('INTERNAL', `${source}: bad line "${line.slice(0, 60)}"; expected term<TAB>count`);
    }
    const key = line.slice(0, tab);
    if (key === '#docs') docs = value; else if (!key.startsWith('#')) counts.set(key, value);
  }
  if (!(docs > 0)) throw new SimgrepError('INTERNAL', `${source}: missing "#docs<TAB>N" header`);
  return { docs, df: (term) => counts.get(term) ?? 0 };
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
