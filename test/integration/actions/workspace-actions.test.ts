// search.workspace_* over the workspace index: whole dictionaries (simgrep's keys and TEA story
// TEA-BUILTIN-014.3's), TEA's parameters (path, workspace), and the same answers as a scan.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Action, ActionEngine } from '../../../src/index.js';
import { roundDistance } from '../../../src/output/printer.js';
import { createActionFixture, type ActionFixture } from '../../helpers/action-fixture.js';

let fx: ActionFixture;
let home: ActionFixture['home'];
let engine: ActionEngine;
let actions: Record<string, Action>;
let src = '';

beforeAll(() => {
  fx = createActionFixture('src', {
    'upload.ts': 'export function retryUpload(file) {\n  return backoff(() => upload(file));\n}\n',
    'config.ts': 'export function parseConfig(text) {\n  return JSON.parse(text);\n}\n',
  });
  ({ home, engine, actions, dir: src } = fx);
});
afterAll(() => fx.close());

/** A library result as the actions give it: the distance rounded to 6 decimals, as the CLI's --json prints it. */
const shape = (x: { filename: string; lines: string[]; start: number; end: number; match_line: number; distance: number }) =>
  ({ filename: x.filename, lines: x.lines, start: x.start, end: x.end, match_line: x.match_line, distance: roundDistance(x.distance) });

describe('search.workspace_* by name', () => {
  it('create indexes the paths into a named workspace under $SIMGREP_HOME', async () => {
    const r = await actions['search.workspace_create']({}, { name: 'proj', paths: [src] });
    expect(r).toEqual({
      success: true, workspace: 'proj', name: 'proj', files: 2, indexed: 2, updated: 0, skipped: 0, total_lines: 6,
      unchanged: 0, deleted: 0, chunks: 2, errors: [],
      dir: path.join(home.env.SIMGREP_HOME, 'workspaces', 'proj'), roots: [src], created: true,
    });
  });

  it('stats: TEA\'s keys (total_documents, total_lines, has_index, index_type) and the whole status in snake_case', async () => {
    const r = await actions['search.workspace_stats']({}, { name: 'proj' });
    expect(r).toEqual({
      success: true, total_documents: 2, total_lines: 6, has_index: true, index_type: 'FLAT',
      workspace: 'proj', name: 'proj', dir: path.join(home.env.SIMGREP_HOME, 'workspaces', 'proj'), roots: [src],
      files: 2, binary: 0, chunks: 2, lines: 6, bytes: expect.any(Number), model: expect.any(String),
      size_on_disk: expect.any(Number), updated: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), complete: true,
    });
  });

  it('search defaults to the seeds\' line mode: the same lines and cosine distances as a line scan', async () => {
    const r = await actions['search.workspace_search']({}, { name: 'proj', query: 'retry the upload with backoff', top_k: 2, n_lines: 0 });
    const scan = await engine.searcher.search({ query: 'retry the upload with backoff', paths: [src], topK: 2, nLines: 0, mode: 'line', merge: false });
    expect(r).toEqual({ results: scan.results.map(shape), success: true, query: 'retry the upload with backoff', workspace: 'proj', files_searched: 2, refreshed: 0 });
    expect((r.results as { filename: string }[])[0].filename).toBe(path.join(src, 'upload.ts'));
  });

  it('mode hybrid answers from the index as a scan would; a change is re-indexed first', async () => {
    const r = await actions['search.workspace_search']({}, { name: 'proj', query: 'retry the upload with backoff', top_k: 1, n_lines: 0, mode: 'hybrid' });
    expect((r.results as { filename: string }[])[0].filename).toBe(path.join(src, 'upload.ts'));
    writeFileSync(path.join(src, 'db.ts'), 'export const sql = "select * from the database table";\n');
    const again = await actions['search.workspace_search']({}, { name: 'proj', query: 'database table', top_k: 1, mode: 'hybrid' });
    expect([again.files_searched, again.refreshed]).toEqual([3, 1]);
  });

  it('index: a changed file counts as updated, unchanged ones as skipped (TEA\'s keys)', async () => {
    writeFileSync(path.join(src, 'config.ts'), 'export function parseConfig(text) {\n  return YAML.parse(text);\n}\n');
    expect(await actions['search.workspace_index']({}, { name: 'proj' })).toEqual({
      success: true, workspace: 'proj', name: 'proj', files: 3, indexed: 0, updated: 1, skipped: 2, total_lines: 7,
      unchanged: 2, deleted: 0, chunks: 1, errors: [],
    });
  });

  it('unknown workspaces and missing names are clear errors', async () => {
    expect(await actions['search.workspace_stats']({}, { name: 'nope' })).toEqual({ success: false, error: expect.stringMatching(/^workspace nope does not exist/), error_type: 'workspace_not_found' });
    // trial33: _search and _index said the CLI's "create it with simgrep index PATH -w nope"; every action says the action to run.
    const missing = { success: false, error: 'workspace nope does not exist; create it with search.workspace_create', error_type: 'workspace_not_found' };
    expect(await actions['search.workspace_stats']({}, { name: 'nope' })).toEqual(missing);
    expect(await actions['search.workspace_search']({}, { workspace: 'nope', query: 'x', mode: 'hybrid' })).toEqual(missing);
    expect(await actions['search.workspace_index']({}, { workspace: 'nope' })).toEqual(missing);
    expect(await actions['search.workspace_search']({}, { query: 'x' })).toEqual({ success: false, error: 'parameter workspace is required (a workspace name, or the path search.workspace_create was given)', error_type: 'validation_error' });
    expect(await actions['search.workspace_search']({}, { workspace: 'proj', name: 'proj', query: 'x' })).toEqual({ success: false, error: 'parameters workspace and name both name a workspace; pass one of them', error_type: 'validation_error' });
  });
});

