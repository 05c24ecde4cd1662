// A searcher lets its worker threads go (a big index build does before building its snapshot) and
// starts new ones for the next work that needs them.
import { describe, expect, it } from 'vitest';
import { createSearcher, executorOf, releaseWorkersOf } from '../../src/searcher.js';

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

  it('starts the worker threads before any search (the MCP engine warms while its agent thinks)', async () => {
    const before = workerPorts();
    const s = createSearcher({ concurrency: 2 });
    try {
      await s.warm();
      expect(workerPorts() - before).toBe(2);
      const r = await s.searchContent({ query: 'retry the failed upload', content: 'parse the config\nretry the failed upload\n', topK: 1 });
      expect(r.results[0].match_line).toBe(1);
    } finally {
      await s.close();
    }
    expect(workerPorts()).toBe(before);
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
