// simgrep index / workspace / indexed search through the real CLI: same output as a scan, crash
// safety (kill -9 mid-index, then resume), one writer at a time, and clear errors for bad input.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath, runCli } from '../helpers/cli.js';
import { openStore } from '../../src/workspace/store/store.js';

let tmp = '';
let tree = '';
let env: Record<string, string> = {};
const FILES = 600;

const WORDS = ['upload', 'retry', 'invoice', 'socket', 'parser', 'render', 'cache', 'token', 'backoff', 'queue'];
function file(seed: number, lines: number): string {
  return Array.from({ length: lines }, (_, i) => `const ${WORDS[(seed + i) % 10]}${i} = ${WORDS[(seed * 7 + i) % 10]}(${i}); // ${WORDS[(i * 3 + seed) % 10]} handling`).join('\n');
}

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-idx-cli-'));
  tree = path.join(tmp, 'tree');
  for (let f = 0; f < FILES; f++) {
    mkdirSync(path.join(tree, `d${f % 10}`), { recursive: true });
    writeFileSync(path.join(tree, `d${f % 10}`, `f${f}.ts`), file(f, 150));
  }
  env = { SIMGREP_HOME: path.join(tmp, 'home'), SIMGREP_CACHE_DIR: path.join(tmp, 'cache') };
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('simgrep index and indexed search', () => {
  it('kill -9 mid-index leaves an index that opens and answers; the next run resumes and completes it', async () => {
    // The run stops after its first commit (a test failpoint) and is killed there: a known point.
    const child = spawn(process.execPath, [cliPath, 'index', tree, '-w', 'crash', '-J', '1'], {
      env: { ...process.env, ...env, SIMGREP_FAILPOINT: 'pause-after-commit:1' }, stdio: ['ignore', 'ignore', 'pipe'],
    });
    await new Promise<void>((resolve, reject) => {
      let err = '';
      child.stderr!.setEncoding('utf8').on('data', (d: string) => { err += d; if (err.includes('failpoint: paused')) resolve(); });
      child.on('close', () => reject(new Error(`index ended before the failpoint: ${err}`)));
    });
    child.kill('SIGKILL');
    await new Promise((r) => child.on('close', r));
    const partial = await runCli(['workspace', 'status', 'crash', '--json'], { env });
    // No run has finished: the counts so far, said to be incomplete, exit 2 (status-incomplete.test.ts).
    expect(partial.code).toBe(2);
    const before = JSON.parse(partial.stdout);
    expect(before.complete).toBe(false);
    expect(before.files).toBeGreaterThan(0);
    expect(before.files).toBeLessThan(FILES);
    // A search answers consistently from what is there (refreshing what is missing) and equals a scan.
    const indexed = await runCli(['upload retry with backoff', tree, '-w', 'crash', '--json', '--top-k', '5'], { env });
    const scanned = await runCli(['upload retry with backoff', tree, '--no-index', '--json', '--top-k', '5'], { env });
    expect(indexed.code).toBe(0);
    expect(indexed.stdout).toBe(scanned.stdout);
    const resumed = await runCli(['index', tree, '-w', 'crash'], { env });
    expect(resumed.code).toBe(0);
    const after = JSON.parse((await runCli(['workspace', 'status', 'crash', '--json'], { env })).stdout);
    expect([after.files, after.lines]).toEqual([FILES, FILES * 150]);
    // No duplicate or missing chunk rows after the kill and the resume.
    const store = await openStore(path.join(env.SIMGREP_HOME, 'workspaces', 'crash'), { dim: 256 });
    const rows = await store.chunkVectors();
    store.close();
    expect(new Set(rows.map((r) => `${r.path}:${r.start}`)).size).toBe(rows.length);
    expect(rows.length).toBe(FILES * Math.ceil(150 / 48));
  });

  it('a plain index of a directory is found by a later search of it; --stats says so; output equals a scan', async () => {
    const built = await runCli(['index', tree], { env });
    expect(built.code).toBe(0);
    expect(built.stderr).toMatch(/workspace tree-[0-9a-f]{8}: 600 files checked, 600 indexed/);
    const sub = path.join(tree, 'd3');
    for (const mode of ['hybrid', 'semantic', 'lexical']) {
      const a = await runCli(['invoice parser cache', sub, '--mode', mode, '--stats', '-n', '1'], { env });
      const b = await runCli(['invoice parser cache', sub, '--mode', mode, '--no-index', '-n', '1'], { env });
      expect(a.code).toBe(0);
      expect(a.stdout).toBe(b.stdout);
      expect(a.stderr).toMatch(/from workspace (tree-[0-9a-f]{8}|crash) \(0 files re-indexed first\)/);
    }
    const list = await runCli(['workspace', 'list', '--json'], { env });
    const names = JSON.parse(list.stdout).workspaces.map((w: { name: string }) => w.name);
    expect(names).toHaveLength(2);
    expect(names[0]).toBe('crash');
    expect(names[1]).toMatch(/^tree-[0-9a-f]{8}$/);
  });

  it('without a name, workspace status, prune and index mean the workspace of the current directory', async () => {
    const e = { SIMGREP_HOME: path.join(tmp, 'home-cwd'), SIMGREP_CACHE_DIR: env.SIMGREP_CACHE_DIR };
    const project = path.join(tmp, 'project');
    mkdirSync(path.join(project, 'src', 'sub'), { recursive: true });
    mkdirSync(path.join(project, 'docs'), { recursive: true });
    for (let f = 0; f < 4; f++) writeFileSync(path.join(project, 'src', 'sub', `m${f}.ts`), file(f, 20));
    writeFileSync(path.join(project, 'docs', 'guide.md'), 'How uploads are retried with backoff.\n');
    const none = await runCli(['workspace', 'status'], { env: e, cwd: project });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(`no workspace indexes ${project} or anything under it`);
    const bare = await runCli(['index'], { env: e, cwd: project });
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('simgrep index needs PATHs to index');
    expect((await runCli(['index', './src'], { env: e, cwd: project })).code).toBe(0);
    const nameOf = async (cwd: string) => {
      const r = await runCli(['workspace', 'status', '--json'], { env: e, cwd });
      expect(r.code).toBe(0);
      return JSON.parse(r.stdout).name as string;
    };
    const name = await nameOf(project); // the one workspace under the directory
    expect(name).toMatch(/^src-[0-9a-f]{8}$/);
    expect(await nameOf(path.join(project, 'src', 'sub'))).toBe(name); // the workspace that covers it
    writeFileSync(path.join(project, 'src', 'sub', 'new.ts'), file(9, 20));
    const again = await runCli(['index'], { env: e, cwd: path.join(project, 'src', 'sub') });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(`workspace ${name}: 5 files checked, 1 indexed`);
    expect((await runCli(['workspace', 'prune'], { env: e, cwd: path.join(project, 'src') })).stderr).toContain(`workspace ${name}: removed 0 files`);
    expect((await runCli(['index', './docs'], { env: e, cwd: project })).code).toBe(0);
    const two = await runCli(['workspace', 'status'], { env: e, cwd: project });
    expect(two.code).toBe(2);
    expect(two.stderr).toMatch(/workspaces (docs|src)-[0-9a-f]{8}, (docs|src)-[0-9a-f]{8} all index .* or paths under it/);
    expect(await nameOf(path.join(project, 'docs'))).toMatch(/^docs-[0-9a-f]{8}$/);
    // A workspace of the whole project covers src/sub too, less nearly than src's; one more of src ties with it.
    expect((await runCli(['index', '.', '-w', 'whole'], { env: e, cwd: project })).code).toBe(0);
    expect(await nameOf(path.join(project, 'src', 'sub'))).toBe(name);
    expect(await nameOf(project)).toBe('whole');
    expect((await runCli(['index', './src', '-w', 'also-src'], { env: e, cwd: project })).code).toBe(0);
    const tie = await runCli(['workspace', 'status'], { env: e, cwd: path.join(project, 'src', 'sub') });
    expect(tie.code).toBe(2);
    expect(tie.stderr).toMatch(new RegExp(`workspaces (also-src, ${name}|${name}, also-src) all index`));
  });

  it('two writers: the second gets a clear error naming the first (unless it has nothing to change); a search meanwhile still answers (from the index while what changed is small)', async () => {
    const lock = path.join(env.SIMGREP_HOME, 'workspaces', 'crash', '.simgrep-lock');
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)']);
    writeFileSync(lock, JSON.stringify({ pid: holder.pid, host: (await import('node:os')).hostname(), started: 'now' }));
    try {
      // A run with nothing to change is answered from the snapshot: it needs neither LanceDB nor the lock.
      const idle = await runCli(['index', tree, '-w', 'crash'], { env });
      expect(idle.code).toBe(0);
      expect(idle.stderr).toMatch(/600 files checked, 0 indexed \(0 lines, 0 chunks, 0 reused\), 600 unchanged, 0 removed, 0 errors/);
      writeFileSync(path.join(tree, 'd0', 'f0.ts'), file(999, 10));
      const second = await runCli(['index', tree, '-w', 'crash'], { env });
      expect(second.code).toBe(2);
      expect(second.stderr).toContain(`workspace crash is being updated by process ${holder.pid}`);
      // The change is small: read for the search's own answer, which needs no lock.
      const search = await runCli(['upload retry', tree, '-w', 'crash', '--stats'], { env });
      expect(search.code).toBe(0);
      expect(search.stderr).toContain('from workspace crash (1 file re-indexed first, for this search only');
      // A bigger one would be saved, which the lock forbids: the search scans instead.
      writeFileSync(path.join(tree, 'd0', 'big.ts'), file(998, 12_000));
      const big = await runCli(['upload retry', tree, '-w', 'crash', '--stats'], { env });
      expect(big.code).toBe(0);
      expect(big.stderr).toContain('workspace crash not used: another process is updating it');
      rmSync(path.join(tree, 'd0', 'big.ts'));
    } finally {
      const gone = new Promise((r) => holder.on('close', r));
      holder.kill();
      await gone;
    }
    // A lock left by a dead process is taken over.
    const third = await runCli(['index', tree, '-w', 'crash'], { env });
    expect(third.code).toBe(0);
    expect(third.stderr).toContain('1 indexed');
  });

  it('simgrep index refuses a search filter (each search walks with its own) instead of ignoring it', async () => {
    const r = await runCli(['index', tree, '-w', 'filtered', '-g', '*.py', '-t', 'py', '--hidden', '--max-filesize', '1K', '--no-ignore'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('simgrep index takes no --glob, --type, --hidden, --no-ignore, --max-filesize: filters apply when searching');
    expect(existsSync(path.join(env.SIMGREP_HOME, 'workspaces', 'filtered'))).toBe(false);
  });

  it('--timeout bounds an indexed search from its walk on (the refresh: timeout-walk-cache.test.ts): cut, it answers as a cut scan does (exit 2), and the next search equals a scan', async () => {
    const own = path.join(tmp, 'timed');
    for (let f = 0; f < 300; f++) {
      mkdirSync(path.join(own, `d${f % 10}`), { recursive: true });
      writeFileSync(path.join(own, `d${f % 10}`, `f${f}.ts`), file(f, 150));
    }
    expect((await runCli(['index', own, '-w', 'timed', '-J', '0'], { env })).code).toBe(0);
    // Every file changed (more than a one-shot search reads unsaved): the refresh takes seconds.
    for (let f = 0; f < 300; f++) writeFileSync(path.join(own, `d${f % 10}`, `f${f}.ts`), file(f + 1, 150));
    const cut = await runCli(['upload retry', own, '-w', 'timed', '-J', '0', '--timeout', '0.05', '--json'], { env });
    expect([cut.code, cut.stderr]).toEqual([2, 'simgrep: stopped after the --timeout of 0.05 s: the results found so far are shown\n']);
    expect(JSON.parse(cut.stdout).results).toEqual([]);
    const indexed = await runCli(['upload retry', own, '-w', 'timed', '-J', '0', '--json'], { env });
    const scanned = await runCli(['upload retry', own, '--no-index', '-J', '0', '--json'], { env });
    expect([indexed.code, indexed.stdout]).toEqual([0, scanned.stdout]);
  });

  it('bad input: a foreign directory, a missing path, an unknown workspace, an index from a newer simgrep', async () => {
    const foreign = path.join(tmp, 'photos');
    mkdirSync(foreign);
    writeFileSync(path.join(foreign, 'cat.jpg'), 'x');
    const f = await runCli(['index', tree, '--index-dir', foreign], { env });
    expect([f.code, f.stderr.trim()]).toEqual([2, `simgrep: ${foreign} is not a simgrep workspace (it holds cat.jpg); pass an empty or new directory as --index-dir`]);
    expect(existsSync(path.join(foreign, 'chunks.lance'))).toBe(false);
    const missing = await runCli(['index', path.join(tmp, 'nope'), '-w', 'crash'], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file or directory');
    const unknown = await runCli(['q', tree, '-w', 'ghost'], { env });
    expect([unknown.code, unknown.stderr.trim()]).toEqual([2, 'simgrep: workspace ghost does not exist; create it with simgrep index PATH... -w ghost, or search without it (--no-index)']);
    // A newer simgrep writes its format into the store's meta and workspace.json's copy of it.
    const wsDir = path.join(env.SIMGREP_HOME, 'workspaces', 'crash');
    const store = await openStore(wsDir, { dim: 256 });
    await store.writeMeta({ format: '99' });
    store.close();
    const info = JSON.parse(readFileSync(path.join(wsDir, 'workspace.json'), 'utf8'));
    writeFileSync(path.join(wsDir, 'workspace.json'), JSON.stringify({ ...info, meta: { ...info.meta, format: '99' } }));
    const newer = await runCli(['upload retry', tree, '-w', 'crash'], { env });
    expect(newer.code).toBe(2);
    expect(newer.stderr).toContain('was written by a newer simgrep (index format 99');
    const status = await runCli(['workspace', 'status', 'crash'], { env });
    expect(status.code).toBe(2);
  });
  it('a cold search of an unchanged tree skips the walk (recorded), and a file added later is still found', async () => {
    const root = path.join(tmp, 'recorded');
    for (let f = 0; f < 40; f++) {
      mkdirSync(path.join(root, `d${f % 4}`), { recursive: true });
      writeFileSync(path.join(root, `d${f % 4}`, `f${f}.ts`), file(f, 60));
    }
    const made = Date.now();
    const cache = path.join(tmp, 'walk-cache');
    const e = { ...env, SIMGREP_CACHE_DIR: cache };
    expect((await runCli(['index', root, '-w', 'recorded'], { env: e })).code).toBe(0);
    // A walk of directories changed in the 2 s before it is not recorded (their next change could keep the same ctime).
    await new Promise((r) => setTimeout(r, Math.max(0, made + 2100 - Date.now())));
    // The index run's own walk is recorded too when it started 2 s after the files were made (a loaded
    // machine): only the search's record is counted here.
    rmSync(path.join(cache, 'walks'), { recursive: true, force: true });
    const first = await runCli(['invoice parser cache', root, '-w', 'recorded', '--json', '--top-k', '5'], { env: e });
    expect(readdirSync(path.join(cache, 'walks')).length).toBe(1);
    const second = await runCli(['invoice parser cache', root, '-w', 'recorded', '--json', '--top-k', '5'], { env: e });
    expect(second.stdout).toBe(first.stdout);
    writeFileSync(path.join(root, 'd2', 'added.ts'), 'const zebraStampede = retryUpload(); // zebra stampede\n');
    const added = await runCli(['zebra stampede', root, '-w', 'recorded', '--json', '--mode', 'lexical', '--stats'], { env: e });
    expect(added.stderr).toMatch(/1 file re-indexed first/);
    expect(JSON.parse(added.stdout).results[0].filename).toBe(path.join(root, 'd2', 'added.ts'));
    expect(added.stdout).toBe((await runCli(['zebra stampede', root, '--json', '--mode', 'lexical', '--no-index'], { env: e })).stdout);
  });

  it('a search after a small edit reads the changed file for its own answer and writes nothing; simgrep index (or a bigger change) saves it', async () => {
    const root = path.join(tmp, 'edited');
    for (let f = 0; f < 30; f++) {
      mkdirSync(path.join(root, `d${f % 3}`), { recursive: true });
      writeFileSync(path.join(root, `d${f % 3}`, `f${f}.ts`), file(f, 80));
    }
    expect((await runCli(['index', root, '-w', 'edited'], { env })).code).toBe(0);
    const dir = path.join(env.SIMGREP_HOME, 'workspaces', 'edited');
    const saved = async () => {
      const store = await openStore(dir, { dim: 256 });
      try { return [await store.version(), readFileSync(path.join(dir, 'workspace.json'), 'utf8')]; } finally { store.close(); }
    };
    const before = await saved();
    writeFileSync(path.join(root, 'd1', 'f4.ts'), `${file(4, 80)}\nconst zebraStampede = retryUpload(); // zebra stampede\n`);
    const args = ['zebra stampede retry', root, '-w', 'edited', '--json', '--top-k', '4', '--stats'];
    const scan = (await runCli([...args.slice(0, 2), '--json', '--top-k', '4', '--no-index'], { env })).stdout;
    for (let i = 0; i < 2; i++) {
      const r = await runCli(args, { env });
      expect(r.stderr).toMatch(/\(1 file re-indexed first, for this search only: simgrep index saves it\)/);
      expect(r.stdout).toBe(scan);
      expect(JSON.parse(r.stdout).results[0].filename).toBe(path.join(root, 'd1', 'f4.ts'));
      expect(await saved()).toEqual(before);
    }
    const indexed = await runCli(['index', root, '-w', 'edited'], { env });
    expect(indexed.stderr).toMatch(/30 files checked, 1 indexed/);
    const after = await runCli(args, { env });
    expect(after.stderr).toMatch(/\(0 files re-indexed first\)/);
    expect(after.stdout).toBe(scan);
    // More than UNSAVED_REFRESH_BYTES changed: the search saves what it re-indexed.
    writeFileSync(path.join(root, 'd0', 'big.ts'), file(7, 12_000));
    const version = (await saved())[0];
    const big = await runCli(args, { env });
    expect(big.stderr).toMatch(/\(1 file re-indexed first\)/);
    expect((await saved())[0]).not.toBe(version);
    expect(big.stdout).toBe((await runCli([...args.slice(0, 2), '--json', '--top-k', '4', '--no-index'], { env })).stdout);
  });
});
