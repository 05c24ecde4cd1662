// Which mode a search really runs in, given what the model made of the query: a query the model
// cannot embed at all (no token it knows: Chinese or Thai text for a Latin-script vocabulary) is
// searched by its words alone, as --mode lexical, with a warning, rather than refused.
import { SimgrepError } from '../errors.js';
import { quotedQuery } from '../text/cut.js';
import type { SearchMode } from '../types.js';
import type { Lexicon } from './lexical/lexicon.js';
import { buildRankPlan, type RankPlan } from './plan.js';
import { queryWords } from './lexical/words.js';
import { MAX_WORD_CHARS } from './query-terms.js';

/** A letter or a number in any script: what a query needs for a term to look for. */
const HAS_WORD = /[\p{L}\p{N}]/u;

export interface QueryMode {
  mode: SearchMode;
  /** The ranking plan (undefined in line mode, which ranks each line's cosine alone). */
  rank: RankPlan | undefined;
  /** Set when the mode was changed: what to tell the user. */
  warning?: { path: string; code: string; message: string };
}

/**
 * `known`: whether the model gave the query a vector (it knows one of its tokens); `knownShare`: the
 * share of the query's words it has a token for (the weight of a prose line's cosine scales with it).
 */
export function queryMode(query: string, asked: SearchMode, known: boolean, lexicon: Lexicon, knownShare = 1): QueryMode {
  const mode: SearchMode = known ? asked : 'lexical';
  const rank = mode === 'line' ? undefined : buildRankPlan(query, mode, lexicon, knownShare);
  // A query of blob words alone (each past MAX_WORD_CHARS, left out as terms) has no word to look for, whatever
  // digits inside it a prose line's numbers would take, or what the model made of it: said why (audit44's left).
  if (rank && rank.terms.length === 0 && blobsOnly(query)) {
    throw new SimgrepError('BAD_QUERY', `the query ${quotedQuery(query)} has no word to look for: each of its words is over ${MAX_WORD_CHARS.toLocaleString('en-US')} characters (a blob, such as a base64 or hex run, which is never looked up: no name is that long); search for a name or a few words from it instead`);
  }
  // A query of numbers alone (`1964`, `١٩٦٤`) has terms of a prose line's BM25 (rank/prose.ts): searched by them.
  if (rank && mode === 'lexical' && rank.terms.length === 0 && (rank.prose?.numbers.length ?? 0) === 0) {
    throw new SimgrepError('BAD_QUERY', asked === 'lexical' || known
      ? `the query ${quotedQuery(query)} has no word to look for; use identifiers or words, or --mode semantic`
      : `the query ${quotedQuery(query)} has no word to look for and no token this model knows; use letters or numbers`);
  }
  // No letter or number (`...`, `=>`, `?.`): no term to look for, and the embedding of a few symbols is
  // near lines that do not hold them; every hit would be chance at a distance near 1 (before: printed,
  // exit 0; trial33). Refused as in lexical mode; --mode semantic and line still give the nearest lines.
  if (rank && mode === 'hybrid' && rank.terms.length === 0 && !HAS_WORD.test(query)) {
    throw new SimgrepError('BAD_QUERY', `the query ${quotedQuery(query)} has no letter or number to look for: simgrep ranks words and meaning, not symbols (grep -F finds them); use identifiers or words, or --mode semantic for the nearest lines anyway`);
  }
  if (mode === asked) return { mode, rank };
  return {
    mode, rank,
    warning: { path: '', code: 'QUERY_WORDS_ONLY', message: `the model knows no token of the query ${quotedQuery(query)}: it was searched by its words alone (as --mode lexical)` },
  };
}

/** Whether every word of a query is past MAX_WORD_CHARS (query-terms.ts leaves such words out): it said only "no word to look for" (audit44's left). */
function blobsOnly(query: string): boolean {
  const words = queryWords(query);
  return words.length > 0 && words.every((w) => w.length > MAX_WORD_CHARS);
}

/**
 * The share of a query's distinct words (any script) the model has at least one token for: a word
 * whose vector is all zeros is unknown to it. Only a hybrid search asks (a few words, one batch; a
 * pasted file's thousands). `knows`: per word, 1 when its vector is not all zeros (LineScorer.knownTexts
 * finds it from the word's tokens, or knownByEmbedding from its vector). `memo`: what is known of words
 * seen before with the same model (kept by the caller, up to MEMO_WORDS): only new words are asked.
 */
export async function knownShareOf(query: string, knows: (texts: string[]) => Promise<ArrayLike<number>>, memo?: Map<string, boolean>): Promise<number> {
  const words = [...new Set(queryWords(query))];
  if (words.length === 0) return 0;
  const fresh = memo ? words.filter((w) => !memo.has(w)) : words;
  let known = memo ? words.filter((w) => memo.get(w) === true).length : 0;
  if (fresh.length > 0) {
    const k = await knows(fresh);
    for (let i = 0; i < fresh.length; i++) {
      const nonZero = k[i] !== 0;
      if (nonZero) known++;
      if (memo && memo.size < MEMO_WORDS) memo.set(fresh[i], nonZero);
    }
  }
  return known / words.length;
}

/** `knows` for knownShareOf from embeddings: per text, 1 when its row of `embed`'s vectors is not all zeros. */
export function knownByEmbedding(embed: (texts: string[]) => Promise<Float32Array>): (texts: string[]) => Promise<Uint8Array> {
  return async (texts) => {
    const v = await embed(texts);
    const dim = v.length / texts.length;
    const out = new Uint8Array(texts.length);
    for (let i = 0; i < texts.length; i++) {
      for (let d = i * dim; d < (i + 1) * dim; d++) if (v[d] !== 0) { out[i] = 1; break; }
    }
    return out;
  };
}

/** Words whose knownness a caller keeps (a process's searcher: ~a few MB at most). */
export const MEMO_WORDS = 1 << 16;
