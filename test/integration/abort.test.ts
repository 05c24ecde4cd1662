// AbortSignal stops a running search promptly, with a typed error, and the searcher stays usable.
import { writeFileSync } from 'node:fs';
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

describe('deadline (timeoutMs)', () => {
  it('returns the results read so far and names the source that never finished (a stuck source held every result back)', async () => {
    const searcher = createSearcher({ concurrency: 2 });
    const stuck = {
      async *list() { yield { path: 'stuck://source' }; },
      read: () => new Promise<Uint8Array>(() => {}),
      async *stream() { yield new TextEncoder().encode('first line about nothing\n'); await new Promise(() => {}); },
    };
    try {
      // A small file and the model loaded first: the deadline is for reading, not for a cold start on a
      // loaded machine (two test files at once on two cores).
      const small = `${dir}/small.txt`;
      writeFileSync(small, 'we retry uploads that failed\nnothing else here\n');
      await searcher.search({ query: 'retry uploads', paths: [small], topK: 1 });
      // (A small search reads the table's rows as met: the rest is read here, not inside the deadline.)
      await searcher.model();
      const started = performance.now();
      const r = await searcher.search({ query: 'retry uploads', paths: [small], sources: [stuck], topK: 1, timeoutMs: 1000 });
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(r.results.map((x) => x.filename)).toEqual([small]);
      expect(r.warnings).toEqual([{ path: 'stuck://source', code: 'TIMEOUT', message: 'stopped after the --timeout of 1 s: the results found so far are shown; still reading stuck://source' }]);
      expect(r.stats.errors).toBe(1);
    } finally {
      await searcher.close();
    }
  });
});
