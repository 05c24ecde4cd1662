// A first `simgrep index` killed (-9) after some of its commits landed (trial37): `workspace status`
// printed the partial tables' counts with `updated: unknown` and exited 0, as if the index were whole.
// It now says the index is incomplete (no run has finished) and what finishes it, in the text and the
// --json forms, and exits 2 (docs/cli.md: `simgrep workspace` exits 0, or 2 with a message); once a
// run finishes, the same command says nothing of it and exits 0. semtools' `workspace status` (exit 1,
// as that personality fails) and the search.workspace_stats action say it too, in their own shapes
// (trial38: they gave the partial counts as a whole index).
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createActionEngine, createActions } from '../../src/index.js';
import { cliPath, runCli, type CliRun } from '../helpers/cli.js';

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

/** The built CLI started as `semtools` (a symlink of that name, as a user installs it). */
function semtools(args: string[]): Promise<CliRun> {
  const bin = path.join(tmp, 'bin', 'semtools');
  mkdirSync(path.dirname(bin), { recursive: true });
  try { chmodSync(cliPath, 0o755); symlinkSync(cliPath, bin); } catch { /* made by an earlier call */ }
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { env: { ...process.env, HF_HUB_OFFLINE: '1', ...env, SEMTOOLS_WORKSPACE: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => { stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ stdout, stderr, code: code ?? -1 }));
  });
}

/** search.workspace_stats of the workspace's directory, in this process. */
async function actionStats(): Promise<Record<string, unknown>> {
  const engine = createActionEngine({ concurrency: 0, offline: true });
  try {
    return await createActions(engine)['search.workspace_stats']({}, { dir: path.join(env.SIMGREP_HOME, 'workspaces', 'cut') });
  } finally {
    await engine.close();
  }
}

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

  // semtools' status: its fields, complete: false and the note added; a State: line; exit 1.
  const semJson = await semtools(['workspace', 'status', 'cut', '--json']);
  const root = path.join(env.SIMGREP_HOME, 'workspaces', 'cut');
  expect(JSON.parse(semJson.stdout)).toEqual({ name: 'cut', root_dir: root, total_documents: s.files, complete: false, note: s.note });
  const semText = await semtools(['workspace', 'status', 'cut']);
  expect(semText.stdout).toBe(`Active workspace: cut\nRoot: ${root}\nDocuments: ${String(s.files)}\nIndex: Yes (FLAT)\nState: ${String(s.note)}\n`);
  for (const r of [semJson, semText]) expect([r.code, r.stderr]).toEqual([1, `Error: workspace cut: ${String(s.note)}\n`]);
  // The action: TEA's keys of what the tables hold so far, complete: false, and what finishes it in its own terms.
  expect(await actionStats()).toMatchObject({
    success: true, total_documents: s.files, files: s.files, complete: false, updated: null,
    note: `the index is incomplete: no index run of it has finished (one was cut short, or is still running), so it holds only part of its roots; search.workspace_index with workspace: ${JSON.stringify(root)} finishes it`,
  });

  // mend38a: a prune of the unfinished index marked its partial tables complete and published them
  // (status exit 0, MCP status `indexed`). It deletes the rows of the gone files and the index stays incomplete.
  // Half the tree goes: the partial tables hold more than half of it, so some of what they hold goes.
  for (let d = 0; d < 2; d++) rmSync(path.join(tree, `m${d}`), { recursive: true });
  const beforePrune = JSON.parse((await runCli(['workspace', 'status', 'cut', '--json'], { env })).stdout) as { files: number; gone: number };
  expect(beforePrune.gone).toBeGreaterThan(0);
  const pruned = await runCli(['workspace', 'prune', 'cut'], { env });
  expect(pruned.code).toBe(0);
  const afterPrune = await runCli(['workspace', 'status', 'cut', '--json'], { env });
  expect(afterPrune.code).toBe(2);
  expect(JSON.parse(afterPrune.stdout)).toMatchObject({ complete: false, updated: null, files: beforePrune.files, gone: 0 });
  expect(afterPrune.stderr).toContain('simgrep: workspace cut: the index is incomplete');
  for (let d = 0; d < 2; d++) {
    mkdirSync(path.join(tree, `m${d}`), { recursive: true });
    for (let f = 0; f < 100; f++) writeFileSync(path.join(tree, `m${d}`, `f${f}.ts`), file(d * 100 + f, 300));
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
  expect(await semtools(['workspace', 'status', 'cut', '--json'])).toEqual({ stdout: `${JSON.stringify({ name: 'cut', root_dir: root, total_documents: 400, complete: true }, null, 2)}\n`, stderr: '', code: 0 });
  expect(await semtools(['workspace', 'status', 'cut'])).toEqual({ stdout: `Active workspace: cut\nRoot: ${root}\nDocuments: 400\nIndex: Yes (FLAT)\n`, stderr: '', code: 0 });
  const stats = await actionStats();
  expect(stats).toMatchObject({ success: true, total_documents: 400, complete: true });
  expect(stats.note).toBeUndefined();
}, 180_000);

// trial38: a workspace made empty (semtools' `workspace use`, search.workspace_create without paths)
// was said to be incomplete ("holds only part of its roots", exit 2): no run began there.
it('status of an empty workspace says no note and exits 0 (no run began)', async () => {
  mkdirSync(path.join(env.SIMGREP_HOME, 'workspaces', 'empty'), { recursive: true });
  const r = await runCli(['workspace', 'status', 'empty', '--json'], { env });
  expect([r.code, r.stderr]).toEqual([0, '']);
  expect(JSON.parse(r.stdout)).toMatchObject({ files: 0, roots: [], complete: false, updated: null });
  expect(JSON.parse(r.stdout).note).toBeUndefined();
  const sem = await semtools(['workspace', 'status', 'empty']);
  expect(sem).toEqual({ stdout: `Active workspace: empty\nRoot: ${path.join(env.SIMGREP_HOME, 'workspaces', 'empty')}\nDocuments: 0\nIndex: No\n`, stderr: '', code: 0 });
});
