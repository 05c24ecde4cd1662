// workspace.json carries a copy of the store's last completed meta (a search that finds nothing stale
// answers from it without opening LanceDB): after every kind of run it is the store's meta exactly.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readInfo } from '../../../src/workspace/registry.js';
import { openStore } from '../../../src/workspace/store/store.js';
import { createWorkspace } from '../../../src/workspace/workspace.js';
import { writeTinyModel } from '../../helpers/tiny-model.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-meta-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function storeMeta(dir: string): Promise<Record<string, string>> {
  const store = await openStore(dir, { dim: 4 });
  try { return await store.readMeta(); } finally { store.close(); }
}

describe('the meta workspace.json publishes', () => {
  it('is the store\'s after a build, an update, a run that changed nothing and a prune', async () => {
    const model = await writeTinyModel(path.join(tmp, 'model'));
    const tree = path.join(tmp, 'tree');
    mkdirSync(tree);
    writeFileSync(path.join(tree, 'a.ts'), 'function send() {\n  // retry failed upload\n}\n');
    writeFileSync(path.join(tree, 'b.ts'), 'function parse() { return json; }\n');
    const dir = path.join(tmp, 'ws');
    const ws = createWorkspace({ dir, model, concurrency: 0 });
    const published = () => readInfo(dir)?.meta;
    try {
      await ws.index([tree]);
      const built = await storeMeta(dir);
      expect(built.complete).toBeTruthy();
      expect(published()).toEqual(built);
      writeFileSync(path.join(tree, 'c.ts'), 'function render() { return page; }\n');
      await ws.index([tree]);
      const updated = await storeMeta(dir);
      expect(updated.complete).not.toBe(built.complete);
      expect(published()).toEqual(updated);
      await ws.index([tree]);
      expect(published()).toEqual(await storeMeta(dir));
      rmSync(path.join(tree, 'b.ts'));
      expect((await ws.prune()).deleted).toBe(1);
      const pruned = await storeMeta(dir);
      expect(pruned.complete).not.toBe(updated.complete);
      expect(published()).toEqual(pruned);
    } finally {
      await ws.close();
    }
  });
});
