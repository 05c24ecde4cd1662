// Workspace.besideIndexRun, which the resident server asks for every search during an index run (mend41,
// review of integ41): an object store's index never answers beside a run, so its meta is not read for it (a
// request to the store each search); a meta that cannot be read makes the files read, as before integ41 (it
// rejected, and the server sent the error where it had scanned); the model's error still rejects.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SimgrepError } from '../../../src/errors.js';
import { createSearcher } from '../../../src/searcher.js';
import { type Searcher } from '../../../src/searcher/api.js';
import { createWorkspace } from '../../../src/workspace/workspace.js';
import { writeTinyModel } from '../../helpers/tiny-model.js';

let tmp = '';
let tree = '';
let modelDir = '';

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-beside-run-'));
  tree = path.join(tmp, 'tree');
  mkdirSync(tree, { recursive: true });
  for (let f = 0; f < 6; f++) writeFileSync(path.join(tree, `f${f}.ts`), `function upload${f}() { return retryUpload(${f}); }\n`);
  modelDir = await writeTinyModel(path.join(tmp, 'model'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

it('an object store\'s workspace reads the files beside an index run without asking its store or its model', async () => {
  let asked = 0;
  // Every call of this searcher fails: the answer must come before any.
  const searcher = new Proxy({}, { get: () => () => { asked++; return Promise.reject(new Error('asked')); } }) as Searcher;
  const ws = createWorkspace({ dir: 's3://no-such-bucket/ws', searcher, remote: { s3Endpoint: 'http://127.0.0.1:9' } });
  expect(await ws.besideIndexRun([tree])).toEqual({ fromIndex: false, why: null });
  expect(asked).toBe(0);
});

it('a workspace whose meta cannot be read (a first build\'s tables damaged) reads the files beside an index run', async () => {
  const dir = path.join(tmp, 'damaged');
  const searcher = createSearcher({ model: modelDir, concurrency: 0 });
  const ws = createWorkspace({ dir, model: modelDir, searcher, concurrency: 0 });
  try {
    expect((await ws.index([tree])).indexed).toBe(6);
    // workspace.json without `complete` (as during a first build): the meta is read from the tables, whose files are gone.
    const info = JSON.parse(readFileSync(path.join(dir, 'workspace.json'), 'utf8')) as { meta: Record<string, string> };
    delete info.meta.complete;
    writeFileSync(path.join(dir, 'workspace.json'), JSON.stringify(info));
    for (const f of readdirSync(path.join(dir, 'meta.lance', 'data'))) rmSync(path.join(dir, 'meta.lance', 'data', f));
    const other = createWorkspace({ dir, model: modelDir, searcher, concurrency: 0 });
    expect(await other.besideIndexRun([tree])).toEqual({ fromIndex: false, why: null });
    await other.close();
  } finally {
    await ws.close();
    await searcher.close();
  }
});

it('a model that cannot be loaded rejects (the run fails on it and says so)', async () => {
  const missing = path.join(tmp, 'no-model');
  const searcher = createSearcher({ model: missing, concurrency: 0 });
  const ws = createWorkspace({ dir: path.join(tmp, 'nomodel'), model: missing, searcher, concurrency: 0 });
  try {
    await expect(ws.besideIndexRun([tree])).rejects.toThrow(SimgrepError);
    await expect(ws.besideIndexRun([tree])).rejects.toThrow(`Model directory ${missing} does not exist`);
  } finally {
    await ws.close();
    await searcher.close();
  }
});
