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
