import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

// Unit test files that leave the process changed for the files after them: each runs in a fresh process.
const OWN_PROCESS = [
  'test/unit/sources/remote/settings.test.ts', // sets HOME and the AWS variables, and leaves them set
  'test/unit/model/tokenizer-file.test.ts', // vi.mock('node:fs')
  'test/unit/embed/onnx-unavailable.test.ts', // vi.mock('onnxruntime-node')
  // 1-2 s alone, in a fresh process or after the other sources/ files; it timed out at 60 s in both unit runs
  // sharing processes (threads, and forks), after some file not yet found.
  'test/unit/sources/ignore-rules.property.test.ts',
  // They read the process-wide prose sweep's totals (sweepHeld), which documents another file kept leave changed.
  'test/unit/rank/prose-sweep.test.ts',
  'test/unit/workspace/kept-documents.test.ts',
  'test/unit/workspace/kept-dropped.test.ts',
  'test/unit/workspace/prose-files-with-terms.test.ts',
];

export default defineConfig({
  test: {
    // No test writes into the user's caches: see the file.
    globalSetup: ['test/helpers/global-setup.ts'],
    // Vitest's default is one file at a time on a 2-core machine (cores - 1): most test files wait on
    // spawned processes and servers, so two at once halve CI's wall time there.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default'],
    projects: [
      // The unit tests share their worker processes (isolate: false): a fresh process and its imports per
      // file cost about as much CPU as the tests themselves. Forks, not threads: in threads every file shares
      // one process's libuv pool, and an fs-heavy property test timed out behind the others there.
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], exclude: [...configDefaults.exclude, ...OWN_PROCESS], isolate: false } },
      // Every other file in a process of its own, as before.
      { extends: true, test: { name: 'isolated', include: ['test/{contract,integration,e2e}/**/*.test.ts', ...OWN_PROCESS] } },
    ],
  },
});
