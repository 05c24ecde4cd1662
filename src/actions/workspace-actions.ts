// search.workspace_create / _index / _search / _stats over createWorkspace, sharing the engine's model.
import { existsSync } from 'node:fs';
import { SimgrepError } from '../errors.js';
import { defaultName, workspaceDir } from '../workspace/registry.js';
import type { Workspace } from '../workspace/workspace.js';
import type { IndexReport } from '../workspace/build/indexer.js';
import type { ActionEngine } from './engine.js';
import { bool, int, num, oneOf, str, strList, type Params } from './params.js';
import { semanticResult } from './search-actions.js';
import { SEARCH_MODES, type SearchMode } from '../searcher.js';

/** The workspace the parameters name: `dir`, else `name`, else (with paths) the paths' default name. */
function target(engine: ActionEngine, p: Params, paths?: string[]): Workspace {
  const dir = str(p, 'dir');
  const name = str(p, 'name');
  if (dir !== undefined && name !== undefined) throw new SimgrepError('BAD_FLAG', 'pass a workspace name or a dir, not both');
  if (dir !== undefined) return engine.workspace({ dir });
  if (name !== undefined) return engine.workspace({ name });
  if (paths && paths.length > 0) return engine.workspace({ name: defaultName(paths) });
  throw new SimgrepError('BAD_FLAG', 'parameter name (or dir) is required');
}

function indexSummary(ws: Workspace, r: IndexReport) {
  return { workspace: ws.name, files: r.files, indexed: r.indexed, unchanged: r.unchanged, deleted: r.deleted, chunks: r.chunks, errors: r.warnings.map((w) => ({ file: w.path, error: w.message })) };
}

export async function workspaceCreate(engine: ActionEngine, _state: unknown, p: Params) {
  const paths = strList(p, 'paths', { required: true })!;
  const ws = target(engine, p, paths);
  const existed = existsSync(ws.dir);
  const report = await ws.index(paths);
  const s = await ws.status();
  return { success: true, ...indexSummary(ws, report), dir: ws.dir, roots: s.roots, created: !existed };
}

export async function workspaceIndex(engine: ActionEngine, _state: unknown, p: Params) {
  const given = strList(p, 'paths');
  const ws = target(engine, p, given);
  const paths = given && given.length > 0 ? given : (await ws.status()).roots;
  if (paths.length === 0) throw new SimgrepError('BAD_FLAG', `workspace ${ws.name} has no paths yet; pass paths to index`);
  return { success: true, ...indexSummary(ws, await ws.index(paths)) };
}

export async function workspaceSearch(engine: ActionEngine, _state: unknown, p: Params) {
  const ws = target(engine, p);
  const query = str(p, 'query', { required: true });
  const given = strList(p, 'paths');
  const paths = given && given.length > 0 ? given : (await ws.status()).roots;
  const r = await ws.search({
    query, paths,
    mode: oneOf<SearchMode>(p, 'mode', SEARCH_MODES, 'hybrid'),
    topK: int(p, 'top_k', { fallback: 10, min: 1 }),
    maxDistance: num(p, 'max_distance', { min: 0 }),
    nLines: int(p, 'n_lines', { fallback: 3, min: 0 }),
    ignoreCase: bool(p, 'ignore_case', false),
    extensions: strList(p, 'extensions'),
  });
  return { results: r.results.map(semanticResult), success: true, query, workspace: ws.name, files_searched: r.stats.files, refreshed: r.stats.index?.refreshed ?? 0 };
}

export async function workspaceStats(engine: ActionEngine, _state: unknown, p: Params) {
  const ws = target(engine, p);
  if (str(p, 'dir') === undefined && !existsSync(workspaceDir(ws.name))) {
    throw new SimgrepError('WORKSPACE_NOT_FOUND', `workspace ${ws.name} does not exist; create it with search.workspace_create`);
  }
  const s = await ws.status();
  return {
    success: true, workspace: s.name, dir: s.dir, roots: s.roots, files: s.files, binary: s.binary, chunks: s.chunks,
    lines: s.lines, bytes: s.bytes, model: s.model, size_on_disk: s.sizeOnDisk, updated: s.updated,
  };
}
