// A --timeout inside files of long lines read whole (8 MiB in one push, the splitter's pieces queued to be packed):
// the deadline's cut packs at most one batch's bytes a file, so the batches scored after the deadline stay within
// what docs/cli.md bounds (the batches packed then, up to nine, and one more a file under way: 17). mend44: the cut
// took up to 2,048 lines a file, and 2,048 lines of ~4,000 bytes were the whole 8 MiB: eight batches a file.
import { expect, it } from 'vitest';
import { runPipeline } from '../../../src/pipeline.js';
import type { Executor } from '../../../src/pool.js';
import type { Source } from '../../../src/sources/source.js';

const FILES = 8;
const LINE = `${'retry the failed upload of part '.repeat(125)}`.slice(0, 3_999) + '\n'; // 4,000 bytes
const bytes = new TextEncoder().encode(LINE.repeat(Math.floor((8 << 20) / LINE.length))); // 2,097 lines, ~8 MiB

it('a deadline inside files of long lines read whole: the cut adds at most one batch a file', async () => {
  // The deadline 300 ms after the last file's read began (a loaded machine's reads do not make it come first).
  const fire = new AbortController();
  const deadline = fire.signal;
  let reads = 0;
  /** FILES files of `bytes`, each read whole (one push). */
  const files: Source = {
    async *list() { for (let k = 0; k < FILES; k++) yield { path: `long${k}.txt`, size: bytes.length }; },
    read: async () => {
      if (++reads === FILES) setTimeout(() => fire.abort(), 300);
      return bytes;
    },
  };
  let scoredLines = 0;
  let afterDeadline = 0;
  // One slot; nothing is scored before the deadline (the first batch ends after it), so what is scored is what
  // was packed by then and what the cut packs.
  const executor: Executor = {
    capacity: 1,
    score: async (req) => {
      if (deadline.aborted) afterDeadline++;
      else await new Promise((r) => deadline.addEventListener('abort', r, { once: true }));
      for (let i = 0; i < req.scoreRanges.length; i += 2) scoredLines += req.scoreRanges[i + 1] - req.scoreRanges[i];
      return new Float32Array(req.offsets.length - 1).fill(0.5);
    },
    embedTexts: async () => new Float32Array(8),
  };
  const r = await runPipeline({
    sources: [files], executor, query: new Float32Array(8), queryKey: 'q', topK: 3, nLines: 0, ignoreCase: false,
    deadline: { signal: deadline, seconds: 0.3 },
  });
  expect(r.warnings.map((w) => w.code)).toEqual(['TIMEOUT']);
  expect(r.stats.files).toBe(0);
  expect(r.stats.lines).toBe(scoredLines);
  // Sent after the deadline: the batches held then (one a file, and one partly filled) and at most one a file from
  // the cut. Before: 56 or so (the files' whole 8 MiB, 2,048 lines each).
  expect(afterDeadline).toBeLessThanOrEqual(2 * FILES + 1);
  // Each file's lines scored: those packed before the deadline (two batches at most: one sent, one waiting for the
  // slot) and the cut's at most 1 MiB. Before: ~8 MiB a file.
  expect(r.stats.bytes).toBeLessThanOrEqual(FILES * (2 * 1.1 + 1) * (1 << 20));
});
