// The ranking plan of one search, built once on the main thread and sent with every batch: which
// query terms to look for (with their idf), which symbols and path words to look for, chunk size and
// fusion weights. Chunk modes: hybrid (every signal), semantic (the chunk embedding alone) and lexical
// (no embedding); the line mode (semtools' behaviour: each line's own cosine distance) needs no plan.
import type { Lexicon } from './lexical/lexicon.js';
import { isStopword, NO_STRINGS } from './lexical/terms.js';
import { fold, textNumbers } from './lexical/words.js';
import { queryGrams } from './lexical/grams.js';
import { MAX_WORD_CHARS, NO_TERMS, queryTerms, type QueryTerm } from './query-terms.js';

export type { QueryTerm } from './query-terms.js';

export type ChunkMode = 'hybrid' | 'semantic' | 'lexical';

export interface RankPlan {
  mode: ChunkMode;
  /** Lines per chunk; chunks start at multiples of it, so results never depend on batching. */
  chunkLines: number;
  terms: QueryTerm[];
  /** Sum of the terms' idf: a chunk matching each term once scores about this much BM25. */
  idfSum: number;
  /** Symbols whose definition lines boost a chunk (lower-cased), with the boost's strength 0..1. */
  symbols: { name: string; strength: number }[];
  /** Boost of a line defining a name made of every query term, scaled by the idf share it covers (0 for symbol queries). */
  definitionBoost: number;
  /** Query words (lower-cased) matched against file stems and parent directories. */
  pathWords: string[];
  /** Down-weight test, example and compat files (off when the query asks for tests). */
  pathPriors: boolean;
  /** Down-weight data files: tables, lockfiles, minified bundles (off when the query names such a format; rank/data-files.ts). */
  dataPrior: boolean;
  /** relevance = semantic * w.semantic + lexical * (1 - w.semantic) + boosts; distance = 1 / (1 + relevance). */
  weights: { semantic: number; symbol: number; path: number };
  bm25: { k1: number; b: number; avgdl: number; tokensPerChar: number };
  /**
   * Prose files (rank/prose.ts) are ranked line by line, BM25 with the file's own document frequencies
   * fused with the line's cosine at this weight, and a second BM25 over the grams of the query's words
   * (lexical/grams.ts); null: they rank as chunks, like code (semantic mode). `numbers`: the query's
   * numbers (lexical/words.ts textNumbers, distinct), terms of a prose line's BM25 after plan.terms
   * (rank/prose.ts proseTermCount); none for a long query whose terms were cut, and no grams for a
   * pasted block (RANK_DEFAULTS.maxGramTerms).
   */
  prose: { semantic: number; grams: string[]; numbers: string[] } | null;
  /** Each further result from one file keeps this share of its relevance (diversity across files). */
  fileDecay: number;
  /** A file's best chunk gains this share of the best relevance, by the file's summed candidate relevance. */
  fileCoherence: number;
}

/**
 * Defaults chosen on both semble dev sets as a whole (bench/quality), never per query. The embedding
 * weighs a quarter in a natural-language query: at 0.5 it lost to lexical on 15 of 23 semble-dev2
 * repos (languages the model barely knows); at 0.25 semble-dev holds and semble-dev2 gains 0.019
 * NDCG@10. It weighs nothing in a query that names an identifier (see `namesIdentifier`).
 */
/** Whether ranking by this plan embeds the query (semantic mode, or a cosine with weight): its chunks' cosines are worked out. */
export function embedsQuery(plan: Pick<RankPlan, 'mode' | 'weights'>): boolean {
  return plan.mode === 'semantic' || plan.weights.semantic > 0;
}

export const RANK_DEFAULTS = {
  chunkLines: 48,
  semanticNl: 0.25,
  semanticIdentifier: 0,
  weights: { symbol: 1, path: 0.5 },
  bm25: { k1: 1.5, b: 0.75, avgdl: 220, tokensPerChar: 0.25 },
  fileDecay: 0.5,
  /** Architecture questions name what the code defines ("how are routes added": `add_route`). */
  definitionBoost: 0.15,
  /** Share of the best relevance added to a file's best chunk, by the file's summed candidate relevance (semble's value). */
  fileCoherence: 0.2,
  /**
   * Weight of a prose line's cosine beside its BM25, times the share of the query's words the model
   * knows (so a query in a script the model lacks ranks by its words). Chosen on the first 40 question
   * ids of the prose dev set, checked on the next 40 (bench/prose/margin-probe.ts, docs/models.md):
   * 0.15 before the grams' field (rank/prose.ts), which finds most of what the cosine added (a
   * word's other forms); with it 0.03-0.075 are within 0.006 there and 0.15 loses 0.016.
   */
  proseSemantic: 0.05,
  /**
   * A query with more terms keeps only this many, the most distinctive (query-terms.ts; Lucene's
   * MoreLikeThis keeps 25): a pasted block of code or find_related's chunk then costs what a short
   * query costs. No question of either semble dev set has this many.
   */
  maxQueryTerms: 24,
  /**
   * A query with more terms is a pasted block (find_related's 48-line chunk: a median of 195 terms on the
   * bench tree, 105 in src/): its prose lines rank without the grams (plan.prose), which find a question's
   * words in their other forms and cost every kept document a walk per gram. The longest of the prose dev
   * set's 7,140 questions (6 languages) has 47 terms.
   */
  maxGramTerms: 64,
};

