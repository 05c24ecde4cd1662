// search.workspace_create / _index / _search / _stats over createWorkspace, sharing the engine's model.
// They take TEA story TEA-BUILTIN-014.3's parameters (`path` to create, `workspace` to name the one to
// use: whatever workspace_create returned) as well as simgrep's (`name`, `dir`), and return the
// story's keys (indexed/updated/skipped/total_lines, total_documents/has_index/index_type) beside
// simgrep's own. Searches default to the seeds' line mode, like search.semantic.
import { existsSync, mkdirSync } from 'node:fs';
import { SimgrepError } from '../errors.js';
import type { Workspace } from '../workspace/workspace.js';
import { INCOMPLETE_INDEX, isUnfinished } from '../workspace/unfinished.js';
import type { IndexReport } from '../workspace/build/indexer.js';
import { sourcesForPaths } from '../sources/resolve.js';
import { isRemoteUri } from '../sources/uri.js';
import type { ActionEngine } from './engine.js';
import { bool, filterParams, str, strList, type Params } from './params.js';
import { commonSearchOptions, semanticResult } from './search-actions.js';
import { handle, target } from './workspace-target.js';

/** The files under the paths, when `extensions` or `recursive: false` narrow what a root would index. */
async function narrowed(paths: string[], p: Params): Promise<string[]> {
  const extensions = strList(p, 'extensions');
  const recursive = bool(p, 'recursive', true);
  if (!extensions && recursive) return paths;
  const files: string[] = [];
  for (const source of await sourcesForPaths(paths, { recursive, extensions })) {
    for await (const e of source.list()) files.push(e.path);
  }
  return files;
}

async function indexSummary(ws: Workspace, r: IndexReport, p: Params) {
  const s = await ws.status();
  const changed = r.changed ?? 0;
  return {
    workspace: handle(ws, p), name: ws.name, files: r.files,
    // TEA's counts: new files, changed files, unchanged files, and the workspace's lines.
    indexed: r.indexed - changed, updated: changed, skipped: r.unchanged, total_lines: s.lines,
    unchanged: r.unchanged, deleted: r.deleted, chunks: r.chunks,
    errors: r.warnings.map((w) => ({ file: w.path, error: w.message })),
  };
}

export async function workspaceCreate(engine: ActionEngine, _state: unknown, p: Params) {
  const paths = strList(p, 'paths');
  const ws = target(engine, p, paths);
  const existed = isRemoteUri(ws.dir) || existsSync(ws.dir);
  if (!paths || paths.length === 0) {
    if (!isRemoteUri(ws.dir)) mkdirSync(ws.dir, { recursive: true });
    return { success: true, workspace: handle(ws, p), name: ws.name, dir: ws.dir, roots: await ws.roots(), created: !existed };
  }
  const report = await ws.index(await narrowed(paths, p));
  const s = await ws.status();
  return { success: true, ...await indexSummary(ws, report, p), dir: ws.dir, roots: s.roots, created: !existed };
}

export async function workspaceIndex(engine: ActionEngine, _state: unknown, p: Params) {
  const given = strList(p, 'paths');
  const ws = target(engine, p, given);
  const paths = given && given.length > 0 ? await narrowed(given, p) : (await statusOf(ws, p)).roots;
  if (paths.length === 0) throw new SimgrepError('BAD_FLAG', `workspace ${ws.name} has no paths yet; pass paths to index`);
  return { success: true, ...await indexSummary(ws, await ws.index(paths), p) };
}

export async function workspaceSearch(engine: ActionEngine, _state: unknown, p: Params) {
  const ws = target(engine, p);
  const { options: o, scale } = await commonSearchOptions(engine, p);
  const given = strList(p, 'paths');
  const paths = given && given.length > 0 ? given : (await statusOf(ws, p)).roots;
  // Every file filter of the one table, as search.semantic takes them (trial36: only extensions was read).
  const r = await ws.search({ ...o, paths, ...filterParams(p) });
  return {
    results: r.results.map((x) => semanticResult(x, scale)), success: true, query: o.query,
    workspace: handle(ws, p), files_searched: r.stats.files, refreshed: r.stats.index?.refreshed ?? 0, ...(r.files && { files: r.files }),
  };
}

/** The workspace's status; one that does not exist is said in the actions' words, not the CLI's (trial33). */
async function statusOf(ws: Workspace, p: Params) {
  if (!isRemoteUri(ws.dir) && !existsSync(ws.dir)) {
    throw new SimgrepError('WORKSPACE_NOT_FOUND', `workspace ${handle(ws, p)} does not exist; create it with search.workspace_create`);
  }
  return ws.status();
}

export async function workspaceStats(engine: ActionEngine, _state: unknown, p: Params) {
  const ws = target(engine, p);
  const s = await statusOf(ws, p);
  // An index no run has finished holds a part of its roots: `complete` says so (a `note` says what
  // finishes it), beside TEA's keys, which count what it holds so far.
  const note = !isUnfinished(s) ? undefined : `${INCOMPLETE_INDEX}; search.workspace_index with workspace: ${JSON.stringify(handle(ws, p))} finishes it`;
  return {
    success: true,
    // TEA's keys: simgrep searches its index exactly (a flat scan of the snapshot), it builds no ANN index.
    total_documents: s.files, total_lines: s.lines, has_index: s.files > 0, index_type: s.files > 0 ? 'FLAT' : null,
    workspace: handle(ws, p), name: s.name, dir: s.dir, roots: s.roots, files: s.files, binary: s.binary, chunks: s.chunks,
    lines: s.lines, bytes: s.bytes, model: s.model, size_on_disk: s.sizeOnDisk, updated: s.updated,
    complete: s.complete, ...(note !== undefined && { note }),
  };
}
