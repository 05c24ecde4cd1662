// A searcher lets its worker threads go (a big index build does before building its snapshot) and
// starts new ones for the next work that needs them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSearcher } from '../../src/searcher.js';
import { executorOf, releaseWorkersOf } from '../../src/searcher/seams.js';

describe('releaseWorkersOf', () => {
  it('closes the pool; the next pooled work starts a new one that embeds as the in-process scorer does', async () => {
    const s = createSearcher({ concurrency: 2 });
    try {
      const texts = ['retry the failed upload', 'parse the config file'];
      const first = await executorOf(s, true);
      const before = await first.embedTexts(texts);
      await releaseWorkersOf(s);
      const second = await executorOf(s, true);
      expect(second).not.toBe(first);
      expect([...await second.embedTexts(texts)]).toEqual([...before]);
      expect([...await (await executorOf(s, false)).embedTexts(texts)]).toEqual([...before]);
      await releaseWorkersOf(s);
      await releaseWorkersOf(s); // nothing running: nothing to do
    } finally {
      await s.close();
    }
  });
});

describe('warm', () => {
  const workerPorts = () => process.getActiveResourcesInfo().filter((r) => r === 'MessagePort').length;

  it('starts the worker threads and runs a made-up search through them before any search; the first real one answers as a cold searcher does', async () => {
    const before = workerPorts();
    const content = ['## Uploads', '', 'We retry failed uploads after a pause.', '', 'function retryUpload(file) {', '  return send(file);', '}', ''].join('\n');
    const ask = { query: 'retry failed uploads', content, name: 'notes.md', topK: 3 };
    const warmed = createSearcher({ concurrency: 2 });
    const cold = createSearcher({ concurrency: 2 });
    try {
      await warmed.warm();
      // Every thread got some of it (dozens of batches of one hundred lines): each has built its
      // tokenizer and scorer and compiled its loops, which the MCP engine's first search would pay for.
      expect((await executorOf(warmed, true)).completed).toBeGreaterThanOrEqual(4);
      const r = await warmed.searchContent(ask);
      expect(r.results.length).toBeGreaterThan(0);
      expect(r.results).toEqual((await cold.searchContent(ask)).results);
    } finally {
      await Promise.all([warmed.close(), cold.close()]);
    }
    expect(workerPorts()).toBe(before);
  });

  it('a search that comes while warm() loads the model runs alone: the made-up search is not started after it', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'simgrep-warm-'));
    writeFileSync(path.join(dir, 'upload.ts'), 'function retryUpload(file) {\n  return send(file);\n}\n');
    const ask = { query: 'retry failed uploads', paths: [dir], topK: 3 };
    const warmed = createSearcher({ concurrency: 2 });
    const cold = createSearcher({ concurrency: 2 });
    try {
      const warming = warmed.warm();
      const r = await warmed.search(ask);
      await warming;
      // The cold searcher's pool started first, as warm() started the other's: a small directory goes to a
      // running pool (without one it is scored in-process: small work starts no pool).
      await executorOf(cold, true);
      const c = await cold.search(ask);
      expect(r.results).toEqual(c.results);
      // The pool ran the search's batches only, as a searcher never warmed does (with the warm-up, which
      // warm() awaits: dozens more), and the kernel's pruning directions, which warm() asks of a pool it
      // makes as its first task (its answer may still be on its way back; the cold pool's search may have
      // asked them too, or found them on disk: directions-cache.ts), so one task more at most.
      const pool = await executorOf(warmed, true);
      const coldTasks = (await executorOf(cold, true)).completed!;
      for (const until = Date.now() + 10_000; pool.completed! < coldTasks + 1 && Date.now() < until;) await new Promise((r) => setTimeout(r, 20));
      expect(pool.completed).toBeGreaterThanOrEqual(coldTasks);
      expect(pool.completed).toBeLessThanOrEqual(coldTasks + 1);
    } finally {
      await Promise.all([warmed.close(), cold.close()]);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('never throws: a model that cannot load fails the search that needs it, with its own error', async () => {
    const s = createSearcher({ model: '/nonexistent/simgrep-model', concurrency: 2, offline: true });
    try {
      await expect(s.warm()).resolves.toBeUndefined();
      await expect(s.searchContent({ query: 'x', content: 'x\n' })).rejects.toMatchObject({ code: expect.stringMatching(/^MODEL_/) });
    } finally {
      await s.close();
    }
  });
});
