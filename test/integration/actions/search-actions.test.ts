// semtools.search, search.semantic and search.semantic_content: whole result dictionaries, built from
// the same library call the CLI makes (no second search path), and their error results.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAction, type Action, type ActionEngine } from '../../../src/index.js';
import { cosineOf } from '../../helpers/isolated-home.js';
import { createActionFixture, type ActionFixture } from '../../helpers/action-fixture.js';

let fx: ActionFixture;
let engine: ActionEngine;
let actions: Record<string, Action>;
let docs = '';

beforeAll(() => {
  fx = createActionFixture('docs', {
    'story.md': 'parse the config file\nretry the failed upload with backoff\nrender a button on the page\n',
    'sub/db.py': 'def query_table(sql):\n    return database.run(sql)\n',
  });
  ({ engine, actions, dir: docs } = fx);
});
afterAll(() => fx.close());

const cosine = (a: string, b: string) => cosineOf(engine.searcher, a, b);

describe('semtools.search', () => {
  it('returns the seed dictionary: matches with cosine-similarity scores, best_match, has_matches, total_matches', async () => {
    const file = path.join(docs, 'story.md');
    const r = await actions['semtools.search']({}, { query: 'retry failed uploads', files: file, max_distance: 0.5, n_results: 5, n_lines: 1 });
    const match = { file, line: 2, score: expect.closeTo(await cosine('retry failed uploads', 'retry the failed upload with backoff'), 5), text: 'retry the failed upload with backoff', context: ['parse the config file', 'retry the failed upload with backoff', 'render a button on the page'] };
    expect(r).toEqual({ success: true, matches: [match], best_match: match, has_matches: true, total_matches: 1, query: 'retry failed uploads' });
  });

  it('is also registered as actions.semtools_search, and takes a glob or a list', async () => {
    const a = await actions['actions.semtools_search']({}, { query: 'retry failed uploads', files: `${docs}/*.md`, n_results: 1 });
    const b = await actions['semtools.search']({}, { query: 'retry failed uploads', files: [path.join(docs, 'story.md')], n_results: 1 });
    expect(a).toEqual(b);
    expect((a.matches as unknown[]).length).toBe(1);
  });

  it('no match is an empty list, not an error', async () => {
    const r = await actions['semtools.search']({}, { query: 'retry failed uploads', files: path.join(docs, 'story.md'), max_distance: 0 });
    expect(r).toEqual({ success: true, matches: [], best_match: null, has_matches: false, total_matches: 0, query: 'retry failed uploads' });
  });

  it('a missing file is TEA\'s failed-run dictionary: cli_error, matches [], has_matches false, the query', async () => {
    const missing = path.join(docs, 'nope.md');
    const r = await actions['semtools.search']({}, { query: 'retry', files: missing });
    expect(r).toEqual({ success: false, error: expect.stringContaining(`${missing}: no such file or directory`), error_type: 'cli_error', matches: [], has_matches: false, query: 'retry' });
  });

  it('n_lines 0 (TEA\'s default) gives semtools\' own 3 lines of context: TEA leaves --n-lines out then', async () => {
    const file = path.join(docs, 'story.md');
    const r = await actions['semtools.search']({}, { query: 'render a button', files: file, n_results: 1 });
    expect((r.matches as { context: string[] }[])[0].context).toEqual(['parse the config file', 'retry the failed upload with backoff', 'render a button on the page']);
  });
});

describe('search.semantic and search.semantic_content', () => {
  it('search.semantic: the library search in line mode (one result per line), reshaped to {results, success, query, files_searched}', async () => {
    const r = await actions['search.semantic']({}, { query: 'run a sql query on the database table', paths: [docs], top_k: 2, n_lines: 1 });
    const lib = await engine.searcher.search({ query: 'run a sql query on the database table', paths: [docs], topK: 2, nLines: 1, mode: 'line', merge: false, ignoreCase: false, recursive: true });
    expect(lib.results[0].filename).toBe(path.join(docs, 'sub', 'db.py'));
    expect(r).toEqual({
      results: lib.results.map((x) => ({ filename: x.filename, lines: x.lines, start: x.start, end: x.end, match_line: x.match_line, distance: x.distance })),
      success: true, query: 'run a sql query on the database table', files_searched: 2,
    });
  });

  it('search.semantic honours extensions and recursive', async () => {
    const r = await actions['search.semantic']({}, { query: 'database', paths: [docs], extensions: ['.md'], recursive: false });
    expect(r.files_searched).toBe(1);
    expect((r.results as { filename: string }[]).every((x) => x.filename.endsWith('story.md'))).toBe(true);
  });

  it('search.semantic_content: {results, success, query, lines_searched}', async () => {
    const content = 'parse the config\nretry the failed upload\nrender a button';
    const r = await actions['search.semantic_content']({}, { query: 'retry failed upload', content, top_k: 1, n_lines: 0 });
    const lib = await engine.searcher.searchContent({ query: 'retry failed upload', content, topK: 1, nLines: 0, mode: 'line' });
    expect(r).toEqual({
      results: [{ filename: '<content>', lines: ['retry the failed upload'], start: 1, end: 2, match_line: 1, distance: lib.results[0].distance }],
      success: true, query: 'retry failed upload', lines_searched: 3,
    });
  });
});

describe('error results', () => {
  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    ['search.semantic', { query: 'x', paths: [1] }, 'validation_error', /parameter paths must be a string or a list of strings/],
    ['search.semantic', { query: 'x', paths: ['.'], top_k: 0 }, 'validation_error', /parameter top_k must be >= 1/],
    ['search.semantic', { query: 'x', paths: ['.'], mode: 'fuzzy' }, 'validation_error', /parameter mode must be one of hybrid, semantic, lexical, line/],
    ['search.semantic', { query: '   ', paths: ['.'] }, 'validation_error', /parameter query must not be empty/],
    ['search.semantic_content', { query: 'x' }, 'validation_error', /parameter content is required/],
    ['search.semantic', { query: 'x', paths: ['s3://'] }, 'validation_error', /./],
  ];
  it.each(cases)('%s %j -> %s', async (name, params, type, message) => {
    const r = await actions[name]({}, params);
    expect(r).toEqual({ success: false, error: expect.stringMatching(message), error_type: type });
  });

  it('an unknown action is an unknown_action result naming the known ones', async () => {
    expect(await runAction(actions, 'semtools.serch', {}, {})).toEqual({ success: false, error: expect.stringMatching(/^unknown action "semtools.serch"; known actions: semtools.search, /), error_type: 'unknown_action' });
  });
});
