// AbortSignal stops a running search promptly, with a typed error, and the searcher stays usable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearcher } from '../../src/searcher.js';
import { makeTree } from '../helpers/tree.js';

let dir = '';
let cleanup = async () => {};
beforeAll(async () => {
  const files: Record<string, string> = {};
  for (let f = 0; f < 40; f++) files[`f${f}.txt`] = Array.from({ length: 5000 }, (_, i) => `line ${i} of file ${f} about uploads and retries`).join('\n');
  ({ dir, cleanup } = await makeTree(files));
});
afterAll(() => cleanup());

describe('abort', () => {
  it('rejects with ABORTED soon after the signal fires, then searches again', async () => {
    const searcher = createSearcher({ concurrency: 2 });
    try {
      const controller = new AbortController();
      const started = performance.now();
      const running = searcher.search({ query: 'retry uploads', paths: [dir], signal: controller.signal });
      setTimeout(() => controller.abort(), 50);
      await expect(running).rejects.toMatchObject({ code: 'ABORTED' });
      expect(performance.now() - started).toBeLessThan(5000);
      const again = await searcher.search({ query: 'retry uploads', paths: [`${dir}/f1.txt`], topK: 1 });
      expect(again.results).toHaveLength(1);
    } finally {
      await searcher.close();
    }
  });
});
