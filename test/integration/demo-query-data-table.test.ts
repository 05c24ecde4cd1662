// Regression: the README's demo query ("where do we retry failed uploads" over ./src) gave
// src/model/bundled/lexicon.tsv, a word-count table, as its second answer, above real retry code.
// Over a tree holding that very table and simgrep's own retry and remote-driver code, the demo's top 3
// must be code, the retry module first, from a scan and from the workspace index alike.
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearcher } from '../../src/searcher.js';
import { type SearchResponse } from '../../src/searcher/api.js';
import { createWorkspace, type Workspace } from '../../src/workspace/workspace.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const QUERY = 'where do we retry failed uploads';
const CODE = ['sources/remote/retry.ts', 'sources/remote/azure-driver.ts', 'sources/remote/s3-driver.ts', 'sources/remote/http-client.ts'];

let tmp = '';
let tree = '';
let ws: Workspace;
const searcher = createSearcher({ concurrency: 0 });

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-demo-'));
  tree = path.join(tmp, 'src');
  for (const rel of [...CODE, 'model/bundled/lexicon.tsv']) {
    mkdirSync(path.dirname(path.join(tree, rel)), { recursive: true });
    cpSync(path.join(repo, 'src', rel), path.join(tree, rel));
  }
  ws = createWorkspace({ dir: path.join(tmp, 'ws'), searcher, concurrency: 0 });
  await ws.index([tree]);
});
afterAll(async () => {
  await ws?.close();
  await searcher.close();
  rmSync(tmp, { recursive: true, force: true });
});

const files = (r: SearchResponse) => r.results.map((x) => path.relative(tree, x.filename).split(path.sep).join('/'));

describe("the README's demo query ranks a word-count table among its answers", () => {
  it('answers with code only, the retry module first (scan)', async () => {
    const r = await searcher.search({ query: QUERY, paths: [tree] });
    expect(files(r)[0]).toBe('sources/remote/retry.ts');
    expect(files(r).filter((f) => f.endsWith('.tsv'))).toEqual([]);
  });

  it('answers the same from the workspace index', async () => {
    const scan = await searcher.search({ query: QUERY, paths: [tree] });
    const indexed = await ws.search({ query: QUERY, paths: [tree] });
    expect(indexed.stats.index?.workspace).toBeDefined();
    expect(files(indexed)).toEqual(files(scan));
  });

  it('still finds the table when the query asks for it', async () => {
    const r = await searcher.search({ query: 'word counts tsv: how often does retry occur', paths: [tree], topK: 10 });
    expect(files(r)).toContain('model/bundled/lexicon.tsv');
  });
});
