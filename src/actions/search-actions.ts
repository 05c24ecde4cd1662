// semtools.search, search.semantic and search.semantic_content: thin adapters over Searcher.search
// (or the workspace that covers the paths, as the CLI does), reshaped into the seeds' dictionaries.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { ErrorCodes, type ErrorCode } from '../errors.js';
import type { SearchOptions, SearchResponse } from '../searcher.js';
import { isRemoteUri } from '../sources/uri.js';
import { SEARCH_MODES, type SearchMode } from '../searcher.js';
import type { SearchResult } from '../rank/windows.js';
import type { ActionEngine } from './engine.js';
import { errorTypeOf, fail, type ActionFailure } from './errors.js';
import { bool, int, num, oneOf, str, strList, type Params } from './params.js';

export interface SemanticResult { filename: string; lines: string[]; start: number; end: number; match_line: number; distance: number }

/** Searches paths through the covering workspace when there is one (same answers, faster), else scans. */
export async function searchPaths(engine: ActionEngine, o: SearchOptions): Promise<SearchResponse> {
  const ws = o.paths && o.paths.length > 0 && !o.ignoreCase && o.mode !== 'line' ? engine.covering(o.paths) : null;
  return (ws ?? engine.searcher).search(o);
}

export function semanticResult(r: SearchResult): SemanticResult {
  return { filename: r.filename, lines: r.lines, start: r.start, end: r.end, match_line: r.match_line, distance: r.distance };
}

/**
 * A path the caller named that does not exist is an error result, not an empty answer; so is a search
 * that could read nothing at all (then its first problem says why).
 */
function unusable(r: SearchResponse): ActionFailure | null {
  const w = r.warnings.find((x) => x.code === 'PATH_NOT_FOUND') ?? (r.stats.files === 0 ? r.warnings[0] : undefined);
  if (!w) return null;
  return fail(w.code in ErrorCodes ? errorTypeOf(w.code as ErrorCode) : 'internal_error', w.message);
}

/** recursive: false searches the files directly inside a directory (not grep's "refuse directories"). */
async function topLevelOnly(paths: string[]): Promise<string[]> {
  return Promise.all(paths.map(async (p) => (isRemoteUri(p) ? p : (await stat(p).then((s) => s.isDirectory(), () => false)) ? path.join(p, '*') : p)));
}

export async function semtoolsSearch(engine: ActionEngine, _state: unknown, p: Params) {
  const query = str(p, 'query', { required: true });
  const files = strList(p, 'files', { required: true })!;
  const maxDistance = num(p, 'max_distance', { fallback: 0.5, min: 0, max: 1 });
  const nResults = int(p, 'n_results', { fallback: 10, min: 1 })!;
  const nLines = int(p, 'n_lines', { fallback: 0, min: 0 })!;
  // semtools scores each line alone by cosine distance: mode 'line', one result per matching line.
  const r = await engine.searcher.search({ query, paths: files, mode: 'line', topK: nResults, maxDistance, nLines, merge: false });
  const missing = unusable(r);
  if (missing) return missing;
  const matches = r.results.map((h) => ({
    file: h.filename,
    line: h.match_line + 1,
    score: 1 - h.distance,
    text: h.lines[h.match_line - h.start] ?? '',
    context: h.lines,
  }));
  return { success: true, matches, best_match: matches[0] ?? null, has_matches: matches.length > 0, total_matches: matches.length, query };
}

function commonSearchOptions(p: Params) {
  return {
    query: str(p, 'query', { required: true }),
    mode: oneOf<SearchMode>(p, 'mode', SEARCH_MODES, 'hybrid'),
    topK: int(p, 'top_k', { fallback: 10, min: 1 }),
    maxDistance: num(p, 'max_distance', { min: 0 }),
    nLines: int(p, 'n_lines', { fallback: 3, min: 0 }),
    ignoreCase: bool(p, 'ignore_case', false),
  };
}

export async function searchSemantic(engine: ActionEngine, _state: unknown, p: Params) {
  const o = commonSearchOptions(p);
  const recursive = bool(p, 'recursive', true);
  const given = strList(p, 'paths', { required: true })!;
  const paths = recursive ? given : await topLevelOnly(given);
  const r = await searchPaths(engine, { ...o, paths, recursive, extensions: strList(p, 'extensions'), types: strList(p, 'types') });
  const missing = unusable(r);
  if (missing) return missing;
  return { results: r.results.map(semanticResult), success: true, query: o.query, files_searched: r.stats.files };
}

export async function searchSemanticContent(engine: ActionEngine, _state: unknown, p: Params) {
  const o = commonSearchOptions(p);
  const content = str(p, 'content');
  if (content === undefined) return fail('invalid_argument', 'parameter content is required');
  const r = await engine.searcher.searchContent({ ...o, content });
  return { results: r.results.map(semanticResult), success: true, query: o.query, lines_searched: r.stats.lines };
}

/** search.related: code like the chunk at `file`:`line` (that chunk left out), in `paths`. */
export async function searchRelated(engine: ActionEngine, _state: unknown, p: Params) {
  const file = str(p, 'file', { required: true })!;
  const line = int(p, 'line', { min: 1 });
  if (line === undefined) return fail('invalid_argument', 'parameter line is required: the 1-based line of file whose code to find the like of');
  const given = strList(p, 'paths');
  const paths = given && given.length > 0 ? given : [path.dirname(file)];
  const r = await searchPaths(engine, {
    query: '', like: { path: file, line }, paths, mode: oneOf<SearchMode>(p, 'mode', SEARCH_MODES, 'hybrid'),
    topK: int(p, 'top_k', { fallback: 10, min: 1 }), nLines: int(p, 'n_lines', { fallback: 3, min: 0 }), extensions: strList(p, 'extensions'), types: strList(p, 'types'),
  });
  const missing = unusable(r);
  if (missing) return missing;
  return { results: r.results.map(semanticResult), success: true, file, line, files_searched: r.stats.files };
}
