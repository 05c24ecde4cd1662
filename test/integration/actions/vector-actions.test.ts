// vector.store / vector.query / vector.index_files on a real LanceDB directory: whole dictionaries,
// overwrite by id, isolation, filters, incremental re-runs, binary and missing files.
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Action, ActionEngine } from '../../../src/index.js';
import { cosineOf } from '../../helpers/isolated-home.js';
import { createActionFixture, type ActionFixture } from '../../helpers/action-fixture.js';

let fx: ActionFixture;
let home: ActionFixture['home'];
let engine: ActionEngine;
let actions: Record<string, Action>;
let docs = '';

beforeAll(() => {
  fx = createActionFixture('docs', {
    'guide.md': 'How to retry failed uploads\n\nParse the yaml config file\nthen validate it\n',
    'notes/db.txt': 'the database table index\n',
    'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2]),
  });
  ({ home, engine, actions, dir: docs } = fx);
});
afterAll(() => fx.close());

const cosine = (a: string, b: string) => cosineOf(engine.searcher, a, b);

describe('vector.store and vector.query', () => {
  it('stores under $SIMGREP_HOME/collections and answers with the whole result dictionary', async () => {
    const stored = await actions['vector.store']({}, { texts: ['retry the failed upload', 'render a button'], ids: ['a', 'b'], metadata: [{ kind: 'net', year: 2020 }, { kind: 'ui', year: 2024 }], collection: 'docs' });
    expect(stored).toEqual({ stored: 2, collection: 'docs', ids: ['a', 'b'] });
    expect(existsSync(path.join(home.env.SIMGREP_HOME, 'collections', 'docs.lance'))).toBe(true);
    const r = await actions['vector.query']({}, { query: 'upload retry', k: 1, collection: 'docs' });
    expect(r).toEqual({
      results: [{ id: 'a', text: 'retry the failed upload', score: expect.closeTo(await cosine('upload retry', 'retry the failed upload'), 5), metadata: { kind: 'net', year: 2020 }, context_before: null, context_after: null }],
      query: 'upload retry', collection: 'docs', k: 1,
    });
  });

  it('a duplicate id overwrites; one metadata mapping applies to all', async () => {
    await actions['vector.store']({}, { texts: ['parse the json config'], ids: ['a'], metadata: { kind: 'parse' }, collection: 'docs' });
    const r = await actions['vector.query']({}, { query: 'parse config', k: 5, collection: 'docs' });
    expect((r.results as { id: string; text: string }[]).map((x) => [x.id, x.text]).sort()).toEqual([['a', 'parse the json config'], ['b', 'render a button']]);
  });

  // Regression (issue 29): ids were a hash of the text, so two equal texts without ids reported
  // stored: 2 but kept one row, and the first text's metadata was lost. TEA gives each a uuid4.
  it('vector.store of two equal texts without ids keeps both, each with its metadata (ids are UUIDs, as in TEA)', async () => {
    const auto = await actions['vector.store']({}, { texts: ['x y z', 'x y z'], metadata: [{ n: 1 }, { n: 2 }], collection: 'dupes' });
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(auto).toEqual({ stored: 2, collection: 'dupes', ids: [expect.stringMatching(uuid), expect.stringMatching(uuid)] });
    const r = await actions['vector.query']({}, { query: 'x y z', k: 5, collection: 'dupes' });
    expect((r.results as { id: string; metadata: unknown }[]).map((x) => [x.id, x.metadata]).sort((a, b) => (a[0] as string).localeCompare(b[0] as string)))
      .toEqual((auto.ids as string[]).map((id, i) => [id, { n: i + 1 }]).sort((a, b) => (a[0] as string).localeCompare(b[0] as string)));
  });

  it('collections are isolated; an empty or unknown collection returns []', async () => {
    expect(await actions['vector.query']({}, { query: 'retry', collection: 'nothing-here' })).toEqual({ results: [], query: 'retry', collection: 'nothing-here', k: 5 });
    const other = await actions['vector.query']({}, { query: 'retry', collection: 'dupes' });
    expect((other.results as { text: string }[]).map((x) => x.text)).toEqual(['x y z', 'x y z']);
  });

  it('embeddings= stores the given vectors (at unit length); include_embeddings returns them', async () => {
    const dim = (await engine.searcher.model()).dim;
    const v1 = Array.from({ length: dim }, (_, i) => (i === 0 ? 3 : 0));
    const v2 = Array.from({ length: dim }, (_, i) => (i === 1 ? 1 : 0));
    expect(await actions['vector.store']({}, { texts: ['first', 'second'], ids: ['e1', 'e2'], embeddings: [v1, v2], collection: 'given' })).toEqual({ stored: 2, collection: 'given', ids: ['e1', 'e2'] });
    const r = await actions['vector.query']({}, { query: 'anything', k: 2, collection: 'given', include_embeddings: true });
    const byId = Object.fromEntries((r.results as { id: string; embedding: number[] }[]).map((x) => [x.id, x.embedding]));
    expect(byId).toEqual({ e1: v1.map((x) => x / 3), e2: v2 });
    const plain = await actions['vector.query']({}, { query: 'anything', k: 1, collection: 'given' });
    expect(Object.keys((plain.results as object[])[0])).not.toContain('embedding');
    expect(await actions['vector.store']({}, { texts: ['a', 'b'], embeddings: [v1], collection: 'given' }))
      .toEqual({ success: false, error: "Number of embeddings (1) doesn't match texts (2); give one vector per text in parameter embeddings", error_type: 'validation_error' });
    expect(await actions['vector.store']({}, { texts: ['a'], embeddings: [[1, 2]], collection: 'given' }))
      .toEqual({ success: false, error: `parameter embeddings: item 0 must be a list of ${dim} numbers (the model's dimension), got 2 items`, error_type: 'validation_error' });
  });

  const filters: [Record<string, unknown>, string[]][] = [
    [{ kind: 'ui' }, ['b']],
    [{ year_gte: 2024 }, ['b']],
    [{ year_lte: 2020 }, []],
    [{ year_gt: 2019, year_lt: 2025 }, ['b']],
    [{ kind_ne: 'ui' }, ['a']],
    [{ kind_in: ['ui', 'parse'] }, ['a', 'b']],
    [{ missing: 1 }, []],
  ];
  it.each(filters)('filter %j keeps %j', async (filter, ids) => {
    const r = await actions['vector.query']({}, { query: 'anything', k: 10, collection: 'docs', filter });
    expect((r.results as { id: string }[]).map((x) => x.id).sort()).toEqual(ids);
  });
});