/** A query that is one identifier: namespaced (a.b, A::B), _private, or with an upper-case letter or underscore. */
// Each form in linear time (trust47): where two runs of overlapping classes met (`[A-Za-z0-9]*[A-Z_]`), the run
// before the capital is written as what can stand before the first capital (`[a-z0-9]*`), the same words, with no
// split to backtrack over. The overlapping forms took 0.9 s for a query of 20,000 capitals, and 24 s for an agent's
// query of 100,000 (MCP's bound), each time, in the engine's one thread; a cluster job's (1 MiB) hours.
const SYMBOL_QUERY = /^(?:[A-Za-z_][A-Za-z0-9_]*(?:(?:::|\\|->|\.)[A-Za-z_][A-Za-z0-9_]*)+|_[A-Za-z0-9_]*|[A-Za-z][a-z0-9]*[A-Z_][A-Za-z0-9_]*|[A-Z][A-Za-z0-9]*)$/;
/** CamelCase or camelCase identifiers inside a natural-language query. */
const EMBEDDED_SYMBOL = /\b(?:[A-Z][a-z][a-z0-9]*[A-Z][a-zA-Z0-9]*|[a-z][a-z0-9]*[A-Z][a-zA-Z0-9]+)\b/g;
const TESTS_WANTED = /\b(?:tests?|specs?|testing|examples?)\b/i;
/** A query that asks for data files by their format: their prior would hide what it asks for. */
const DATA_WANTED = /\b(?:[ct]sv|jsonl|ndjson|lock ?files?|minified|source ?maps?|data ?files?)\b/i;
const HAS_EMBEDDED_SYMBOL = new RegExp(EMBEDDED_SYMBOL.source);
/** A snake_case identifier inside a query (two or more lower-case parts). */
const EMBEDDED_SNAKE = /\b[a-z][a-z0-9]*_[a-z0-9_]*[a-z0-9]\b/;

/**
 * Whether a query names a code identifier: a whole-query symbol, or a camelCase, CamelCase or
 * snake_case word in a sentence. Such a query is answered by where the name occurs and is defined;
 * the static embedding only splits the name into word pieces and pulls in chunks about the words
 * (on both semble dev sets, every semantic weight tried lost NDCG@10 on these queries and gained on
 * the others: bench/quality/fusion-replay/README.md).
 */
export function namesIdentifier(query: string): boolean {
  const trimmed = query.trim();
  return SYMBOL_QUERY.test(trimmed) || HAS_EMBEDDED_SYMBOL.test(trimmed) || EMBEDDED_SNAKE.test(trimmed);
}

/** The last plans built (a workspace search plans its query to pick candidates, then to score them). */
const recentPlans: { query: string; mode: ChunkMode; lexicon: Lexicon; maxTerms: number; gramTerms: number; plan: RankPlan }[] = [];
const RECENT_PLANS = 4;

/**
 * `knownShare`: the share (0..1) of the query's words the model has a token for (searcher.ts). A
 * query planned again (the same text, mode and lexicon) shares the first plan's terms, symbols and
 * path words: a pasted file's terms are found, stemmed and looked up once. With the same share too it
 * is the very same plan (a workspace's prose source lists for the plan it was given, and knows the
 * pipeline's by that: prose-source.ts listWithin).
 */
export function buildRankPlan(query: string, mode: ChunkMode, lexicon: Lexicon, knownShare = 1, maxTerms = RANK_DEFAULTS.maxQueryTerms): RankPlan {
  if (mode === 'semantic') return semanticPlan();
  const semantic = mode === 'lexical' ? 0 : RANK_DEFAULTS.proseSemantic * Math.min(1, Math.max(0, knownShare));
  const planned = recentPlans.filter((r) => r.mode === mode && r.lexicon === lexicon && r.maxTerms === maxTerms && r.gramTerms === RANK_DEFAULTS.maxGramTerms && r.query === query);
  const same = planned.find((r) => r.plan.prose?.semantic === semantic);
  if (same) return same.plan;
  const plan = planned.length > 0 ? { ...planned[0].plan, prose: { ...planned[0].plan.prose!, semantic } } : planTerms(query, mode, lexicon, semantic, maxTerms);
  recentPlans.unshift({ query, mode, lexicon, maxTerms, gramTerms: RANK_DEFAULTS.maxGramTerms, plan });
  recentPlans.length = Math.min(recentPlans.length, RECENT_PLANS);
  return plan;
}

