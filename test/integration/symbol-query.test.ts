// A query with no letter or number (`...`, `=>`, `?.`) has no term to look for, and its embedding is near
// lines that do not hold it: refused (BAD_QUERY) in the ranked modes with words (hybrid, lexical) from a
// scan, a string and an index alike, and by the actions in those modes; --mode semantic and line still give the nearest
// lines. Before (trial33): hybrid printed chance hunks at distance ~0.99 and exited 0.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearcher } from '../../src/searcher.js';
import { type Searcher } from '../../src/searcher/api.js';
import { createWorkspace, type Workspace } from '../../src/workspace/workspace.js';
import { createActionFixture, type ActionFixture } from '../helpers/action-fixture.js';
import { makeTree } from '../helpers/tree.js';

const files = {
  'app.ts': 'const retry = (n: number) => n + 1;\nexport const user = config?.user ?? "none";\nconsole.log("...");\n',
  'guide.md': '# Guide\n\nThe upload is retried... with backoff.\n',
};
const symbolQueries = ['...', '=>', '?.', '});'];
let dir = '';
let cleanup = async () => {};
let searcher: Searcher;
let ws: Workspace;
let fx: ActionFixture;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTree(files));
  searcher = createSearcher({ concurrency: 0 });
  ws = createWorkspace({ dir: path.join(dir, '.ws'), searcher });
  await ws.index([dir]);
  fx = createActionFixture('docs', files);
});
afterAll(async () => {
  await ws?.close();
  await searcher?.close();
  await fx?.close();
  await cleanup();
});

describe('a query with no letter or number', () => {
  for (const mode of [undefined, 'hybrid', 'lexical'] as const) {
    it(`is refused with BAD_QUERY in ${mode ?? 'the default'} mode: scan, string, index`, async () => {
      for (const query of symbolQueries) {
        const refused = { code: 'BAD_QUERY', message: expect.stringContaining('to look for') };
        await expect(searcher.search({ query, paths: [dir], mode }), query).rejects.toMatchObject(refused);
        await expect(searcher.searchContent({ query, content: files['app.ts'], mode }), query).rejects.toMatchObject(refused);
        await expect(ws.search({ query, paths: [dir], mode }), query).rejects.toMatchObject(refused);
      }
    });
  }

  for (const mode of ['semantic', 'line'] as const) {
    it(`still gives the nearest lines in ${mode} mode`, async () => {
      for (const query of symbolQueries) {
        expect((await searcher.search({ query, paths: [dir], mode, topK: 1 })).results, query).toHaveLength(1);
      }
    });
  }

  it('actions: a validation_error in hybrid mode; answered in their default line mode (semtools.search too)', async () => {
    const file = path.join(fx.dir, 'app.ts');
    const hybrid = await fx.actions['search.semantic']({}, { query: '=>', paths: [file], mode: 'hybrid' });
    expect(hybrid).toMatchObject({ success: false, error_type: 'validation_error', error: expect.stringContaining('no letter or number') });
    expect(await fx.actions['search.semantic']({}, { query: '=>', paths: [file] })).toMatchObject({ success: true });
    expect(await fx.actions['semtools.search']({}, { query: '=>', files: file })).toMatchObject({ success: true });
  });
});
