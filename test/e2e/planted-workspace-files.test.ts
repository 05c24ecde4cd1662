// Files planted in simgrep's own directories (trust46): whoever can write $SIMGREP_HOME can change what
// searches answer (reliability.md), but a FIFO at a workspace's workspace.json hung every command that looked
// at the workspaces, for ever (it was read with readFileSync, which waits for a writer). It is read now only
// as a regular file, without blocking and bounded: the workspace reads as one without its info.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cliPath, timedRun } from '../helpers/cli.js';

let tmp = '';
beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-planted-'));
  mkdirSync(path.join(tmp, 'home', 'workspaces', 'planted'), { recursive: true });
  expect(spawnSync('mkfifo', [path.join(tmp, 'home', 'workspaces', 'planted', 'workspace.json')]).status).toBe(0);
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

it('a FIFO at a workspace\'s workspace.json: simgrep workspace list answers (it hung until killed)', async () => {
  const r = await timedRun(process.execPath, [cliPath, 'workspace', 'list'], {
    cwd: tmp, env: { SIMGREP_HOME: path.join(tmp, 'home'), SIMGREP_CACHE_DIR: path.join(tmp, 'cache') }, killMs: 20_000,
  });
  expect(r.code, r.stderr).not.toBeNull();
  expect(r.ms).toBeLessThan(15_000);
  expect(`${r.stdout}${r.stderr}`).toContain('planted');
}, 60_000);
