// TEA's own assertions for the actions simgrep shares with it, ported (issue 29 §2). Each test names
// the TEA test it comes from (github.com/fabceolin/the_edge_agent, python/tests/...); the expected
// values are TEA's. Where TEA mocks what simgrep runs for real (the semtools subprocess, an OpenAI
// embedding), the same property is checked on the real search or the engine's model.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_NAMES, type Action, type ActionEngine } from '../../../src/index.js';
import { createActionFixture, type ActionFixture } from '../../helpers/action-fixture.js';

let fx: ActionFixture;
let engine: ActionEngine;
let actions: Record<string, Action>;
let docs = '';
let dim = 0;

beforeAll(async () => {
  fx = createActionFixture('docs', {
    'a.md': 'QA gate: CONCERNS - several issues found\nretry the failed upload with backoff\nrender a button on the page\n',
    'b.md': 'QA gate: PASS - acceptance criteria met\nparse the yaml config file\nthe database table index\n',
  });
  ({ engine, actions, dir: docs } = fx);
  dim = (await engine.searcher.model()).dim;
});
afterAll(() => fx.close());

const semtools = (p: Record<string, unknown>) => actions['semtools.search']({}, p);
type Match = { file: string; line: number; score: number; text: string };

describe('semtools.search (python/tests/test_semtools_actions.py)', () => {
  it('test_missing_query_returns_error', async () => {
    const r = await semtools({ query: '', files: '*.md' });
    expect([r.success, r.error_type]).toEqual([false, 'validation_error']);
    expect(r.error).toContain('Query');
    expect([r.matches, r.has_matches]).toEqual([[], false]);
  });

  it('test_missing_files_returns_error', async () => {
    const r = await semtools({ query: 'test', files: '' });
    expect([r.success, r.error_type]).toEqual([false, 'validation_error']);
    expect(r.error).toContain('Files');
    expect([r.matches, r.has_matches]).toEqual([[], false]);
  });

  it('test_invalid_max_distance_returns_error', async () => {
    const r = await semtools({ query: 'test', files: '*.md', max_distance: 1.5 });
    expect(r).toEqual({ success: false, error: 'max_distance must be between 0.0 and 1.0, got 1.5', error_type: 'validation_error', matches: [], has_matches: false });
  });

  it('test_invalid_n_results_returns_error', async () => {
    const r = await semtools({ query: 'test', files: '*.md', n_results: 0 });
    expect(r).toEqual({ success: false, error: 'n_results must be at least 1, got 0', error_type: 'validation_error', matches: [], has_matches: false });
  });

  it('test_successful_search_returns_matches (real search: file, line, score, text)', async () => {
    const r = await semtools({ query: 'QA gate result', files: path.join(docs, 'a.md'), n_results: 1 });
    expect(r.success).toBe(true);
    expect(r.matches as Match[]).toHaveLength(1);
    const m = (r.matches as Match[])[0];
    expect([m.file, m.line, m.text]).toEqual([path.join(docs, 'a.md'), 1, 'QA gate: CONCERNS - several issues found']);
    expect(typeof m.score).toBe('number');
  });

  it('test_best_match_helper: best_match is the highest score', async () => {
    const r = await semtools({ query: 'QA gate result', files: `${docs}/*.md`, max_distance: 1 });
    const scores = (r.matches as Match[]).map((m) => m.score);
    expect((r.best_match as Match).score).toBe(Math.max(...scores));
  });

  it('test_has_matches_helper', async () => {
    expect((await semtools({ query: 'QA gate result', files: `${docs}/*.md` })).has_matches).toBe(true);
  });

  it('test_empty_results_not_error', async () => {
    const r = await semtools({ query: 'nonexistent', files: `${docs}/*.md`, max_distance: 0 });
    expect([r.success, r.matches, r.has_matches, r.best_match]).toEqual([true, [], false, null]);
  });

  it('test_n_results_limits_output', async () => {
    const r = await semtools({ query: 'test', files: `${docs}/*.md`, max_distance: 1, n_results: 3 });
    expect([r.success, (r.matches as Match[]).length, r.total_matches]).toEqual([true, 3, 3]);
  });

  it('test_cli_error_passthrough (a missing file: the run fails, cli_error, the reason in error)', async () => {
    const missing = path.join(docs, 'missing.md');
    const r = await semtools({ query: 'test', files: missing });
    expect([r.success, r.error_type]).toEqual([false, 'cli_error']);
    expect(r.error).toContain(`${missing}: no such file or directory`);
  });

  it('test_registers_primary_namespace / test_registers_alternative_namespace', () => {
    expect(ACTION_NAMES).toContain('semtools.search');
    expect(ACTION_NAMES).toContain('actions.semtools_search');
  });

  it('test_accepts_list_of_files', async () => {
    const r = await semtools({ query: 'test', files: [path.join(docs, 'a.md'), path.join(docs, 'b.md')], max_distance: 1 });
    expect(r.success).toBe(true);
    expect(new Set((r.matches as Match[]).map((m) => m.file))).toEqual(new Set([path.join(docs, 'a.md'), path.join(docs, 'b.md')]));
  });
});

