// simgrep as a drop-in for semtools 3.x (issue 29 §3): the built CLI started through `semtools` and
// `search` symlinks on PATH (as a user installs it), and as `simgrep search`. Expected values are
// computed with the library's line search (the same algorithm semtools runs: each line alone, cosine
// distance) and written in semtools' shapes, as semtools' source prints them (src/cmds/search.rs,
// src/cmds/workspace.rs, src/json_mode.rs of run-llama/semtools 3.0.0).
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActionEngine, createActions, createSearcher, type Searcher } from '../../src/index.js';
import { cliPath, runCli, type CliRun } from '../helpers/cli.js';

let dir = '';
let bin = '';
let env: Record<string, string> = {};
let searcher: Searcher;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'simgrep-semtools-'));
  bin = path.join(dir, 'bin');
  mkdirSync(bin);
  chmodSync(cliPath, 0o755);
  symlinkSync(cliPath, path.join(bin, 'semtools'));
  symlinkSync(cliPath, path.join(bin, 'search'));
  writeFileSync(path.join(dir, 'a.txt'), 'parse the config file\nretry the failed upload with backoff\nrender a button on the page\nthe database table index\n');
  writeFileSync(path.join(dir, 'b.txt'), 'upload retries use exponential backoff\n');
  env = { PATH: `${bin}${path.delimiter}${process.env.PATH}`, SIMGREP_HOME: path.join(dir, 'home'), SIMGREP_CACHE_DIR: path.join(dir, 'cache'), HF_HUB_OFFLINE: '1', SEMTOOLS_WORKSPACE: '' };
  searcher = createSearcher({ concurrency: 0 });
});
afterAll(async () => {
  await searcher.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs a program of bin/ by its name through PATH, as TEA's subprocess.run(["semtools", ...]) does. */
function runAs(program: string, args: string[], extra: Record<string, string> = {}, input = ''): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { cwd: dir, env: { ...process.env, ...env, ...extra }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => { stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ stdout, stderr, code }));
    child.stdin.end(input);
  });
}

const round = (d: number) => Math.round(d * 1e6) / 1e6;

/** semtools' line search, from the library: every line under maxDistance (or the topK best), ascending. */
async function lineSearch(query: string, files: string[], o: { topK?: number; maxDistance?: number; nLines?: number }) {
  const r = await searcher.search({ query, paths: files.map((f) => path.join(dir, f)), mode: 'line', merge: false, nLines: o.nLines ?? 3, topK: o.maxDistance === undefined ? o.topK ?? 3 : undefined, maxDistance: o.maxDistance });
  return r.results.map((x) => ({ ...x, filename: path.relative(dir, x.filename) }));
}

/** semtools' print_search_results (no terminal: no highlight). */
function semtoolsText(results: Awaited<ReturnType<typeof lineSearch>>): string {
  return results.map((x) => `${x.filename}:${x.start}::${x.end} (${round(x.distance)})\n${x.lines.map((l, i) => `${String(x.start + i + 1).padStart(4)}: ${l}\n`).join('')}\n`).join('');
}

/** TEA's semtools_search after subprocess.run (semtools_actions.py): how it turns stdout into its result. */
function teaParse(r: CliRun, query: string, nResults = 10) {
  if (r.code !== 0) return { success: false, error: r.stderr.trim() || 'semtools search failed', error_type: 'cli_error', matches: [], has_matches: false, query };
  const stdout = r.stdout.trim();
  if (!stdout) return { success: true, matches: [], best_match: null, has_matches: false, total_matches: 0, query };
  let matches = JSON.parse(stdout) as unknown;
  if (!Array.isArray(matches)) matches = matches ? [matches] : [];
  const list = (matches as { score?: number }[]).slice(0, nResults);
  const best = list.reduce<{ score?: number } | null>((b, m) => (b === null || (m.score ?? 0) > (b.score ?? 0) ? m : b), null);
  return { success: true, matches: list, best_match: best, has_matches: list.length > 0, total_matches: list.length, query };
}

