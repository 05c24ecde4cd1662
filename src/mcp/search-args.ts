// The arguments search and find_related share, with their bounds, and what they mean for a search:
// the peers' names are accepted where they mean the same (top_k beside k, mode "bm25" for lexical).
import { z } from 'zod';
import { SimgrepError } from '../errors.js';
import { FILE_TYPES } from '../sources/file-types.js';
import { checkFilterValues, FILTER_OPTIONS, filterValuesOfParams, type FilterOption, type FilterParam, type FilterValues } from '../sources/filter-options.js';
import { MODE_NAMES, modeOf, type SearchMode } from '../types.js';
import { DEFAULT_MAX_TOKENS } from './answer.js';

export const MAX_K = 50;
/** Longer queries are cut here (with a note in the answer), not refused: a pasted file still searches. */
export const MAX_QUERY_CHARS = 100_000;
export const MIN_MAX_TOKENS = 200;
export const MAX_MAX_TOKENS = 100_000;

type ZodOf<K> = z.ZodOptional<z.ZodType<K extends 'list' ? string[] : K extends 'count' ? number : boolean>>;
type FilterShape = { [O in (typeof FILTER_OPTIONS)[number] as O['param']]: ZodOf<O['kind']> };

/**
 * A number a model wrote as a string ("10"), a switch as "true" or "false", and a mode in capitals ("Semantic")
 * are taken as meant: each cost an agent a call, refused on its type (agent47). The JSON schema is the same
 * (integer, boolean, the modes), and so are the bounds: "0" or "ten" is still a tool error that says which.
 */
export function asNumber<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v), schema);
}
function asSwitch<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), schema);
}
function asLowerCase<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), schema);
}

/**
 * The filter arguments, derived from the one table (sources/filter-options.ts), lists and counts
 * bounded. A type name is a string checked by the shared check (filtersOf): any case and the common
 * names are taken (an enum refused "Python" before it), an unknown one is a tool error listing the names,
 * which the description lists too.
 */
function filterArg(o: FilterOption): z.ZodOptional<z.ZodType> {
  const typed = o.key === 'types' || o.key === 'typesNot';
  const schema = o.kind === 'switch' ? asSwitch(z.boolean())
    : o.kind === 'count' ? asNumber(z.number().int().min(1).max(MAX_K))
      : z.array(z.string().min(1).max(typed ? 64 : 1024)).max(o.maxItems ?? 50);
  return schema.optional().describe(typed ? `${o.help}. Names: ${Object.keys(FILE_TYPES).join(', ')}` : o.help);
}
const filterShape = Object.fromEntries((FILTER_OPTIONS as readonly FilterOption[]).map((o) => [o.param, filterArg(o)])) as unknown as FilterShape;

/** The filter arguments given, checked (a bad glob is a tool error naming the argument), as the library takes them. */
export function filtersOf(a: Partial<Record<FilterParam, unknown>>): FilterValues {
  const v = filterValuesOfParams(a);
  checkFilterValues(v, 'param');
  return v;
}

export const narrowingShape = {
  directory: z.string().max(4096).optional().describe('Directory to search, relative to the server root (default: the root)'),
  top_k: asNumber(z.number().int().min(1).max(MAX_K)).optional().describe(`How many matches (1..${MAX_K}; default 10)`),
  k: asNumber(z.number().int().min(1).max(MAX_K)).optional().describe('Same as top_k (older name); both given must agree'),
  mode: asLowerCase(z.enum(MODE_NAMES)).optional().describe('hybrid (default: words + meaning), semantic (meaning only), lexical or bm25 (words only), line (each line alone; reads the files on every search, never the index: slower on a large tree)'),
  ...filterShape,
  n_lines: asNumber(z.number().int().min(0).max(20)).optional().describe('Context lines around each match (default 3)'),
  max_tokens: asNumber(z.number().int().min(MIN_MAX_TOKENS).max(MAX_MAX_TOKENS)).optional()
    .describe(`Budget for the answer in estimated tokens (characters / 4; default ${DEFAULT_MAX_TOKENS}): matches turn compact, then are left out, to fit; the answer says what was cut`),
  show_preview: asSwitch(z.boolean()).optional().describe('false: locations and scores only, no code (default true)'),
};

export type Narrowing = { [K in keyof typeof narrowingShape]?: z.infer<typeof narrowingShape[K]> };

export interface SearchPlan {
  /** Results asked of the library, exactly as the CLI's --top-k (the ranking's candidate pool grows with it, so
   * asking for one more and cutting gave other answers than the CLI's: trial39); its `more` says whether more exist. */
  k: number;
  mode: SearchMode;
  nLines: number;
  maxTokens: number;
  withCode: boolean;
}

export function planOf(a: Narrowing): SearchPlan {
  // Both given and different, one would win without a word (trial36).
  if (a.top_k !== undefined && a.k !== undefined && a.top_k !== a.k) {
    throw new SimgrepError('BAD_FLAG', `top_k ${a.top_k} and k ${a.k} disagree; k is the older name of top_k: give one of them`);
  }
  const k = a.top_k ?? a.k ?? 10;
  return {
    k,
    mode: modeOf(a.mode ?? 'hybrid'),
    nLines: a.n_lines ?? 3,
    maxTokens: a.max_tokens ?? DEFAULT_MAX_TOKENS,
    withCode: a.show_preview ?? !a.files_with_matches,
  };
}

/** The query as searched, and a note when it had to be cut. */
export function boundQuery(query: string): { query: string; notes: string[] } {
  // Said in the tool's own terms: the searcher's message shows the CLI's form.
  if (query.trim() === '') throw new SimgrepError('BAD_QUERY', 'the query is empty; pass what you are looking for, e.g. {"query": "retry failed uploads"}');
  if (query.length <= MAX_QUERY_CHARS) return { query, notes: [] };
  return { query: query.slice(0, MAX_QUERY_CHARS), notes: [`the query was ${query.length} characters; only its first ${MAX_QUERY_CHARS} were searched`] };
}
