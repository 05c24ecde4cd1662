// A root directory deleted after it was indexed: `prune` drops its files and the root itself, so the
// next index run of the workspace's roots works. Before (trial33), prune kept the root and every
// `simgrep index -w NAME` failed on it for good: "no such file or directory; nothing was changed".
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createWorkspace } from '../../../src/workspace/workspace.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-prune-root-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

it('prune drops a root that no longer exists, and the roots index again', async () => {
  const [a, b] = [path.join(tmp, 'a'), path.join(tmp, 'b')];
  for (const d of [a, b]) { mkdirSync(d); writeFileSync(path.join(d, 'x.ts'), `export function retryUpload_${path.basename(d)}() {}\n`); }
  const dir = path.join(tmp, 'ws');
  const ws = createWorkspace({ dir, concurrency: 0 });
  try {
    await ws.index([a, b]);
    rmSync(b, { recursive: true });
    expect(await ws.prune()).toEqual({ deleted: 1 });
    expect((await ws.status()).roots).toEqual([a]);
    expect(await ws.prune()).toEqual({ deleted: 0 });
    const again = await ws.index((await ws.status()).roots);
    expect([again.files, again.errors, again.unchanged]).toEqual([1, 0, 1]);
  } finally {
    await ws.close();
  }
  const reopened = createWorkspace({ dir, concurrency: 0 });
  try {
    expect((await reopened.status()).roots).toEqual([a]);
  } finally {
    await reopened.close();
  }
});