describe('semtools search (simgrep through a `semtools` symlink)', () => {
  it('semtools\' README command: --max-distance 0.3 --n-lines 5, every line below the threshold, text shape, exit 0', async () => {
    const r = await runAs('semtools', ['search', 'retry failed uploads', 'a.txt', 'b.txt', '--max-distance', '0.3', '--n-lines', '5']);
    const expected = await lineSearch('retry failed uploads', ['a.txt', 'b.txt'], { maxDistance: 0.3, nLines: 5 });
    expect(expected.length).toBeGreaterThan(0);
    expect(r).toEqual({ stdout: semtoolsText(expected), stderr: '', code: 0 });
  });

  it('the aliases (--context, --threshold, -m, -n, -j) give the same answers as the long names; --top-k 3 by default', async () => {
    const long = await runAs('semtools', ['search', 'retry failed uploads', 'a.txt', 'b.txt', '--n-lines', '1', '--max-distance', '0.9', '--json']);
    for (const args of [['--context', '1', '--threshold', '0.9', '-j'], ['-n', '1', '-m', '0.9', '-j'], ['-n1', '-m=0.9', '-j']]) {
      expect(await runAs('semtools', ['search', 'retry failed uploads', 'a.txt', 'b.txt', ...args])).toEqual(long);
    }
    const expected = await lineSearch('retry failed uploads', ['a.txt', 'b.txt'], { maxDistance: 0.9, nLines: 1 });
    expect(JSON.parse(long.stdout)).toEqual({
      results: expected.map((x) => ({ filename: x.filename, start_line_number: x.start, end_line_number: x.end, match_line_number: x.match_line, distance: round(x.distance), content: x.lines.join('\n') })),
    });
    const top = await runAs('semtools', ['search', 'retry failed uploads', 'a.txt', 'b.txt', '-j']);
    expect(JSON.parse(top.stdout).results).toHaveLength(3);
  });

  it('-i lower-cases query and lines; no match is exit 0 with an empty result list', async () => {
    const r = await runAs('semtools', ['search', 'RETRY THE FAILED UPLOAD WITH BACKOFF', 'a.txt', '-i', '-m', '0.000001', '-j']);
    expect(JSON.parse(r.stdout).results.map((x: { match_line_number: number }) => x.match_line_number)).toEqual([1]);
    const none = await runAs('semtools', ['search', 'retry failed uploads', 'a.txt', '-m', '0', '-j']);
    expect(none).toEqual({ stdout: '{\n  "results": []\n}\n', stderr: '', code: 0 });
  });

  it('standard input is searched as <stdin> when no file is given', async () => {
    const r = await runAs('semtools', ['search', 'database index', '--top-k', '1', '-n', '0'], {}, 'render a button\nthe database table index\n');
    expect(r.stdout).toMatch(/^<stdin>:1::2 \(\d\.\d+\)\n {3}2: the database table index\n\n$/);
    expect(r.code).toBe(0);
  });

  it('exit codes: a missing file 1 (with the reason on stderr), a usage error 2', async () => {
    const missing = await runAs('semtools', ['search', 'x', 'nope.txt']);
    expect([missing.code, missing.stderr]).toEqual([1, expect.stringContaining('nope.txt: no such file or directory')]);
    const usage = await runAs('semtools', ['search', 'x', 'a.txt', '--bogus']);
    expect([usage.code, usage.stderr]).toEqual([2, expect.stringMatching(/^error: unknown option --bogus/)]);
    expect((await runAs('semtools', ['search'])).code).toBe(2);
    expect((await runAs('semtools', ['parse', 'x.pdf'])).code).toBe(2);
  });

  it('`search` (semtools\' search alone, as in `xargs search`) and `simgrep search` print what `semtools search` prints', async () => {
    const args = ['retry failed uploads', 'a.txt', 'b.txt', '-n', '0'];
    const semtools = await runAs('semtools', ['search', ...args]);
    expect(await runAs('search', args)).toEqual(semtools);
    expect(await runCli(['search', ...args], { cwd: dir, env })).toEqual(semtools);
  });

  it('plain `simgrep QUERY PATH` keeps its hybrid default', async () => {
    const plain = await runCli(['retry failed uploads', 'a.txt', '--json'], { cwd: dir, env });
    const hybrid = await runCli(['retry failed uploads', 'a.txt', '--json', '--mode', 'hybrid'], { cwd: dir, env });
    const line = await runCli(['retry failed uploads', 'a.txt', '--json', '--mode', 'line'], { cwd: dir, env });
    expect(plain).toEqual(hybrid);
    expect(plain.stdout).not.toBe(line.stdout);
  });
});

