// A `simgrep index` killed (-9) after some of its commits landed, whose new files are deleted before the
// next run (found by the trial of session 33): the next run, given only the changes since the snapshot,
// published the killed run's rows of the deleted files with its own: it said "0 removed", status counted
// them, and only a third run removed them. It now drops the store's files that are gone after such a kill.
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { cliPath, runCli } from '../helpers/cli.js';

const WORDS = ['upload', 'retry', 'invoice', 'socket', 'parser', 'render', 'cache', 'token', 'backoff', 'queue', 'payment', 'login'];
const file = (seed: number, lines: number) => Array.from({ length: lines }, (_, i) => `const ${WORDS[(seed + i) % 12]}${i} = ${WORDS[(seed * 7 + i) % 12]}(${i}); // ${WORDS[(i * 5 + seed) % 12]} handling`).join('\n');
const tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-killed-run-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const env = { SIMGREP_HOME: path.join(tmp, 'home'), SIMGREP_CACHE_DIR: path.join(tmp, 'cache') };
const versions = (dir: string) => { try { return readdirSync(path.join(dir, 'files.lance', '_versions')).length; } catch { return 0; } };
const filesOf = async (dir: string) => JSON.parse((await runCli(['workspace', 'status', '--index-dir', dir, '--json'], { env })).stdout).files as number;

it.runIf(process.platform === 'linux')('files a killed run indexed and that are deleted before the next run are not published by it', async () => {
  const tree = path.join(tmp, 'tree');
  const dir = path.join(tmp, 'ws');
  mkdirSync(path.join(tree, 'keep'), { recursive: true });
  for (let f = 0; f < 10; f++) writeFileSync(path.join(tree, 'keep', `k${f}.ts`), file(f, 60));
  expect((await runCli(['index', tree, '--index-dir', dir], { env })).code).toBe(0);
  // Many new files, then a kill once the run has committed some of them (before it publishes).
  let killedMidway = false;
  for (let attempt = 0; attempt < 4 && !killedMidway; attempt++) {
    mkdirSync(path.join(tree, 'new'), { recursive: true });
    for (let f = 0; f < 400; f++) writeFileSync(path.join(tree, 'new', `n${attempt}-${f}.ts`), file(f + 100 * attempt, 400));
    const v0 = versions(dir);
    const child = spawn(process.execPath, [cliPath, 'index', tree, '--index-dir', dir], { env: { ...process.env, HF_HUB_OFFLINE: '1', ...env }, stdio: 'ignore' });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    while (versions(dir) <= v0 && child.exitCode === null) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGKILL');
    await exited;
    killedMidway = (await filesOf(dir)) === 10;
    rmSync(path.join(tree, 'new'), { recursive: true, force: true });
    if (!killedMidway) await runCli(['index', tree, '--index-dir', dir], { env });
  }
  expect(killedMidway).toBe(true);
  appendFileSync(path.join(tree, 'keep', 'k0.ts'), '\n// edited\n');
  const next = await runCli(['index', tree, '--index-dir', dir], { env });
  expect([next.code, next.stderr]).toEqual([0, expect.stringContaining('10 files checked, 1 indexed')]);
  expect(await filesOf(dir)).toBe(10);
  const third = await runCli(['index', tree, '--index-dir', dir], { env });
  expect(third.stderr).toContain('10 unchanged, 0 removed');
});
