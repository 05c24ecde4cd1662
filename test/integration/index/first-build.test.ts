// A big run says when it has embedded everything, before its last commit is written, so the
// workspace can let its threads go.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearcher, executorOf } from '../../../src/searcher.js';
import { updateIndex } from '../../../src/index/indexer.js';
import { openStore } from '../../../src/index/store.js';
import { writeTinyModel } from '../../helpers/tiny-model.js';

let tmp = '';
let tree = '';
let modelDir = '';

const lines = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `function ${prefix}${i}() { return retryUpload(${i}); } // ${prefix} line ${i}`).join('\n');

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-first-'));
  tree = path.join(tmp, 'tree');
  mkdirSync(path.join(tree, 'sub'), { recursive: true });
  writeFileSync(path.join(tree, 'a.ts'), lines('alpha', 200));
  writeFileSync(path.join(tree, 'sub', 'b.ts'), lines('beta', 120));
  writeFileSync(path.join(tree, 'sub', 'c.md'), 'how we retry failed uploads\n\nwith backoff and jitter\n');
  modelDir = await writeTinyModel(path.join(tmp, 'model'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('an index run', () => {
  it('says once that it has embedded everything, before its last commit is written', async () => {
    // Two commits' worth of lines (a commit holds 65,536).
    const big = path.join(tmp, 'big');
    mkdirSync(big);
    for (let f = 0; f < 3; f++) writeFileSync(path.join(big, `m${f}.ts`), lines(`m${f}x`, 25_000));
    const dir = path.join(tmp, 'ws-big');
    const searcher = createSearcher({ model: modelDir, concurrency: 0 });
    const store = await openStore(dir, { dim: 4 });
    try {
      const seen: { bytesRead: number; filesStored: number }[] = [];
      const report = await updateIndex({
        store, executor: () => executorOf(searcher, false), chunkLines: 48, roots: [big], deleteMissing: true,
        onEmbedded: async (bytesRead) => { seen.push({ bytesRead, filesStored: (await store.fileStates()).length }); },
      });
      expect(report.indexed).toBe(3);
      expect(seen.length).toBe(1);
      expect(seen[0].bytesRead).toBe(report.bytes);
      // The last commit (the third file's state) is not written yet.
      expect(seen[0].filesStored).toBeLessThan(3);
      expect((await store.fileStates()).length).toBe(3);
    } finally {
      store.close();
      await searcher.close();
    }
  });
});