describe('TEA\'s semtools.search action, unmodified, against simgrep installed as `semtools`', () => {
  // The argv TEA builds (python/src/the_edge_agent/actions/semtools_actions.py): ["semtools", "search",
  // query, *files, "--max-distance", str(max_distance), "--output", "json"] (+ "--n-lines", str(n) if n > 0).
  it('prints the JSON list TEA parses: {file, line, score, text, context} per line, best first; TEA\'s parser accepts it', async () => {
    const r = await runAs('semtools', ['search', 'retry failed uploads', 'a.txt', 'b.txt', '--max-distance', '0.5', '--output', 'json', '--n-lines', '1']);
    expect(r.code).toBe(0);
    const parsed = teaParse(r, 'retry failed uploads');
    const expected = await lineSearch('retry failed uploads', ['a.txt', 'b.txt'], { maxDistance: 0.5, nLines: 1 });
    const matches = expected.map((x) => ({ file: x.filename, line: x.match_line + 1, score: round(1 - round(x.distance)), text: x.lines[x.match_line - x.start], context: x.lines }));
    expect(matches.length).toBeGreaterThan(0);
    expect(parsed).toEqual({ success: true, matches, best_match: matches[0], has_matches: true, total_matches: matches.length, query: 'retry failed uploads' });
  });

  it('simgrep\'s own in-process semtools.search returns exactly what TEA makes of the CLI\'s output', async () => {
    const engine = createActionEngine({ concurrency: 0, collectionsDir: 'memory' });
    try {
      const cli = teaParse(await runAs('semtools', ['search', 'retry failed uploads', 'a.txt', 'b.txt', '--max-distance', '0.6', '--output', 'json', '--n-lines', '2']), 'retry failed uploads', 2);
      const action = await createActions(engine)['semtools.search']({}, { query: 'retry failed uploads', files: [path.join(dir, 'a.txt'), path.join(dir, 'b.txt')], max_distance: 0.6, n_lines: 2, n_results: 2 });
      const relative = (m: { file: string }) => ({ ...m, file: path.relative(dir, m.file) });
      expect({ ...action, matches: (action.matches as { file: string }[]).map(relative), best_match: relative(action.best_match as { file: string }) }).toEqual(cli);
    } finally {
      await engine.close();
    }
  });

  it('no match: "[]" (TEA: success, matches [], has_matches false); a missing file: exit 1 (TEA: cli_error)', async () => {
    const none = await runAs('semtools', ['search', 'retry failed uploads', 'a.txt', '--max-distance', '0.0', '--output', 'json']);
    expect(none.stdout).toBe('[]\n');
    expect(teaParse(none, 'q')).toEqual({ success: true, matches: [], best_match: null, has_matches: false, total_matches: 0, query: 'q' });
    const missing = await runAs('semtools', ['search', 'q', 'nope.md', '--max-distance', '0.5', '--output', 'json']);
    expect(teaParse(missing, 'q')).toEqual({ success: false, error: expect.stringContaining('nope.md: no such file or directory'), error_type: 'cli_error', matches: [], has_matches: false, query: 'q' });
  });
});

