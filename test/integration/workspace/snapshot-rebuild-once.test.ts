// A missing ranking snapshot is rebuilt from the store once, however many searches ask for it at once: an
// engine started over an index whose snapshot file was gone rebuilt it three times side by side (its start's
// keeping, its first made-up search, the agent's first search: review of session 42), each a copy in memory.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createSearcher } from '../../../src/searcher.js';
import { createWorkspace } from '../../../src/workspace/workspace.js';
import { writeTinyModel } from '../../helpers/tiny-model.js';

const counts = { rebuilds: 0 };
vi.mock('../../../src/workspace/build/snapshot-rebuild.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../src/workspace/build/snapshot-rebuild.js')>();
  return {
    ...real,
    // The real rebuild, made slow enough that the searches below all ask while it runs.
    rebuildSnapshot: async (...args: Parameters<typeof real.rebuildSnapshot>) => {
      counts.rebuilds++;
      await new Promise((r) => setTimeout(r, 300));
      return real.rebuildSnapshot(...args);
    },
  };
});

let tmp = '';
let tree = '';
let modelDir = '';

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-rebuild-once-'));
  tree = path.join(tmp, 'tree');
  mkdirSync(tree, { recursive: true });
  for (let f = 0; f < 12; f++) writeFileSync(path.join(tree, `f${f}.ts`), Array.from({ length: 30 }, (_, i) => `function upload${f}_${i}() { return retryUpload(${i}); }`).join('\n'));
  modelDir = await writeTinyModel(path.join(tmp, 'model'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

it('searches that find the snapshot file gone at once share one rebuild, and answer as one search alone', async () => {
  const dir = path.join(tmp, 'ws');
  const searcher = createSearcher({ model: modelDir, concurrency: 0 });
  const first = createWorkspace({ dir, model: modelDir, searcher, concurrency: 0 });
  expect((await first.index([tree])).indexed).toBe(12);
  await first.close();
  for (const name of ['snapshot.bin', 'snapshot.delta.bin']) rmSync(path.join(dir, name), { force: true });
  const ws = createWorkspace({ dir, model: modelDir, searcher, concurrency: 0, resident: true });
  try {
    const ask = (query: string) => ws.search({ query, paths: [tree], topK: 3 });
    const answers = await Promise.all([ask('retry the upload'), ask('upload five'), ask('retry the upload')]);
    expect(counts.rebuilds).toBe(1);
    expect(existsSync(path.join(dir, 'snapshot.bin'))).toBe(true);
    expect(answers[2].results).toEqual(answers[0].results);
    expect(answers.every((a) => a.results.length > 0 && a.stats.index?.workspace === 'ws')).toBe(true);
  } finally {
    await ws.close();
    await searcher.close();
  }
}, 60_000);
