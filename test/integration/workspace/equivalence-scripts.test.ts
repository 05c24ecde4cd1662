// The workspace index answers exactly as a one-shot scan over documents in Arabic, Chinese, Hindi,
// Russian and a code file with non-ASCII names and comments (issue 31: words of every script), in
// every chunk mode, including queries the model cannot embed (searched by their words).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearcher } from '../../../src/searcher.js';
import { type SearchOptions } from '../../../src/searcher/api.js';
import { createWorkspace, type Workspace } from '../../../src/workspace/workspace.js';
import { makeTree } from '../../helpers/tree.js';
import { SCRIPT_FILES, SCRIPT_QUERIES } from '../../helpers/scripts-fixture.js';
import { rounded } from '../../helpers/rounded.js';

let tmp = '';
let tree = '';
let cleanup = async () => {};
let ws: Workspace;
const oneShot = createSearcher({ concurrency: 0 });

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-eq-scripts-'));
  ({ dir: tree, cleanup } = await makeTree(SCRIPT_FILES));
  ws = createWorkspace({ dir: path.join(tmp, 'ws'), concurrency: 0 });
  await ws.index([tree]);
});
afterAll(async () => {
  await ws?.close();
  await oneShot.close();
  await cleanup();
  rmSync(tmp, { recursive: true, force: true });
});

const shape = rounded;

describe('indexed search equals one-shot search on non-Latin text', () => {
  for (const mode of ['hybrid', 'semantic', 'lexical'] as const) {
    it(`${mode}: every question, top 3 and top 10 lines`, async () => {
      for (const { query } of [...SCRIPT_QUERIES, { query: 'размер файла bytes' }, { query: '文件大小' }, { query: 'μέγιστο μέγεθος' }]) {
        for (const o of [{ query, mode }, { query, mode, topK: 10, nLines: 0, merge: false }] as Omit<SearchOptions, 'paths'>[]) {
          const opts = { ...o, paths: [tree] };
          const scan = await oneShot.search(opts);
          const indexed = await ws.search(opts);
          expect(indexed.stats.index?.workspace).toBeDefined();
          expect(shape(indexed)).toEqual(shape(scan));
          expect(scan.results.length).toBeGreaterThan(0);
        }
      }
    });
  }
});