describe('embedding.create, vector.store, vector.query (python/tests/test_yaml_engine_rag.py)', () => {
  const oneHot = (i: number) => Array.from({ length: dim }, (_, d) => (d === i ? 1 : 0));

  it('test_embedding_create_single', async () => {
    const r = await actions['embedding.create']({}, { text: 'Hello world' });
    expect(r).toEqual({ embedding: expect.any(Array), model: expect.any(String), dimensions: dim });
    expect((r.embedding as number[]).length).toBe(dim);
  });

  it('test_embedding_create_batch', async () => {
    const r = await actions['embedding.create']({}, { text: ['Text 1', 'Text 2', 'Text 3'] });
    expect((r.embeddings as number[][]).length).toBe(3);
    expect(r.count).toBe(3);
    expect(r.dimensions).toBe(dim);
  });

  it('test_embedding_create_handles_api_error (a text that cannot be embedded)', async () => {
    const r = await actions['embedding.create']({}, { text: 42 });
    expect(r.success).toBe(false);
    expect(r).toHaveProperty('error');
  });

  it('test_vector_store_single / test_vector_store_batch', async () => {
    const one = await actions['vector.store']({}, { texts: ['Hello world'] });
    expect([one.stored, one.collection, (one.ids as string[]).length]).toEqual([1, 'default', 1]);
    const three = await actions['vector.store']({}, { texts: ['Doc 1', 'Doc 2', 'Doc 3'], collection: 'batch' });
    expect([three.stored, (three.ids as string[]).length]).toEqual([3, 3]);
  });

  it('test_vector_query_basic: doc1 (stored with the query\'s own embedding) ranks first', async () => {
    const q = (await actions['embedding.create']({}, { text: 'query text' })).embedding as number[];
    await actions['vector.store']({}, { texts: ['Document 1', 'Document 2', 'Document 3'], ids: ['doc1', 'doc2', 'doc3'], embeddings: [q, oneHot(1), oneHot(2)], collection: 'basic' });
    const r = await actions['vector.query']({}, { query: 'query text', k: 2, collection: 'basic' });
    expect((r.results as unknown[]).length).toBeLessThanOrEqual(2);
    expect((r.results as { id: string }[])[0].id).toBe('doc1');
  });

  it('test_vector_query_with_filter', async () => {
    await actions['vector.store']({}, { texts: ['Article 1', 'Blog 2', 'Article 3'], ids: ['doc1', 'doc2', 'doc3'], metadata: [{ type: 'article' }, { type: 'blog' }, { type: 'article' }], collection: 'filtered' });
    const r = await actions['vector.query']({}, { query: 'query', filter: { type: 'article' }, collection: 'filtered' });
    for (const x of r.results as { metadata: { type: string } }[]) expect(x.metadata.type).toBe('article');
  });

  it('test_vector_query_top_k', async () => {
    await actions['vector.store']({}, { texts: ['Doc 1', 'Doc 2', 'Doc 3', 'Doc 4'], ids: ['doc1', 'doc2', 'doc3', 'doc4'], embeddings: [0, 1, 2, 3].map(oneHot), collection: 'topk' });
    expect(((await actions['vector.query']({}, { query: 'query', k: 2, collection: 'topk' })).results as unknown[]).length).toBe(2);
  });

  it('test_collection_isolation', async () => {
    await actions['vector.store']({}, { texts: ['Doc in A'], ids: ['doc1'], embeddings: [oneHot(0)], collection: 'collection_a' });
    await actions['vector.store']({}, { texts: ['Doc in B'], ids: ['doc2'], embeddings: [oneHot(1)], collection: 'collection_b' });
    const a = (await actions['vector.query']({}, { query: 'query', collection: 'collection_a' })).results as { id: string }[];
    const b = (await actions['vector.query']({}, { query: 'query', collection: 'collection_b' })).results as { id: string }[];
    expect([a.length, a[0].id, b.length, b[0].id]).toEqual([1, 'doc1', 1, 'doc2']);
  });

  it('test_vector_query_handles_empty_store', async () => {
    expect((await actions['vector.query']({}, { query: 'query', collection: 'nonexistent' })).results).toEqual([]);
  });

  it('test_metadata_filter_invalid_syntax', async () => {
    const r = await actions['vector.query']({}, { query: 'query', filter: 'invalid_filter' });
    expect(r.success).toBe(false);
    expect(r).toHaveProperty('error');
  });

  it('test_vector_store_handles_duplicate_ids (overwrites)', async () => {
    await actions['vector.store']({}, { texts: ['Original text'], ids: ['doc1'], embeddings: [oneHot(0)], collection: 'dup' });
    await actions['vector.store']({}, { texts: ['Updated text'], ids: ['doc1'], embeddings: [oneHot(1)], collection: 'dup' });
    expect(((await actions['vector.query']({}, { query: 'anything', k: 1, collection: 'dup' })).results as { text: string }[])[0].text).toBe('Updated text');
  });

  it('test_vector_store_rejects_mismatched_dimensions', async () => {
    const r = await actions['vector.store']({}, { texts: ['Doc 2'], ids: ['doc2'], embeddings: [[0.1, 0.2]], collection: 'dims' });
    expect([r.success, r.error_type]).toEqual([false, 'validation_error']);
  });

  it('include_embeddings (python/tests/test_lancedb_store.py): "embedding" in results[0]', async () => {
    const r = await actions['vector.query']({}, { query: 'query', k: 5, collection: 'topk', include_embeddings: true });
    expect((r.results as { embedding: number[] }[])[0].embedding).toHaveLength(dim);
  });

  it('the registry has embedding.create, vector.store, vector.query and their actions.* aliases', () => {
    for (const n of ['embedding.create', 'actions.embedding_create', 'vector.store', 'actions.vector_store', 'vector.query', 'actions.vector_query']) expect(ACTION_NAMES).toContain(n);
  });
});
