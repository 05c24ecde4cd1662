// A per-file answer (--per-file, -l: searcher/per-file.ts) is one search run again with a wider pool while
// too few files come back. Each round took the whole --timeout afresh: a search the deadline cut ran round
// after round, each cut at its own deadline (2-4 times the time asked for), where the rounds share the one
// clock the search started (the stats' time too). A source whose one entry gives its lines and then holds
// its read open (a pipe's writer that does not close it; more than the 8 KiB the binary sniff waits for) makes every
// round end at the deadline.
import { expect, it } from 'vitest';
import { createSearcher } from '../../src/searcher.js';
import type { Source } from '../../src/sources/source.js';

it('per-file rounds share one --timeout: the round the deadline cut is the last, and its warning names the timeout given', async () => {
  const searcher = createSearcher({ concurrency: 0 });
  let listed = 0;
  const lines = Array.from({ length: 400 }, (_, i) => `retry the failed upload, attempt ${i}\n`).join('');
  const held: Source = {
    async *list() { listed++; yield { path: 'held.txt' }; },
    read: async () => { throw new Error('read through stream()'); },
    async *stream(_entry, signal) {
      yield Buffer.from(lines);
      // Held open until the read is given up (the deadline's read signal).
      await new Promise<void>((resolve) => { if (signal?.aborted) resolve(); else signal?.addEventListener('abort', () => resolve(), { once: true }); });
    },
  };
  try {
    // The model loaded first: the deadline is to come while the entry is held, not while the model loads.
    await searcher.searchContent({ query: 'retry the failed upload', content: 'retry the failed upload\n' });
    const started = performance.now();
    const r = await searcher.search({ query: 'retry the failed upload', sources: [held], perFile: 1, topK: 3, timeoutMs: 400 });
    const ms = performance.now() - started;
    // Before: 4 rounds (pools of 12, 48, 192 and 768 of its 400 hits), each cut at 400 ms.
    expect(listed).toBe(1);
    expect(r.results.map((x) => x.filename)).toEqual(['held.txt']);
    expect(r.warnings.filter((w) => w.code === 'TIMEOUT').map((w) => w.message)).toEqual([expect.stringContaining('--timeout of 0.4 s')]);
    expect(r.stats.ms).toBeGreaterThanOrEqual(400);
    expect(r.stats.ms).toBeLessThanOrEqual(ms);
  } finally {
    await searcher.close();
  }
}, 30_000);

// Regression (review of tidy47): round 1 finished uncut with a file found, round 2 (a wider pool, what was
// left of the --timeout) was cut before it read anything, and its empty answer replaced round 1's. Round 1's
// read of the entry ends; round 2's is held open until the deadline.
it('per-file round cut by the shared --timeout: the uncut round before it answers, with the TIMEOUT and more', async () => {
  const searcher = createSearcher({ concurrency: 0 });
  let listed = 0;
  const lines = Array.from({ length: 400 }, (_, i) => `retry the failed upload, attempt ${i}\n`).join('');
  const second: Source = {
    async *list() { listed++; yield { path: 'second.txt' }; },
    read: async () => { throw new Error('read through stream()'); },
    async *stream(_entry, signal) {
      if (listed === 1) { yield Buffer.from(lines); return; }
      await new Promise<void>((resolve) => { if (signal?.aborted) resolve(); else signal?.addEventListener('abort', () => resolve(), { once: true }); });
    },
  };
  try {
    await searcher.searchContent({ query: 'retry the failed upload', content: 'retry the failed upload\n' });
    const r = await searcher.search({ query: 'retry the failed upload', sources: [second], perFile: 1, topK: 3, timeoutMs: 1000 });
    expect(listed).toBe(2);
    expect({ results: r.results.map((x) => x.filename), more: r.more, errors: r.stats.errors, warnings: r.warnings }).toEqual({
      results: ['second.txt'],
      more: true,
      errors: 1,
      warnings: [{
        path: 'second.txt', code: 'TIMEOUT',
        message: 'stopped after the --timeout of 1 s: the results found so far are shown; still reading second.txt'
          + " (the results shown are the round before's, which read every file: a wider round to find more files was cut)",
      }],
    });
  } finally {
    await searcher.close();
  }
}, 30_000);
