// A first `simgrep index` killed (-9) after some of its commits landed (trial37): `workspace status`
// printed the partial tables' counts with `updated: unknown` and exited 0, as if the index were whole.
// It now says the index is incomplete (no run has finished) and what finishes it, in the text and the
// --json forms, and exits 2 (docs/cli.md: `simgrep workspace` exits 0, or 2 with a message); once a
// run finishes, the same command says nothing of it and exits 0.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { cliPath, runCli } from '../helpers/cli.js';

const WORDS = ['upload', 'retry', 'invoice', 'socket', 'parser', 'render', 'cache', 'token', 'backoff', 'queue', 'payment', 'login'];
const file = (seed: number, lines: number) => Array.from({ length: lines }, (_, i) => `const ${WORDS[(seed + i) % 12]}${i} = ${WORDS[(seed * 7 + i) % 12]}(${i}); // ${WORDS[(i * 5 + seed) % 12]} handling`).join('\n');
const tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-status-incomplete-'));
const children = new Set<number>();
const alive = (pid: number) => { try { process.kill(pid, 0); return true; } catch { return false; } };
afterAll(() => {
  for (const pid of children) if (pid > 0 && alive(pid)) process.kill(pid, 'SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
});
const env = { SIMGREP_HOME: path.join(tmp, 'home'), SIMGREP_CACHE_DIR: path.join(tmp, 'cache') };

it.runIf(process.platform === 'linux')('status of a first build killed midway says the index is incomplete and how to finish it, and exits 2', async () => {
  const tree = path.join(tmp, 'tree');
  // 120,000 lines: the build commits every 65,536 lines (chunk-batch.ts), so it is killed after its first commit.
  for (let d = 0; d < 4; d++) {
    mkdirSync(path.join(tree, `m${d}`), { recursive: true });
    for (let f = 0; f < 100; f++) writeFileSync(path.join(tree, `m${d}`, `f${f}.ts`), file(d * 100 + f, 300));
  }
  const child = spawn(process.execPath, [cliPath, 'index', tree, '-w', 'cut'], {
    env: { ...process.env, HF_HUB_OFFLINE: '1', ...env, SIMGREP_FAILPOINT: 'pause-after-commit:1' }, stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.add(child.pid ?? 0);
  const exited = new Promise((resolve) => child.on('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => { err += d; if (err.includes('failpoint: paused after commit 1')) resolve(); });
    child.on('exit', () => reject(new Error(`the index run ended before its first commit: ${err}`)));
  });
  child.kill('SIGKILL');
  await exited;

  const text = await runCli(['workspace', 'status', 'cut'], { env });
  const json = await runCli(['workspace', 'status', 'cut', '--json'], { env });
  const s = JSON.parse(json.stdout) as Record<string, unknown>;
  // The partial tables' counts, as they stand: a part of the tree.
  expect(s.files as number).toBeGreaterThan(0);
  expect(s.files as number).toBeLessThan(400);
  const finish = `simgrep index ${tree} -w cut finishes it`;
  expect(s).toMatchObject({ complete: false, updated: null, note: expect.stringContaining('the index is incomplete: no index run of it has finished') });
  expect(s.note).toContain(finish);
  expect(text.stdout).toContain('updated:   never (no index run has finished)');
  expect(text.stdout).toMatch(/^state: +the index is incomplete: no index run of it has finished/m);
  expect(text.stdout).toContain(finish);
  for (const r of [text, json]) {
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('simgrep: workspace cut: the index is incomplete');
  }

  // What it says to do finishes it: then a whole index, exit 0, no note.
  expect((await runCli(['index', tree, '-w', 'cut'], { env })).code).toBe(0);
  const done = await runCli(['workspace', 'status', 'cut', '--json'], { env });
  expect(done.code).toBe(0);
  expect(done.stderr).toBe('');
  const after = JSON.parse(done.stdout) as Record<string, unknown>;
  expect(after).toMatchObject({ complete: true, files: 400 });
  expect(after.note).toBeUndefined();
  expect(after.updated).toEqual(expect.any(String));
  const doneText = await runCli(['workspace', 'status', 'cut'], { env });
  expect(doneText.code).toBe(0);
  expect(doneText.stdout).not.toContain('state:');
  expect(doneText.stdout).not.toContain('index is incomplete');
}, 180_000);
