// search.semantic and search.semantic_content: thin adapters over Searcher.search (or the workspace
// that covers the paths, as the CLI does), reshaped into the seeds' dictionaries. By default they run
// the seeds' algorithm (mode 'line': each line embedded alone, distance = its cosine distance, one
// result per line); the ranked modes stay available, with `distance` as distance.ts defines it.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { ErrorCodes, type ErrorCode } from '../errors.js';
import type { SearchOptions, SearchResponse } from '../searcher/api.js';
import { isRemoteUri } from '../sources/uri.js';
import { WHOLE_SEARCH_CODES } from '../sources/source.js';
import { type SearchMode } from '../types.js';
import { MODE_NAMES, modeOf, type ModeName } from '../types.js';
import { likeChunk } from '../rank/related.js';
import type { SearchResult } from '../rank/windows.js';
import { roundDistance } from '../output/printer.js';
import { distanceScale, internalMaxDistance, reportedDistance, type DistanceScale } from './distance.js';
import type { ActionEngine } from './engine.js';
import { errorTypeOf, fail, type ActionFailure } from './errors.js';
import { bool, filterParams, int, num, oneOf, str, strList, type Params } from './params.js';
import { target } from './workspace-target.js';

export interface SemanticResult { filename: string; lines: string[]; start: number; end: number; match_line: number; distance: number }

/** The seeds' default: each line alone, by cosine distance. */
export const DEFAULT_ACTION_MODE: SearchMode = 'line';

/** Searches paths through the covering workspace when there is one (same answers, faster), else scans. */
export async function searchPaths(engine: ActionEngine, o: SearchOptions): Promise<SearchResponse> {
  const ws = o.paths && o.paths.length > 0 && !o.ignoreCase && o.mode !== 'line' ? engine.covering(o.paths) : null;
  return (ws ?? engine.searcher).search(o);
}

/** A result as the actions give it: its distance rounded to 6 decimals, as the CLI's --json and TEA's semtools.search matches print it. */
export function semanticResult(r: SearchResult, scale: DistanceScale): SemanticResult {
  return { filename: r.filename, lines: r.lines, start: r.start, end: r.end, match_line: r.match_line, distance: roundDistance(reportedDistance(scale, r.distance)) };
}

/**
 * A path the caller named that does not exist is an error result, not an empty answer; so is a search
 * that could read nothing at all (then its first problem says why). A warning about the whole search (a
 * query of stop words or numbers only: WHOLE_SEARCH_CODES) is no failure: the answer is no results.
 */
export function unusable(r: SearchResponse): ActionFailure | null {
  const problems = r.warnings.filter((x) => !WHOLE_SEARCH_CODES.has(x.code));
  const w = problems.find((x) => x.code === 'PATH_NOT_FOUND') ?? (r.stats.files === 0 ? problems[0] : undefined);
  if (!w) return null;
  return fail(w.code in ErrorCodes ? errorTypeOf(w.code as ErrorCode) : 'internal_error', w.message);
}

/** recursive: false searches the files directly inside a directory (not grep's "refuse directories"). */
async function topLevelOnly(paths: string[]): Promise<string[]> {
  return Promise.all(paths.map(async (p) => (isRemoteUri(p) ? p : (await stat(p).then((s) => s.isDirectory(), () => false)) ? path.join(p, '*') : p)));
}

/**
 * The options every search action shares (TEA story TEA-BUILTIN-014.1's names and defaults). The line
 * mode gives one result per matching line (as the seeds' algorithm does); ranked modes merge windows.
 */
export async function commonSearchOptions(engine: ActionEngine, p: Params) {
  const mode = modeOf(oneOf<ModeName>(p, 'mode', MODE_NAMES, DEFAULT_ACTION_MODE));
  const query = str(p, 'query', { required: true });
  const topK = int(p, 'top_k', { fallback: 10, min: 1 });
  const maxDistance = num(p, 'max_distance', { min: 0 });
  const nLines = int(p, 'n_lines', { fallback: 3, min: 0 });
  const ignoreCase = bool(p, 'ignore_case', false);
  const scale = await distanceScale(engine.searcher, query, mode, ignoreCase);
  return {
    options: { query, mode, topK, maxDistance: internalMaxDistance(scale, maxDistance), nLines, ignoreCase, merge: mode !== 'line' },
    scale,
  };
}

export async function searchSemantic(engine: ActionEngine, _state: unknown, p: Params) {
  const { options: o, scale } = await commonSearchOptions(engine, p);
  const recursive = bool(p, 'recursive', true);
  const given = strList(p, 'paths', { required: true })!;
  const paths = recursive ? given : await topLevelOnly(given);
  // TEA-BUILTIN-014.3: an optional `workspace` answers from that workspace (a name, or its path).
  const ws = str(p, 'workspace') !== undefined ? target(engine, { workspace: p.workspace }) : null;
  // Every file filter of the one table, as search.related and the MCP tools take them (trial36: the ones
  // TEA's action lacks were dropped without a word, and changed the answer).
  const so = { ...o, paths, recursive, ...filterParams(p) };
  const r = ws ? await ws.search(so) : await searchPaths(engine, so);
  const missing = unusable(r);
  if (missing) return missing;
  return { results: r.results.map((x) => semanticResult(x, scale)), success: true, query: o.query, files_searched: r.stats.files, ...(r.files && { files: r.files }) };
}

export async function searchSemanticContent(engine: ActionEngine, _state: unknown, p: Params) {
  const content = str(p, 'content');
  if (content === undefined) return fail('validation_error', 'parameter content is required');
  const { options: o, scale } = await commonSearchOptions(engine, p);
  const r = await engine.searcher.searchContent({ ...o, content });
  return { results: r.results.map((x) => semanticResult(x, scale)), success: true, query: o.query, lines_searched: r.stats.lines };
}

/** search.related: code like the chunk at `file`:`line` (that chunk left out), in `paths`. */
export async function searchRelated(engine: ActionEngine, _state: unknown, p: Params) {
  const file = str(p, 'file', { required: true })!;
  const line = int(p, 'line', { min: 1 });
  if (line === undefined) return fail('validation_error', 'parameter line is required: the 1-based line of file whose code to find the like of');
  const given = strList(p, 'paths');
  const paths = given && given.length > 0 ? given : [path.dirname(file)];
  const filters = filterParams(p);
  const mode = modeOf(oneOf<ModeName>(p, 'mode', MODE_NAMES, 'hybrid'));
  // Distances on search.semantic's scale, with the chunk's own text as the query it is measured by.
  const scale = await distanceScale(engine.searcher, (await likeChunk({ path: file, line })).query, mode, false);
  const r = await searchPaths(engine, {
    query: '', like: { path: file, line }, paths, mode,
    topK: int(p, 'top_k', { fallback: 10, min: 1 }), nLines: int(p, 'n_lines', { fallback: 3, min: 0 }), ...filters,
  });
  const missing = unusable(r);
  if (missing) return missing;
  return { results: r.results.map((x) => semanticResult(x, scale)), success: true, file, line, files_searched: r.stats.files, ...(r.files && { files: r.files }) };
}
