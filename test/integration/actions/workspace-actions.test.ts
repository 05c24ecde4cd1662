// search.workspace_* over the workspace index: whole dictionaries, and the same answers as a scan.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Action, ActionEngine } from '../../../src/index.js';
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

describe('search.workspace_*', () => {
  it('create indexes the paths into a named workspace under $SIMGREP_HOME', async () => {
    const r = await actions['search.workspace_create']({}, { name: 'proj', paths: [src] });
    expect(r).toEqual({
      success: true, workspace: 'proj', files: 2, indexed: 2, unchanged: 0, deleted: 0, chunks: 2, errors: [],
      dir: path.join(home.env.SIMGREP_HOME, 'workspaces', 'proj'), roots: [src], created: true,
    });
  });

  it('stats: the whole status dictionary in snake_case', async () => {
    const r = await actions['search.workspace_stats']({}, { name: 'proj' });
    expect(r).toEqual({
      success: true, workspace: 'proj', dir: path.join(home.env.SIMGREP_HOME, 'workspaces', 'proj'), roots: [src],
      files: 2, binary: 0, chunks: 2, lines: 6, bytes: expect.any(Number), model: expect.any(String),
      size_on_disk: expect.any(Number), updated: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it('search answers from the index exactly as a scan would; a change is re-indexed first', async () => {
    const r = await actions['search.workspace_search']({}, { name: 'proj', query: 'retry the upload with backoff', top_k: 1, n_lines: 0 });
    const scan = await engine.searcher.search({ query: 'retry the upload with backoff', paths: [src], topK: 1, nLines: 0 });
    expect(r).toEqual({
      results: scan.results.map((x) => ({ filename: x.filename, lines: x.lines, start: x.start, end: x.end, match_line: x.match_line, distance: x.distance })),
      success: true, query: 'retry the upload with backoff', workspace: 'proj', files_searched: 2, refreshed: 0,
    });
    expect((r.results as { filename: string }[])[0].filename).toBe(path.join(src, 'upload.ts'));
    writeFileSync(path.join(src, 'db.ts'), 'export const sql = "select * from the database table";\n');
    const again = await actions['search.workspace_search']({}, { name: 'proj', query: 'database table', top_k: 1 });
    expect([again.files_searched, again.refreshed]).toEqual([3, 1]);
  });

  it('index refreshes the roots; unknown workspaces and missing names are clear errors', async () => {
    expect(await actions['search.workspace_index']({}, { name: 'proj' })).toEqual({ success: true, workspace: 'proj', files: 3, indexed: 0, unchanged: 3, deleted: 0, chunks: 0, errors: [] });
    expect(await actions['search.workspace_stats']({}, { name: 'nope' })).toEqual({ success: false, error: expect.stringMatching(/^workspace nope does not exist/), error_type: 'workspace_not_found' });
    expect(await actions['search.workspace_search']({}, { name: 'nope', query: 'x' })).toEqual({ success: false, error: expect.stringMatching(/^workspace nope does not exist/), error_type: 'workspace_not_found' });
    expect(await actions['search.workspace_search']({}, { query: 'x' })).toEqual({ success: false, error: 'parameter name (or dir) is required', error_type: 'invalid_argument' });
  });
});
