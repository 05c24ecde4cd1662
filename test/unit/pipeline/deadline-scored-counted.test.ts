// A --timeout that fires while files' batches wait for a free slot of the executor (workers busy): the lines
// the stats count are exactly the lines scored (trust43 review: a waiting batch was counted by the deadline's
// cut, then stopped after the deadline's flush had emptied the held list, and never scored: 20,480 counted,
// 18,432 scored with one file; 32,768 and 16,384 with eight).
import { expect, it } from 'vitest';
import { SimgrepError } from '../../../src/errors.js';
import { runPipeline } from '../../../src/pipeline.js';
import type { Executor } from '../../../src/pool.js';
import type { Source } from '../../../src/sources/source.js';

const LINES = 200_000;
const bytes = new TextEncoder().encode(Array.from({ length: LINES }, (_, i) => `line ${i} retry the failed upload of part ${i % 97}`).join('\n') + '\n');

/** An executor of `capacity` slots that takes `ms` a batch and counts the lines it scored. */
function slowExecutor(capacity: number, ms: number): { executor: Executor; scored: () => number } {
  let scored = 0;
  const executor: Executor = {
    capacity,
    score: async (req) => {
      await new Promise((r) => setTimeout(r, ms));
      for (let i = 0; i < req.scoreRanges.length; i += 2) scored += req.scoreRanges[i + 1] - req.scoreRanges[i];
      return new Float32Array(req.offsets.length - 1).fill(0.5);
    },
    embedTexts: async () => new Float32Array(8),
  };
  return { executor, scored: () => scored };
}

/** `files` streamed files of LINES lines each, read 64 KiB at a time (a big file's read). */
function bigFiles(files: number): Source {
  return {
    async *list() { for (let k = 0; k < files; k++) yield { path: `big${k}.txt`, size: bytes.length }; },
    read: async () => bytes,
    async *stream() {
      for (let i = 0; i < bytes.length; i += 1 << 16) { await new Promise((r) => setImmediate(r)); yield bytes.slice(i, i + (1 << 16)); }
    },
  };
}

for (const files of [1, 8]) {
  it(`${files} big file(s), a deadline while batches wait for a slot: the lines counted are the lines scored`, async () => {
    const { executor, scored } = slowExecutor(2, 40);
    const r = await runPipeline({
      sources: [bigFiles(files)], executor, query: new Float32Array(8), queryKey: 'q', topK: 3, nLines: 0, ignoreCase: false,
      deadline: { signal: AbortSignal.timeout(200), seconds: 0.2 },
    });
    expect(r.warnings.map((w) => w.code)).toEqual(['TIMEOUT']);
    // Cut inside the files, after some of them was scored.
    expect(r.stats.files).toBe(0);
    expect(r.stats.lines).toBeGreaterThan(0);
    expect(r.stats.lines).toBeLessThan(files * LINES);
    expect(r.stats.lines).toBe(scored());
  });
}

// A setup error (a model that fails) met around the deadline is the answer, not a timeout with nothing scored
// (session 43's review: it was swallowed: a TIMEOUT warning, 0 hits, lines counted and none scored, and the
// deadline's flush sent one more batch to the failed executor).
it('a setup error the executor meets after the deadline is thrown, not a timeout', async () => {
  let sent = 0;
  const executor: Executor = {
    capacity: 2,
    score: async () => {
      sent++;
      await new Promise((r) => setTimeout(r, 250));
      throw new SimgrepError('MODEL_CORRUPT', 'the model table is damaged');
    },
    embedTexts: async () => new Float32Array(8),
  };
  await expect(runPipeline({
    sources: [bigFiles(1)], executor, query: new Float32Array(8), queryKey: 'q', topK: 3, nLines: 0, ignoreCase: false,
    deadline: { signal: AbortSignal.timeout(200), seconds: 0.2 },
  })).rejects.toMatchObject({ code: 'MODEL_CORRUPT' });
  expect(sent).toBe(2);
});