function planTerms(query: string, mode: ChunkMode, lexicon: Lexicon, semantic: number, maxTerms: number): RankPlan {
  const { terms: list, idents, kept, cut, count } = queryTerms(query, lexicon, maxTerms);
  // The grams of the query's words; of a long query, of the words whose terms it kept; none for a
  // pasted block (RANK_DEFAULTS.maxGramTerms), whose ~100 grams cost more than they find.
  const words = idents.filter(kept);
  const grams = strings(count > RANK_DEFAULTS.maxGramTerms ? [] : queryGrams(words.length === idents.length ? query : words.join(' ')));
  // The query's numbers as prose terms (rank/prose.ts): not a long query's (a pasted block's line
  // numbers and versions; it keeps its most distinctive words only). A run past MAX_WORD_CHARS (a pasted
  // JSON array's digits) is no term, as such a word is none: its probe would pass V8's bound on a regular
  // expression and fail every file of a scan (review of audit44).
  const numbers = strings(cut ? [] : [...new Set(textNumbers(query))].filter((n) => n.length <= MAX_WORD_CHARS));
  const prose = { semantic, grams, numbers };
  const trimmed = query.trim();
  const symbolQuery = SYMBOL_QUERY.test(trimmed);
  const symbols = new Map<string, number>();
  if (symbolQuery) {
    symbols.set(fold(trimmed.split(/::|\\|->|\./).pop()!), 1);
    symbols.set(fold(trimmed), 1);
  } else {
    // A long query boosts only the definitions of the identifiers whose terms it kept.
    for (const m of trimmed.match(EMBEDDED_SYMBOL) ?? []) if (kept(m)) symbols.set(fold(m), 0.5);
  }
  const pathWords = symbolQuery ? NO_STRINGS : strings([...new Set(idents.filter(kept).map(fold))]
    .filter((w) => w.length > 2 && !isStopword(w)));
  return {
    mode,
    chunkLines: RANK_DEFAULTS.chunkLines,
    terms: list,
    idfSum: list.reduce((s, t) => s + t.idf, 0),
    symbols: symbolList(symbols),
    definitionBoost: symbolQuery ? 0 : RANK_DEFAULTS.definitionBoost,
    pathWords,
    pathPriors: !TESTS_WANTED.test(query),
    dataPrior: !DATA_WANTED.test(query),
    weights: {
      semantic: mode === 'lexical' ? 0 : namesIdentifier(trimmed) ? RANK_DEFAULTS.semanticIdentifier : RANK_DEFAULTS.semanticNl,
      ...RANK_DEFAULTS.weights,
    },
    bm25: bm25Settings(),
    prose,
    fileDecay: RANK_DEFAULTS.fileDecay,
    fileCoherence: RANK_DEFAULTS.fileCoherence,
  };
}

/**
 * A plan's BM25 settings, made by one literal: `{ ...RANK_DEFAULTS.bm25 }` made objects of two shapes
 * to V8 (its first spreads by the runtime, later ones by an inline cache), and the chunk scorer's and
 * candidate pass's code, compiled for one, was dropped and compiled again at the other ("wrong map",
 * branch jit35).
 */
function bm25Settings(): RankPlan['bm25'] {
  const d = RANK_DEFAULTS.bm25;
  return { k1: d.k1, b: d.b, avgdl: d.avgdl, tokensPerChar: d.tokensPerChar };
}

/**
 * A plan's list of strings (its prose grams and numbers), NO_STRINGS where empty: to V8 an empty `[]` or
 * spread is a list of another kind than one that holds strings, and the prose walk's and counter's code,
 * compiled for lists with strings, was dropped at a query with none ("wrong map", branch jit35). Never changed.
 */
function strings(list: string[]): string[] {
  return list.length > 0 ? list : NO_STRINGS;
}

/** An empty list of the kind a plan's list of symbols has (see strings). Never changed. */
const NO_SYMBOLS = [{}].slice(0, 0) as RankPlan['symbols'];

/**
 * A plan's symbols, made by pushing, NO_SYMBOLS where none: V8's compiled map() makes a list of another kind
 * than its interpreter's (as a plan's terms: query-terms.ts), and an empty `[]` is of another kind again.
 */
function symbolList(symbols: Map<string, number>): RankPlan['symbols'] {
  if (symbols.size === 0) return NO_SYMBOLS;
  const out: RankPlan['symbols'] = [];
  for (const [name, strength] of symbols) out.push({ name, strength });
  return out;
}

/** The chunk embedding alone: no terms, symbols, path words or priors; relevance = the chunk's cosine. */
function semanticPlan(): RankPlan {
  return {
    mode: 'semantic',
    chunkLines: RANK_DEFAULTS.chunkLines,
    terms: NO_TERMS,
    idfSum: 0,
    symbols: NO_SYMBOLS,
    definitionBoost: 0,
    pathWords: NO_STRINGS,
    pathPriors: false,
    dataPrior: false,
    weights: { semantic: 1, symbol: 0, path: 0 },
    bm25: bm25Settings(),
    prose: null,
    fileDecay: RANK_DEFAULTS.fileDecay,
    fileCoherence: RANK_DEFAULTS.fileCoherence,
  };
}