describe('semtools workspace use|status|prune with SEMTOOLS_WORKSPACE', () => {
  it('use creates the workspace, the first search fills it, status and prune answer in semtools\' JSON shapes', async () => {
    const root = path.join(dir, 'home', 'workspaces', 'proj');
    const use = await runAs('semtools', ['workspace', 'use', 'proj']);
    expect(use).toEqual({
      stdout: "Workspace 'proj' configured.\nTo activate it, run:\n  export SEMTOOLS_WORKSPACE=proj\n\nOr add this to your shell profile (.bashrc, .zshrc, etc.)\n\nOr use the `--workspace` option on the commands that support it\n",
      stderr: '', code: 0,
    });
    const active = { SEMTOOLS_WORKSPACE: 'proj' };
    // Empty (no run began): complete is false, but nothing is cut short: no note, exit 0 (trial38).
    expect(await runAs('semtools', ['workspace', 'status', '--json'], active)).toEqual({ stdout: `${JSON.stringify({ name: 'proj', root_dir: root, total_documents: 0, complete: false }, null, 2)}\n`, stderr: '', code: 0 });
    writeFileSync(path.join(dir, 'c.txt'), 'a temporary note about uploads\n');
    const search = await runAs('semtools', ['search', 'retry failed uploads', 'a.txt', 'c.txt', '--top-k', '2', '-j'], active);
    expect(search.code).toBe(0);
    // In a workspace semtools keeps --top-k even with --max-distance.
    expect(JSON.parse((await runAs('semtools', ['search', 'retry failed uploads', 'a.txt', 'c.txt', '--top-k', '1', '-m', '2', '-j'], active)).stdout).results).toHaveLength(1);
    expect(JSON.parse(search.stdout)).toEqual(JSON.parse((await runAs('semtools', ['search', 'retry failed uploads', 'a.txt', 'c.txt', '--top-k', '2', '-j'])).stdout));
    expect(await runAs('semtools', ['workspace', 'status'], active)).toEqual({ stdout: `Active workspace: proj\nRoot: ${root}\nDocuments: 2\nIndex: Yes (FLAT)\n`, stderr: '', code: 0 });
    unlinkSync(path.join(dir, 'c.txt'));
    expect(JSON.parse((await runAs('semtools', ['workspace', 'prune', '-j'], active)).stdout)).toEqual({ files_removed: 1, files_remaining: 1 });
    expect(JSON.parse((await runAs('semtools', ['workspace', 'use', 'proj', '--json'])).stdout)).toEqual({ name: 'proj', root_dir: root, total_documents: 1, complete: true });
  });

  // trial33: in a workspace one missing file failed the whole search ("nothing was changed in workspace"),
  // printing nothing; without one, the others are printed and the exit is 1 (docs/cli.md).
  it('a missing file in a workspace search is an error for that file; the others are still searched', async () => {
    const active = { SEMTOOLS_WORKSPACE: 'gaps' };
    const args = ['search', 'retry failed uploads', 'a.txt', 'nope.txt', 'b.txt', '--top-k', '2', '-j'];
    const inWorkspace = await runAs('semtools', args, active);
    const plain = await runAs('semtools', args);
    expect(plain.code).toBe(1);
    expect(inWorkspace.code).toBe(1);
    expect(JSON.parse(inWorkspace.stdout)).toEqual(JSON.parse(plain.stdout));
    expect(JSON.parse(plain.stdout).results).toHaveLength(2);
    expect(inWorkspace.stderr).toContain(`Error: nope.txt: no such file or directory (relative paths start at ${dir})`);
    expect(JSON.parse((await runAs('semtools', ['workspace', 'status', '--json'], active)).stdout).total_documents).toBe(2);
  });

  it('status with no active workspace fails as semtools does (exit 1)', async () => {
    const r = await runAs('semtools', ['workspace', 'status']);
    expect([r.code, r.stderr]).toEqual([1, 'Error: No active workspace. Run: workspace use <name> (or set SEMTOOLS_WORKSPACE)\n']);
  });
});
