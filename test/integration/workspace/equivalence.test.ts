// The workspace index must answer exactly as a one-shot scan: the same files, lines, windows and
// distances (to 1e-6) for every chunk mode, result count, context size and merge setting.
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearcher } from '../../../src/searcher.js';
import { type SearchOptions, type SearchResponse } from '../../../src/searcher/api.js';
import { keptLinesCounted } from '../../../src/workspace/search/kept-documents.js';
import { chunksWarmed } from '../../../src/workspace/search/warm-chunks.js';
import { createWorkspace, type Workspace } from '../../../src/workspace/workspace.js';
import { rounded } from '../../helpers/rounded.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const QUERIES = [
  'where do we retry failed uploads', 'parse the tokenizer configuration', 'SimgrepError', 'createFsSource',
  'how are chunks scored against the query', 'bounded top-k heap', 'credentials from the environment',
  'ignore rules for gitignore files', 'the the of and', 'chunkStats', 'download the model from the hub',
  'how scoreChunks picks a chunk_line to show', 'which mode should I use to search a document',
  // A pasted file (issue 30): its 24 most distinctive terms (query-terms.ts), the same in the scan and the index.
  readFileSync(path.join(repo, 'src', 'rank', 'topk.ts'), 'utf8'),
];

let tmp = '';
let tree = '';
let ws: Workspace;
/** A second handle on the same index: it reads the snapshot file (float16 vectors) instead of memory. */
let fromFile: Workspace;
/** A third: it stats the files on two threads (however small the tree). */
let threaded: Workspace;
/** A fourth, resident, whose scorer warmed every code chunk's sum before these searches (search/warm-chunks.ts). */
let warmed: Workspace;
const warmedSearcher = createSearcher({ concurrency: 0 });
const oneShot = createSearcher({ concurrency: 0 });

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-eq-'));
  tree = path.join(tmp, 'tree');
  // A real code base: simgrep's own sources and tests.
  cpSync(path.join(repo, 'src'), path.join(tree, 'src'), { recursive: true, filter: (p) => !p.includes('bundled') });
  cpSync(path.join(repo, 'test'), path.join(tree, 'test'), { recursive: true });
  // Data files (tables, a lockfile), which the hybrid and lexical modes give a prior.
  for (const table of ['github-repos.tsv', 'corpus-sources.tsv']) cpSync(path.join(repo, 'fixtures', 'train-model', table), path.join(tree, 'data', table));
  cpSync(path.join(repo, 'package-lock.json'), path.join(tree, 'package-lock.json'));
  // Prose (rank/prose.ts): ranked line by line with the file's own document frequencies, which the
  // index serves by scanning the prose files.
  for (const doc of ['models.md', 'cli.md']) cpSync(path.join(repo, 'docs', doc), path.join(tree, 'docs', doc));
  // Resident, as the MCP engine's: its build keeps the prose files and counts their line terms
  // (search/kept-documents.ts), so every search here bounds and ranks them from those, unread.
  ws = createWorkspace({ dir: path.join(tmp, 'ws'), concurrency: 1, resident: true });
  await ws.index([tree]);
  await keptLinesCounted();
  fromFile = createWorkspace({ dir: path.join(tmp, 'ws'), concurrency: 0 });
  threaded = createWorkspace({ dir: path.join(tmp, 'ws'), concurrency: 1, statThreadFromFiles: 0 });
  warmed = createWorkspace({ dir: path.join(tmp, 'ws'), resident: true, searcher: warmedSearcher });
  await warmed.search({ query: 'warm up', paths: [tree], mode: 'lexical' }); // keeps no chunk: they come from the warm-up
  await chunksWarmed(warmedSearcher);
});
afterAll(async () => {
  await ws?.close();
  await fromFile?.close();
  await threaded?.close();
  await warmed?.close();
  await warmedSearcher.close();
  await oneShot.close();
  rmSync(tmp, { recursive: true, force: true });
});

const shape = rounded;

async function same(o: Omit<SearchOptions, 'paths'>): Promise<SearchResponse> {
  const opts = { ...o, paths: [tree] };
  const [a, b, c, d, e] = [await oneShot.search(opts), await ws.search(opts), await fromFile.search(opts), await threaded.search(opts), await warmed.search(opts)];
  for (const indexed of [b, c, d, e]) {
    expect(indexed.stats.index?.workspace).toBeDefined();
    expect(shape(indexed)).toEqual(shape(a));
  }
  expect(b.stats.files).toBe(a.stats.files);
  expect(b.stats.lines).toBe(a.stats.lines);
  return b;
}

// Each case scans this repository beside the indexed answer (15-20 s alone): two test files at once
// on two cores, or a loaded machine, can double that.
describe('indexed search equals one-shot search', { timeout: 180_000 }, () => {
  for (const mode of ['hybrid', 'semantic', 'lexical'] as const) {
    it(`${mode}: top 3 and top 10, every query`, async () => {
      for (const query of QUERIES) {
        if (mode === 'lexical' && query === 'the the of and') continue;
        await same({ query, mode });
        await same({ query, mode, topK: 10, nLines: 0 });
      }
    });
  }
  it('data files and tests: each combination of the priors a query turns on', async () => {
    // Both priors (the first two), the data prior alone ("tests"), the test priors alone ("tsv"); semantic mode: neither.
    for (const query of ['which github repos were used for training', 'how are dependencies pinned', 'tests for retrying failed uploads', 'which tsv lists the github repos']) {
      for (const mode of ['hybrid', 'semantic', 'lexical'] as const) {
        await same({ query, mode });
        await same({ query, mode, topK: 10, nLines: 0 });
      }
    }
  });
  it('prose questions (issue 30): documents skipped on their kept line terms, and the ones read scored with them', async () => {
    // The workspaces keep each document's line terms from their first search: these answer from them.
    for (const query of ['which mode should I use to search a document', 'prose lines ranked with the file document frequencies']) {
      await same({ query, topK: 10 });
      await same({ query, mode: 'lexical', topK: 5 });
    }
  });
  it('max distance, wide context, no merge, extension filter', async () => {
    await same({ query: 'retry with exponential backoff', maxDistance: 0.6 });
    await same({ query: 'retry with exponential backoff', maxDistance: 0.05 });
    await same({ query: 'split lines into pieces', nLines: 60, topK: 5 });
    await same({ query: 'split lines into pieces', merge: false, topK: 8 });
    const r = await same({ query: 'hash of the file contents', extensions: ['.ts'], topK: 5 });
    expect(r.results.length).toBe(5);
  });
  it('find_related (issue 30): code like a chunk, its 24 most distinctive terms, that chunk left out', async () => {
    const like = { path: path.join(tree, 'src', 'rank', 'topk.ts'), line: 20 };
    const r = await same({ query: '', like, topK: 5 });
    expect(r.results.length).toBe(5);
    expect(r.results.some((x) => x.filename.endsWith('topk.ts') && x.match_line < 48)).toBe(false);
  });
  it('file filters (issue 30): globs with ! and later wins, types left out, one result per file', async () => {
    const r = await same({ query: 'hash of the file contents', globs: ['src/**', 'test/**', '!test/unit/', 'test/unit/docs.test.ts', '!**/*.json'], typesNot: ['md'], perFile: 1, topK: 8 });
    expect(r.results.length).toBe(8);
    expect(r.results.every((x) => /\/(src|test)\//.test(x.filename) && !x.filename.includes('/test/unit/'))).toBe(true);
  });
});
