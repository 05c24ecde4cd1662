// An abort at any moment of a workspace search rejects with simgrep's ABORTED, never a raw AbortError
// (trial33: a shared, warmed searcher aborted at 5 ms once rejected with a DOMException, code 20).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSearcher } from '../../../src/searcher.js';
import { type Searcher } from '../../../src/searcher/api.js';
import { createWorkspace, type Workspace } from '../../../src/workspace/workspace.js';
import { makeTree } from '../../helpers/tree.js';

let dir = '';
let cleanup = async () => {};
let searcher: Searcher;
let ws: Workspace;

beforeAll(async () => {
  const files: Record<string, string> = {};
  for (let f = 0; f < 30; f++) {
    files[`src/mod${f}.ts`] = Array.from({ length: 200 }, (_, i) => `export function retryUpload${f}_${i}(n: number) { return n + ${i}; } // retry the failed upload`).join('\n');
    files[`docs/guide${f}.md`] = Array.from({ length: 200 }, (_, i) => `A failed upload is retried with backoff, step ${i} of guide ${f}.`).join('\n\n');
  }
  ({ dir, cleanup } = await makeTree(files));
  searcher = createSearcher({ concurrency: 2 });
  ws = createWorkspace({ dir: path.join(dir, '.ws'), searcher });
  await ws.index([dir]);
  await ws.search({ query: 'retry the failed upload', paths: [dir] }); // warmed
}, 120_000);
afterAll(async () => {
  await ws?.close();
  await searcher?.close();
  await cleanup();
});

it('aborted at 0-30 ms in 1 ms steps (124 tries, every mode, walks listed again, some with a changed file): every rejection is ABORTED', async () => {
  const modes = ['hybrid', 'lexical', 'semantic'] as const;
  const raw: string[] = [];
  let rejected = 0;
  for (let i = 0; i < 124; i++) {
    if (i % 10 === 9) writeFileSync(path.join(dir, `src/mod${i % 30}.ts`), `export const changed${i} = 'retry the failed upload ${i}';\n`);
    const controller = new AbortController();
    if (i === 0) controller.abort();
    const timer = setTimeout(() => controller.abort(), i % 31);
    try {
      // Every other try with a size cap of its own: a walk not cached, listed again (where trial33's raw abort came from).
      const walked = i % 2 === 1 ? { maxFileBytes: 1_000_000 + i } : {};
      await ws.search({ query: `retry the failed upload ${i}`, paths: [dir], topK: 5, mode: modes[i % 3], signal: controller.signal, ...walked });
    } catch (e) {
      rejected++;
      const err = e as { code?: unknown; name?: string; message?: string };
      if (err.code !== 'ABORTED') raw.push(`try ${i} (${i % 31} ms, ${modes[i % 3]}): ${err.name} code ${String(err.code)}: ${err.message}`);
    } finally {
      clearTimeout(timer);
    }
  }
  expect(raw).toEqual([]);
  expect(rejected).toBeGreaterThan(0);
  // And the workspace still answers.
  expect((await ws.search({ query: 'retry the failed upload', paths: [dir], topK: 1 })).results).toHaveLength(1);
}, 300_000);

it('an index run aborted at 0-30 ms (a fresh workspace each time): every rejection is ABORTED', async () => {
  const raw: string[] = [];
  for (let ms = 0; ms <= 30; ms += 2) {
    const fresh = createWorkspace({ dir: path.join(dir, `.ws-${ms}`), searcher });
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), ms);
    try {
      await fresh.index([path.join(dir, 'src')], { signal: controller.signal });
    } catch (e) {
      const err = e as { code?: unknown; name?: string; message?: string };
      if (err.code !== 'ABORTED') raw.push(`${ms} ms: ${err.name} code ${String(err.code)}: ${err.message}`);
    } finally {
      clearTimeout(timer);
      await fresh.close();
    }
  }
  expect(raw).toEqual([]);
}, 300_000);

it('no options at all: a rejected BAD_FLAG, not a TypeError thrown at the call (reading the abort signal of nothing)', async () => {
  for (const none of [undefined, null]) {
    let thrown: unknown;
    const p = (() => { try { return ws.search(none as never); } catch (e) { thrown = e; return null; } })();
    expect(thrown).toBeUndefined();
    await expect(p).rejects.toMatchObject({ code: 'BAD_FLAG' });
  }
});
