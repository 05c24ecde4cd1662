// Status keeps the file list it read from the snapshot file for the next call of the same version (a
// resident engine asks again). The store's version restarts when the workspace is removed and built
// again (`workspace rm`, a cleared or reset store), so a long-lived process answered the old tree's list:
// the key holds the snapshot file's identity too (review of left35).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createWorkspace } from '../../../src/workspace/workspace.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-status-rebuilt-'));
afterAll(() => { rmSync(tmp, { recursive: true, force: true }); });

function tree(name: string, files: number): string {
  const dir = path.join(tmp, name);
  mkdirSync(dir);
  for (let f = 0; f < files; f++) writeFileSync(path.join(dir, `f${f}.ts`), `export const v${f} = ${f};\n`);
  return dir;
}

it('a status after the workspace was removed and built again counts the new index', async () => {
  const wsDir = path.join(tmp, 'ws');
  const resident = createWorkspace({ dir: wsDir, concurrency: 0 });
  try {
    const first = createWorkspace({ dir: wsDir, concurrency: 0 });
    await first.index([tree('a', 3)]);
    await first.close();
    const before = await resident.status();
    expect(before.files).toBe(3);
    // Removed and built again by another process: the version starts over.
    rmSync(wsDir, { recursive: true, force: true });
    const again = createWorkspace({ dir: wsDir, concurrency: 0 });
    await again.index([tree('b', 5)]);
    await again.close();
    const after = await resident.status();
    expect(after.roots).toEqual([path.join(tmp, 'b')]);
    expect(after.files).toBe(5);
  } finally {
    await resident.close();
  }
});
