// A search of a resident workspace run while another search of the same paths saves the files that changed
// (mend41b, the review of cancel41). The first search took the walk cache's change events; until its save is
// in the index, the cache told the second that nothing changed, and the second answered from the index
// before the save as if fresh. An aborted search's save runs to its end (cancel41), so a caller that gives
// up and searches again at once (a library user, `simgrep serve`) met it. Now what a search took to save is
// checked again by every other search until it is saved (walk-cache.ts `hold`), or handed back.
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { waitsBehind } from '../../../src/workspace/lock.js';
import { createWorkspace } from '../../../src/workspace/workspace.js';
import { writeTinyModel } from '../../helpers/tiny-model.js';

let tmp = '';
let tree = '';
let modelDir = '';
const FILES = 1500;

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-beside-save-'));
  tree = path.join(tmp, 'tree');
  mkdirSync(tree, { recursive: true });
  for (let i = 0; i < FILES; i++) {
    writeFileSync(path.join(tree, `upload${i}.ts`), Array.from({ length: 40 }, (_, j) => `export function retryUpload${i}_${j}(n: number) { return n + ${i * j}; } // retry failed uploads ${j}`).join('\n') + '\n');
  }
  modelDir = await writeTinyModel(path.join(tmp, 'model'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));


it('a search beside an aborted search\'s save answers from the files as they are, as a later search does', async () => {
  const dir = path.join(tmp, 'ws');
  const ws = createWorkspace({ dir, model: modelDir, concurrency: 0, resident: true });
  const lock = path.join(dir, '.simgrep-lock');
  try {
    await ws.index([tree]);
    // Twice: the second search of the same paths watches its directories (walk-cache.ts).
    for (const q of ['warm one', 'warm two']) await ws.search({ query: q, paths: [tree], topK: 3 });
    for (let i = 0; i < FILES; i++) appendFileSync(path.join(tree, `upload${i}.ts`), `// changed ${i}: invoice socket parser\n`);
    await new Promise((r) => setTimeout(r, 200));
    const stop = new AbortController();
    const first = ws.search({ query: 'retry failed uploads', paths: [tree], topK: 3, signal: stop.signal }).catch((e: unknown) => e);
    // Its save of the 1,500 changed files is under way (it holds the workspace's lock), and goes on to its end.
    for (const end = Date.now() + 60_000; waitsBehind(lock, []) === 'nothing' && Date.now() < end;) await new Promise((r) => setImmediate(r));
    expect(waitsBehind(lock, []) !== 'nothing').toBe(true);
    stop.abort();
    const beside = ws.search({ query: 'invoice socket parser', paths: [tree], topK: 3 });
    const [r, aborted] = await Promise.all([beside, first]);
    expect(aborted).toBeInstanceOf(Error);
    const later = await ws.search({ query: 'invoice socket parser', paths: [tree], topK: 3 });
    // Before: the old text (no file held "invoice socket parser" yet), with no word of what changed.
    expect(r.results).toEqual(later.results);
    expect(r.results[0].lines.join('\n')).toContain('invoice socket parser');
  } finally {
    await ws.close();
  }
}, 120_000);
