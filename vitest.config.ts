import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // No test writes into the user's caches: see the file.
    globalSetup: ['test/helpers/global-setup.ts'],
    // Vitest's default is one file at a time on a 2-core machine (cores - 1): most test files wait on
    // spawned processes and servers, so two at once halve CI's wall time there.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
