// The ranking plan of one search, built once on the main thread and sent with every batch: which
// query terms to look for (with their idf), which symbols to look for, chunk size and fusion weights.
// Modes: semantic (no plan: line distance, semtools' behaviour), hybrid and lexical (chunk scoring).
import { idf, type Lexicon } from './lexical/lexicon.js';
import { identifierParts, identifiers, isStopword, stem } from './lexical/terms.js';

export type ChunkMode = 'hybrid' | 'lexical';

export interface QueryTerm {
  /** What is matched: a whole identifier (lower-cased) or a stemmed part. */
  key: string;
  whole: boolean;
  idf: number;
}

export interface RankPlan {
  mode: ChunkMode;
  /** Lines per chunk; chunks start at multiples of it, so results never depend on batching. */
  chunkLines: number;
  terms: QueryTerm[];
  /** Sum of the terms' idf: a chunk matching each term once scores about this much BM25. */
  idfSum: number;
  /** Names a definition line may define for the symbol signal (lower-cased). */
  symbols: string[];
  weights: { semantic: number; lexical: number; symbol: number };
  bm25: { k1: number; b: number; avgdl: number; tokensPerChar: number };
}

/** Defaults chosen on the semble dev set as a whole (bench/quality), never per query. */
export const RANK_DEFAULTS = {
  chunkLines: 32,
  weights: { semantic: 0.5, lexical: 0.5, symbol: 0.5 },
  bm25: { k1: 1.5, b: 0.75, avgdl: 220, tokensPerChar: 0.25 },
} as const;

export function buildRankPlan(query: string, mode: ChunkMode, lexicon: Lexicon): RankPlan {
  const terms = new Map<string, QueryTerm>();
  const symbols = new Set<string>();
  const words = identifiers(query);
  const add = (key: string, whole: boolean, word: string) => {
    if (!terms.has(key)) terms.set(key, { key, whole, idf: idf(lexicon, word) });
  };
  for (const ident of words) {
    const lower = ident.toLowerCase();
    const parts = identifierParts(ident);
    if (parts.length > 1) {
      add(lower, true, lower);
      symbols.add(lower);
    } else if (/[A-Z]/.test(ident) || words.length === 1) {
      symbols.add(lower);
    }
    for (const part of parts) {
      if (parts.length === 1 && isStopword(part)) continue;
      if (part.length < 2 && parts.length > 1) continue;
      add(stem(part), false, part);
    }
  }
  const list = [...terms.values()];
  return {
    mode,
    chunkLines: RANK_DEFAULTS.chunkLines,
    terms: list,
    idfSum: list.reduce((s, t) => s + t.idf, 0),
    symbols: [...symbols],
    weights: { ...RANK_DEFAULTS.weights },
    bm25: { ...RANK_DEFAULTS.bm25 },
  };
}