describe('vector.index_files', () => {
  it('indexes line chunks with "{path}:{start_line}" ids and file metadata; skips binary files', async () => {
    const r = await actions['vector.index_files']({}, { paths: docs, collection: 'files' });
    expect(r).toEqual({ success: true, indexed: 4, skipped: 1, errors: [], collection: 'files', files: 3 });
    const q = await actions['vector.query']({}, { query: 'parse yaml config', k: 1, collection: 'files' });
    const guide = path.join(docs, 'guide.md');
    expect(q).toEqual({
      results: [{
        id: `${guide}:2`, text: 'Parse the yaml config file', score: expect.closeTo(await cosine('parse yaml config', 'Parse the yaml config file'), 5),
        metadata: { file: guide, line: 2, start_line: 2, end_line: 3, chunk_type: 'line' },
        context_before: 'How to retry failed uploads', context_after: 'then validate it',
      }],
      query: 'parse yaml config', collection: 'files', k: 1,
    });
  });

  it('a re-run skips unchanged files; a changed file is re-chunked with no stale rows', async () => {
    expect(await actions['vector.index_files']({}, { paths: [docs], collection: 'files' })).toEqual({ success: true, indexed: 0, skipped: 3, errors: [], collection: 'files', files: 3 });
    writeFileSync(path.join(docs, 'notes', 'db.txt'), 'run sql on the database\nquery the table\n');
    expect(await actions['vector.index_files']({}, { paths: [docs], collection: 'files' })).toEqual({ success: true, indexed: 2, skipped: 2, errors: [], collection: 'files', files: 3 });
    const q = await actions['vector.query']({}, { query: 'database', k: 10, collection: 'files', filter: { file: path.join(docs, 'notes', 'db.txt') } });
    expect((q.results as { id: string }[]).map((x) => x.id).sort()).toEqual([0, 1].map((i) => `${path.join(docs, 'notes', 'db.txt')}:${i}`));
  });

  it('paragraph and document chunking, pattern and extensions filters', async () => {
    const para = await actions['vector.index_files']({}, { paths: [docs], pattern: '*.md', chunk_by: 'paragraph', collection: 'paras' });
    expect(para).toEqual({ success: true, indexed: 2, skipped: 0, errors: [], collection: 'paras', files: 1 });
    const q = await actions['vector.query']({}, { query: 'config', k: 1, collection: 'paras' });
    expect((q.results as { metadata: unknown }[])[0].metadata).toEqual({ file: path.join(docs, 'guide.md'), line: 2, start_line: 2, end_line: 4, chunk_type: 'paragraph' });
    const doc = await actions['vector.index_files']({}, { paths: [docs], extensions: ['.txt'], chunk_by: 'document', collection: 'whole' });
    expect(doc).toEqual({ success: true, indexed: 1, skipped: 0, errors: [], collection: 'whole', files: 1 });
  });

  it('a directory given relative to the working directory names its files by absolute paths, as TEA does; an earlier run\'s relative names are replaced, not doubled', async () => {
    const rel = path.relative(process.cwd(), path.join(docs, 'notes'));
    const db = path.join(docs, 'notes', 'db.txt');
    // What simgrep stored before (the path as given), for the same file.
    const store = await engine.collections();
    await store.replaceFile('rel', path.join(rel, 'db.txt'), [{ id: `${path.join(rel, 'db.txt')}:0`, text: 'run sql on the database', metadata: { file: path.join(rel, 'db.txt'), line: 0, start_line: 0, end_line: 1, chunk_type: 'line' } }], 'old');
    expect(await actions['vector.index_files']({}, { paths: rel, collection: 'rel' })).toEqual({ success: true, indexed: 2, skipped: 0, errors: [], collection: 'rel', files: 1 });
    const q = await actions['vector.query']({}, { query: 'database', k: 10, collection: 'rel' });
    expect((q.results as { id: string; metadata: { file: string } }[]).map((x) => [x.id, x.metadata.file]).sort()).toEqual([[`${db}:0`, db], [`${db}:1`, db]]);
    expect([...(await store.fileHashes('rel')).keys()]).toEqual([db]);
  });

  it('a missing path is listed in errors; a bad chunk_by or collection name is validation_error', async () => {
    const missing = path.join(docs, 'gone');
    expect(await actions['vector.index_files']({}, { paths: [missing], collection: 'files' })).toEqual({
      success: true, indexed: 0, skipped: 0, errors: [{ file: missing, error: expect.stringContaining('no such file or directory') }], collection: 'files', files: 0,
    });
    expect(await actions['vector.index_files']({}, { paths: [docs], chunk_by: 'sentence' })).toEqual({ success: false, error: 'parameter chunk_by must be one of line, paragraph, document (got "sentence")', error_type: 'validation_error' });
    expect(await actions['vector.store']({}, { texts: ['x'], collection: '../evil' })).toEqual({ success: false, error: expect.stringMatching(/^collection name "..\/evil" is not allowed/), error_type: 'validation_error' });
  });
});
