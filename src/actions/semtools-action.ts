// semtools.search with TEA's contract (python/src/the_edge_agent/actions/semtools_actions.py): the same
// parameters, validation messages, result and failure dictionaries, answered in-process with the
// semtools algorithm (mode 'line', one result per line) instead of a `semtools` subprocess.
import { isSimgrepError } from '../errors.js';
import { teaMatch } from '../output/tea-matches.js';
import type { ActionEngine } from './engine.js';
import type { ErrorType } from './errors.js';
import { num, int, type Params } from './params.js';
import { unusable } from './search-actions.js';

/** semtools' own --n-lines default: TEA leaves the flag out when n_lines is 0, so semtools uses it. */
const SEMTOOLS_N_LINES = 3;

function failed(error_type: ErrorType, error: string, query?: string) {
  return { success: false, error, error_type, matches: [], has_matches: false, ...(query === undefined ? {} : { query }) };
}

export async function semtoolsSearch(engine: ActionEngine, _state: unknown, p: Params) {
  const query = p.query;
  if (typeof query !== 'string' || query === '') return failed('validation_error', 'Query parameter is required and must be a non-empty string');
  const files = p.files;
  if (files === undefined || files === null || files === '' || (Array.isArray(files) && files.length === 0)) return failed('validation_error', 'Files parameter is required');
  if (!(typeof files === 'string' || (Array.isArray(files) && files.every((f) => typeof f === 'string')))) {
    return failed('validation_error', `Files parameter must be a path or glob, or a list of them (got ${JSON.stringify(files)})`);
  }
  let maxDistance: number;
  let nResults: number;
  let nLines: number;
  let timeoutS: number;
  try {
    maxDistance = num(p, 'max_distance', { fallback: 0.5 })!;
    nResults = int(p, 'n_results', { fallback: 10 })!;
    nLines = int(p, 'n_lines', { fallback: 0 })!;
    timeoutS = num(p, 'timeout', { fallback: 60, min: 0 })!;
  } catch (e) {
    return failed('validation_error', isSimgrepError(e) ? e.message : String(e));
  }
  if (!(maxDistance >= 0 && maxDistance <= 1)) return failed('validation_error', `max_distance must be between 0.0 and 1.0, got ${maxDistance}`);
  if (nResults < 1) return failed('validation_error', `n_results must be at least 1, got ${nResults}`);
  try {
    const r = await engine.searcher.search({
      query, paths: typeof files === 'string' ? [files] : files as string[], mode: 'line', merge: false,
      topK: nResults, maxDistance, nLines: nLines > 0 ? nLines : SEMTOOLS_N_LINES,
      timeoutMs: timeoutS > 0 ? timeoutS * 1000 : undefined,
    });
    if (r.warnings.some((w) => w.code === 'TIMEOUT')) return failed('timeout', `semtools search timed out after ${timeoutS} seconds`, query);
    const missing = unusable(r);
    if (missing) return failed('cli_error', missing.error, query);
    const matches = r.results.map(teaMatch);
    return { success: true, matches, best_match: matches[0] ?? null, has_matches: matches.length > 0, total_matches: matches.length, query };
  } catch (e) {
    // semtools failing (a model it cannot load, a query it cannot embed) is a failed run to TEA: cli_error.
    if (isSimgrepError(e)) return failed(e.code === 'BAD_QUERY' || e.code === 'BAD_FLAG' ? 'validation_error' : 'cli_error', e.message, query);
    return failed('cli_error', (e as Error)?.message ?? String(e), query);
  }
}
