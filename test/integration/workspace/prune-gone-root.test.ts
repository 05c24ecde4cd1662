// A root directory deleted after it was indexed: `prune` drops its files and the root itself, so the
// next index run of the workspace's roots works. Before (trial33), prune kept the root and every
// `simgrep index -w NAME` failed on it for good: "no such file or directory; nothing was changed".
// A root that merely cannot be reached now (here a symbolic-link loop on its way: ELOOP, as EACCES,
// EIO or an unmounted network mount would be) is kept (mend33), and each dropped root is said.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createWorkspace } from '../../../src/workspace/workspace.js';
import { cliPath, runCli } from '../../helpers/cli.js';

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
    expect(await ws.prune()).toEqual({ deleted: 1, droppedRoots: [b] });
    expect((await ws.status()).roots).toEqual([a]);
    expect(await ws.prune()).toEqual({ deleted: 0, droppedRoots: [] });
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

it('prune keeps a root that cannot be reached now, and says which roots it dropped (simgrep and semtools)', async () => {
  const base = path.join(tmp, 'cli');
  const [a, gone, far, empty] = ['a', 'gone', 'far/r', 'empty'].map((d) => path.join(base, d));
  for (const d of [a, gone, far]) { mkdirSync(d, { recursive: true }); writeFileSync(path.join(d, 'x.ts'), `export function uploadRetry_${path.basename(d)}() {}\n`); }
  mkdirSync(empty);
  const env = { SIMGREP_HOME: path.join(tmp, 'home'), SIMGREP_CACHE_DIR: path.join(tmp, 'cache') };
  expect((await runCli(['index', a, gone, far, empty, '-w', 'pr'], { env })).code).toBe(0);
  rmSync(gone, { recursive: true });
  renameSync(path.join(base, 'far'), path.join(base, 'far.away'));
  symlinkSync('far', path.join(base, 'far')); // far/r: ELOOP, not gone
  const pruned = await runCli(['workspace', 'prune', '-w', 'pr'], { env });
  expect(pruned.code).toBe(0);
  expect(pruned.stderr).toContain('removed 1 file that no longer exists');
  expect(pruned.stderr).toContain(`workspace pr: dropped root ${gone}, which no longer exists (\`simgrep index ${gone} -w pr\` adds it back)`);
  expect(pruned.stderr).not.toContain(far);
  expect(JSON.parse((await runCli(['workspace', 'status', '-w', 'pr', '--json'], { env })).stdout).roots).toEqual([a, empty, far]);
  unlinkSync(path.join(base, 'far'));
  renameSync(path.join(base, 'far.away'), path.join(base, 'far'));
  // semtools' prune: no stale file, but a root dropped: not "Workspace is clean."
  rmdirSync(empty);
  const bin = path.join(tmp, 'bin');
  mkdirSync(bin, { recursive: true });
  symlinkSync(cliPath, path.join(bin, 'semtools'));
  const semtools = spawnSync(path.join(bin, 'semtools'), ['workspace', 'prune'], { encoding: 'utf8', env: { ...process.env, ...env, HF_HUB_OFFLINE: '1', SEMTOOLS_WORKSPACE: 'pr' } });
  expect(semtools.stdout).toBe('No stale documents found.\n');
  expect(semtools.stderr).toContain(`dropped root ${empty}`);
  expect(JSON.parse((await runCli(['workspace', 'status', '-w', 'pr', '--json'], { env })).stdout).roots).toEqual([a, far]);
});