describe('search.workspace_* with TEA story TEA-BUILTIN-014.3\'s parameters', () => {
  // The story's YAML example: create with `path`, then index and search with `workspace: "{{ ws.workspace }}"`.
  it('create {path} -> {workspace, success, created}; index {workspace, paths, extensions}; search {workspace, query, top_k}', async () => {
    const base = mkdtempSync(path.join(home.dir, 'tea-'));
    const wsPath = path.join(base, 'myproject');
    const code = path.join(base, 'code');
    mkdirSync(code);
    writeFileSync(path.join(code, 'upload.ts'), 'export function retryUpload(file) {\n  return backoff(() => upload(file));\n}\n');
    writeFileSync(path.join(code, 'notes.md'), 'retry the upload with backoff\n');
    const ws = await actions['search.workspace_create']({}, { path: wsPath });
    expect(ws).toEqual({ success: true, workspace: wsPath, name: 'myproject', dir: wsPath, roots: [], created: true });
    expect(await actions['search.workspace_create']({}, { path: wsPath })).toMatchObject({ success: true, workspace: wsPath, created: false });

    const idx = await actions['search.workspace_index']({}, { workspace: ws.workspace, paths: [code], extensions: ['.ts'] });
    expect(idx).toMatchObject({ success: true, workspace: wsPath, indexed: 1, updated: 0, skipped: 0, total_lines: 3 });

    const found = await actions['search.workspace_search']({}, { workspace: ws.workspace, query: 'retry the upload with backoff', top_k: 1, n_lines: 0 });
    expect(found).toMatchObject({ success: true, query: 'retry the upload with backoff', workspace: wsPath });
    expect((found.results as { filename: string; match_line: number }[]).map((x) => [x.filename, x.match_line])).toEqual([[path.join(code, 'upload.ts'), 1]]);

    // search.semantic's optional `workspace` (the story's AC 10) answers from that workspace: the same results.
    const viaSemantic = await actions['search.semantic']({}, { workspace: ws.workspace, query: 'retry the upload with backoff', paths: [code], top_k: 1, n_lines: 0, mode: 'hybrid' });
    const viaWorkspace = await actions['search.workspace_search']({}, { workspace: ws.workspace, query: 'retry the upload with backoff', paths: [code], top_k: 1, n_lines: 0, mode: 'hybrid' });
    expect(viaSemantic.results).toEqual(viaWorkspace.results);
    expect((viaSemantic.results as unknown[]).length).toBe(1);

    expect(await actions['search.workspace_stats']({}, { workspace: ws.workspace })).toMatchObject({ success: true, total_documents: 1, total_lines: 3, has_index: true });
    expect(await actions['search.workspace_stats']({}, { workspace: path.join(home.dir, 'no-such-ws', 'x') })).toEqual({ success: false, error: expect.stringMatching(/no-such-ws\/x does not exist/), error_type: 'workspace_not_found' });
  });
});
