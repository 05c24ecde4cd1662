// A resident workspace's walk is one per tree, whatever the name filters (search-run.ts): a search narrowed by
// them (extensions, types, globs) checks only its own files, so what changed under the others must still be
// found by the next search; and two searches at once, one of them walking the tree again, both see a new file.
// (Review of session 41: an unfiltered search after a filtered one, and a search beside another's walk, were
// told nothing changed and answered from the index before the change.)
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createWorkspace } from '../../../src/workspace/workspace.js';
import { writeTinyModel } from '../../helpers/tiny-model.js';

let tmp = '';
let modelDir = '';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-filtered-hold-'));
  modelDir = await writeTinyModel(path.join(tmp, 'model'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function tree(name: string, n: number): string {
  const dir = path.join(tmp, name);
  mkdirSync(path.join(dir, 'src'), { recursive: true });
  for (let i = 0; i < n; i++) writeFileSync(path.join(dir, 'src', `a${i}.ts`), `export function retryUpload${i}() { return ${i}; } // retry failed uploads\n`);
  writeFileSync(path.join(dir, 'src', 'notes.md'), 'notes about retry uploads\n');
  return dir;
}

it('a search filtered by extension does not settle what changed in the files it left out', async () => {
  const dir = tree('filtered', 5);
  const ws = createWorkspace({ dir: path.join(tmp, 'ws-filtered'), model: modelDir, concurrency: 0, resident: true });
  try {
    await ws.index([dir]);
    await sleep(50);
    for (const q of ['warm one', 'warm two', 'warm three']) await ws.search({ query: q, paths: [dir], topK: 3 }); // watched from here
    appendFileSync(path.join(dir, 'src', 'a3.ts'), '// invoice socket parser\n');
    await sleep(200);
    await ws.search({ query: 'notes', paths: [dir], topK: 3, extensions: ['md'] });
    const r = await ws.search({ query: 'invoice socket parser', paths: [dir], topK: 3 });
    expect(r.results[0]?.lines.join('\n')).toContain('invoice socket parser');
  } finally { await ws.close(); }
}, 60_000);

it('two searches at once after a file is created: the one beside the walk sees it too', async () => {
  const dir = tree('together', 300);
  const ws = createWorkspace({ dir: path.join(tmp, 'ws-together'), model: modelDir, concurrency: 0, resident: true });
  try {
    await ws.index([dir]);
    await sleep(50);
    for (const q of ['warm one', 'warm two', 'warm three']) await ws.search({ query: q, paths: [dir], topK: 3 });
    writeFileSync(path.join(dir, 'src', 'fresh.ts'), '// invoice socket parser\n');
    await sleep(200);
    const q = { query: 'invoice socket parser', paths: [dir], topK: 3 };
    const [, beside] = await Promise.all([ws.search({ ...q, query: 'retry' }), ws.search(q)]);
    const later = await ws.search(q);
    expect(later.results[0]?.lines.join('\n')).toContain('invoice socket parser');
    expect(beside.results).toEqual(later.results);
  } finally { await ws.close(); }
}, 60_000);
