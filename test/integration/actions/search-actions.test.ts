// semtools.search, search.semantic and search.semantic_content: whole result dictionaries, built from
// the same library call the CLI makes (no second search path), and their error results.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAction, type Action, type ActionEngine } from '../../../src/index.js';
import { roundDistance } from '../../../src/output/printer.js';
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
      // Rounded to 6 decimals, as the CLI's --json prints it (before session 47: every digit of the float's).
      results: lib.results.map((x) => ({ filename: x.filename, lines: x.lines, start: x.start, end: x.end, match_line: x.match_line, distance: roundDistance(x.distance) })),
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
      results: [{ filename: '<content>', lines: ['retry the failed upload'], start: 1, end: 2, match_line: 1, distance: roundDistance(lib.results[0].distance) }],
      success: true, query: 'retry failed upload', lines_searched: 3,
    });
  });
});

describe('distances are rounded to 6 decimals, as the CLI\'s --json prints them', () => {
  for (const mode of ['line', 'hybrid', 'semantic', 'lexical']) {
    it(`search.semantic, search.semantic_content and search.related, mode ${mode}`, async () => {
      const answers = [
        await actions['search.semantic']({}, { query: 'retry the failed upload', paths: [docs], mode, top_k: 3 }),
        await actions['search.semantic_content']({}, { query: 'retry the failed upload', content: 'parse the config\nretry the failed upload with backoff\nrender a button', mode, top_k: 3 }),
        await actions['search.related']({}, { file: path.join(docs, 'story.md'), line: 2, paths: [docs], mode, top_k: 3 }),
      ];
      const distances = answers.flatMap((r) => (r.results as { distance: number }[]).map((x) => x.distance));
      expect(distances.length).toBeGreaterThan(0);
      expect(distances).toEqual(distances.map(roundDistance));
    });
  }
});

describe('mode names', () => {
  it("mode bm25 (the peers' name) is the lexical mode: the same answer", async () => {
    const lexical = await actions['search.semantic']({}, { query: 'query the database table', paths: [docs], mode: 'lexical', top_k: 2 });
    expect((lexical as { results: unknown[] }).results.length).toBeGreaterThan(0);
    expect(await actions['search.semantic']({}, { query: 'query the database table', paths: [docs], mode: 'bm25', top_k: 2 })).toEqual(lexical);
  });
});

describe('a query the search can do nothing with', () => {
  // QUERY_NUMBERS_ONLY / QUERY_STOP_WORDS are about the whole search, not a failure of it: success, no results.
  // An empty folder too: then the whole-search warning is the only one, and it is no reason the search read nothing.
  it.each(['1964', 'the of and', 'in 1964'])('search.semantic %j (hybrid): success, no results', async (query) => {
    const empty = path.join(docs, '..', 'empty');
    mkdirSync(empty, { recursive: true });
    expect(await actions['search.semantic']({}, { query, paths: [docs], mode: 'hybrid' })).toEqual({ success: true, results: [], query, files_searched: 2 });
    expect(await actions['search.semantic']({}, { query, paths: [empty], mode: 'hybrid' })).toEqual({ success: true, results: [], query, files_searched: 0 });
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

describe('search.related', () => {
  it('finds code like the chunk at file:line in paths, leaving that chunk out', async () => {
    const file = path.join(docs, 'story.md');
    const r = await actions['search.related']({}, { file, line: 2, paths: [docs], top_k: 5, n_lines: 0 });
    expect(r).toMatchObject({ success: true, file, line: 2, files_searched: 2 });
    expect((r.results as { filename: string }[]).map((x) => path.relative(docs, x.filename))).toEqual(['sub/db.py']);
  });

  it('a missing file, a line past the end or no line is an error result, never a throw', async () => {
    const missing = await actions['search.related']({}, { file: path.join(docs, 'nope.md'), line: 1, paths: [docs] });
    expect(missing).toMatchObject({ success: false, error_type: 'file_not_found' });
    const past = await actions['search.related']({}, { file: path.join(docs, 'story.md'), line: 9, paths: [docs] });
    expect(past).toEqual({ success: false, error: `${path.join(docs, 'story.md')} has 3 lines; line 9 is past its end: pick one from 1 to 3`, error_type: 'validation_error' });
    const noLine = await actions['search.related']({}, { file: path.join(docs, 'story.md') });
    expect(noLine).toMatchObject({ success: false, error_type: 'validation_error' });
  });
});

describe('types', () => {
  it('search.semantic keeps files of the named ripgrep types', async () => {
    const r = await actions['search.semantic']({}, { query: 'run a database query', paths: [docs], types: ['py'], top_k: 5 });
    expect([...new Set((r.results as { filename: string }[]).map((x) => path.relative(docs, x.filename)))]).toEqual(['sub/db.py']);
    const bad = await actions['search.semantic']({}, { query: 'retry', paths: [docs], types: ['cobol'] });
    expect(bad).toMatchObject({ success: false, error_type: 'validation_error' });
  });
});
