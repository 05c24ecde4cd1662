// The arguments search and find_related share, with their bounds, and what they mean for a search:
// the peers' names are accepted where they mean the same (top_k beside k, mode "bm25" for lexical).
import { z } from 'zod';
import { PER_FILE_OVERFETCH } from '../output/per-file.js';
import { FILE_TYPES } from '../sources/file-types.js';
import { SEARCH_MODES, type SearchMode } from '../types.js';
import { DEFAULT_MAX_TOKENS } from './answer.js';

export const MAX_K = 50;
/** Longer queries are cut here (with a note in the answer), not refused: a pasted file still searches. */
export const MAX_QUERY_CHARS = 100_000;
export const MIN_MAX_TOKENS = 200;
export const MAX_MAX_TOKENS = 100_000;

export const narrowingShape = {
  directory: z.string().max(4096).optional().describe('Directory to search, relative to the server root (default: the root)'),
  top_k: z.number().int().min(1).max(MAX_K).optional().describe(`How many matches (1..${MAX_K}; default 10)`),
  k: z.number().int().min(1).max(MAX_K).optional().describe('Same as top_k (older name)'),
  mode: z.enum([...SEARCH_MODES, 'bm25']).optional().describe('hybrid (default: words + meaning), semantic (meaning only), lexical or bm25 (words only), line (each line alone)'),
  extensions: z.array(z.string().min(1).max(32)).max(50).optional().describe('Only files with these extensions, e.g. [".py", ".md"]'),
  types: z.array(z.enum(Object.keys(FILE_TYPES) as [string, ...string[]])).max(30).optional().describe('Only files of these types (ripgrep\'s names), e.g. ["ts", "py"]; with extensions, files of either'),
  n_lines: z.number().int().min(0).max(20).optional().describe('Context lines around each match (default 3)'),
  per_file: z.number().int().min(1).max(MAX_K).optional().describe('At most this many matches per file (1: one per file, to survey files)'),
  max_tokens: z.number().int().min(MIN_MAX_TOKENS).max(MAX_MAX_TOKENS).optional()
    .describe(`Budget for the answer in estimated tokens (characters / 4; default ${DEFAULT_MAX_TOKENS}): matches turn compact, then are left out, to fit; the answer says what was cut`),
  show_preview: z.boolean().optional().describe('false: locations and scores only, no code (default true)'),
};

export type Narrowing = { [K in keyof typeof narrowingShape]?: z.infer<typeof narrowingShape[K]> };

export interface SearchPlan {
  k: number;
  /** Candidates to ask the ranker for: one more than wanted (so `truncated` is true only when more exist), more with per_file. */
  fetchK: number;
  mode: SearchMode;
  nLines: number;
  maxTokens: number;
  withCode: boolean;
}

export function planOf(a: Narrowing): SearchPlan {
  const k = a.top_k ?? a.k ?? 10;
  return {
    k,
    fetchK: (a.per_file !== undefined ? k * PER_FILE_OVERFETCH : k) + 1,
    mode: a.mode === 'bm25' ? 'lexical' : a.mode ?? 'hybrid',
    nLines: a.n_lines ?? 3,
    maxTokens: a.max_tokens ?? DEFAULT_MAX_TOKENS,
    withCode: a.show_preview !== false,
  };
}

/** The query as searched, and a note when it had to be cut. */
export function boundQuery(query: string): { query: string; notes: string[] } {
  if (query.length <= MAX_QUERY_CHARS) return { query, notes: [] };
  return { query: query.slice(0, MAX_QUERY_CHARS), notes: [`the query was ${query.length} characters; only its first ${MAX_QUERY_CHARS} were searched`] };
}
