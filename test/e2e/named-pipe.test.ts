// Named pipes given as a path (the built CLI, real FIFOs and real writers): a --timeout ends the run with its
// answer while a writer still holds the pipe open or none has opened it, and without one every line a slow, late
// writer sends is read. Before pipe43 the pipe was opened and read on libuv's threads, which nothing can cancel:
// the CLI printed its answer at the deadline and then did not exit until the writer closed the pipe (60 s here),
// or at all when no writer came.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cliPath, timedRun, type CliRun } from '../helpers/cli.js';
import { isolatedHome } from '../helpers/isolated-home.js';

let dir = '';
let home: ReturnType<typeof isolatedHome>;
const GOOD_TEXT = 'nothing here\nwe retry the failed upload\n';
/** How long a run may take past its --timeout of 2 s (a loaded machine's model load and exit included). */
const EXIT_BOUND_MS = 15_000;

beforeAll(() => {
  home = isolatedHome();
  dir = mkdtempSync(path.join(tmpdir(), 'simgrep-named-pipe-'));
  writeFileSync(path.join(dir, 'good.txt'), GOOD_TEXT);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  home.restore();
});

interface TimedRun extends CliRun { ms: number }

/** Spawns `cmd` (the CLI, or a shell that runs it) in the temp dir and times it to its exit (killed after 60 s). */
const timed = (cmd: string, args: string[]): Promise<TimedRun> => timedRun(cmd, args, { cwd: dir, env: home.env });

/** A writer (sh) that opens the FIFO after `delayS`, writes `lines` one every `everyS`, then holds it open `holdS`. */
function writer(fifo: string, lines: string[], o: { delayS?: number; everyS?: number; holdS?: number } = {}): ChildProcess {
  const script = 'd=$1 f=$2 e=$3 h=$4; shift 4; sleep "$d"; exec >"$f"; for l in "$@"; do printf "%s\\n" "$l"; sleep "$e"; done; exec sleep "$h"';
  return spawn('sh', ['-c', script, 'sh', String(o.delayS ?? 0), fifo, String(o.everyS ?? 0), String(o.holdS ?? 0), ...lines], { stdio: 'ignore' });
}

const jsonlFiles = (stdout: string) => stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l).filename as string);
const ARGS = ['--jsonl', '-n', '0', '--top-k', '5'];
const STOPPED = /^simgrep: stopped after the --timeout of 2 s: the results found so far are shown; still reading (\S+)\n$/;

it('a named pipe held open by its writer kept the CLI from exiting after its --timeout answer', async () => {
  const fifo = path.join(dir, 'held.fifo');
  execFileSync('mkfifo', [fifo]);
  const w = writer(fifo, ['the upload is retried through a pipe'], { holdS: 60 });
  try {
    // 6 s, not 2: a loaded machine's start took 2 s before the pipe's line was read.
    const r = await timed(process.execPath, [cliPath, 'retry failed upload', 'held.fifo', 'good.txt', '--timeout', '6', ...ARGS]);
    // Before: the same answer, then the exit 60 s later, when the writer closed the pipe. The line the writer sent
    // before the deadline is found (trust44: it waited, unscored, for a piece of 2,048 lines).
    expect({ code: r.code, stderr: r.stderr, files: jsonlFiles(r.stdout).sort() }).toEqual({ code: 2, stderr: 'simgrep: stopped after the --timeout of 6 s: the results found so far are shown; still reading held.fifo\n', files: ['good.txt', 'held.fifo'] });
    expect(r.ms).toBeLessThan(6_000 + EXIT_BOUND_MS);
  } finally {
    w.kill();
  }
}, 90_000);

it('a named pipe that no writer opens kept the CLI from exiting after its --timeout answer', async () => {
  execFileSync('mkfifo', [path.join(dir, 'lonely.fifo')]);
  const r = await timed(process.execPath, [cliPath, 'retry failed upload', 'lonely.fifo', 'good.txt', '--timeout', '2', ...ARGS]);
  // Before: the same answer, then no exit at all (its open waited on libuv's threads for a writer): killed at 60 s.
  expect({ code: r.code, stderr: r.stderr, files: jsonlFiles(r.stdout) }).toEqual({ code: 2, stderr: 'simgrep: stopped after the --timeout of 2 s: the results found so far are shown; still reading lonely.fifo\n', files: ['good.txt'] });
  expect(r.ms).toBeLessThan(2_000 + EXIT_BOUND_MS);
}, 90_000);

it('a process substitution held open by its command kept the CLI from exiting after its --timeout answer', async () => {
  // bash runs the CLI on <(...): the substituted command writes its pid, a line, and sleeps with the pipe open
  // (its stderr sent away: the test's pipe held by it would keep the run's 'close' from coming).
  const pidFile = path.join(dir, 'subst.pid');
  const script = `exec "$0" "$1" 'retry failed upload' <(exec 2>/dev/null; echo $BASHPID >"$2"; echo 'the upload is retried'; exec sleep 60) good.txt --timeout 2 ${ARGS.join(' ')}`;
  let r: TimedRun;
  try {
    r = await timed('bash', ['-c', script, process.execPath, cliPath, pidFile]);
  } finally {
    try { process.kill(Number(readFileSync(pidFile, 'utf8'))); } catch { /* already gone */ }
  }
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toMatch(STOPPED);
  const substituted = STOPPED.exec(r.stderr)![1];
  expect(substituted).toMatch(/^\/dev\/fd\/\d+$/);
  // Its line, sent before the deadline, is found (trust44).
  expect(jsonlFiles(r.stdout).sort()).toEqual([substituted, 'good.txt']);
  expect(r.ms).toBeLessThan(2_000 + EXIT_BOUND_MS);
}, 90_000);

it('without --timeout, a named pipe whose writer comes late and writes slowly is read to its end', async () => {
  const fifo = path.join(dir, 'slow.fifo');
  execFileSync('mkfifo', [fifo]);
  const lines = ['first we retry the failed upload', 'then the upload is retried again', 'a third retry of the upload', 'the upload retried a fourth time'];
  // The writer opens the pipe 1 s after the CLI starts (its open waits; the pipe is not read as empty).
  const w = writer(fifo, lines, { delayS: 1, everyS: 0.4 });
  try {
    const r = await timed(process.execPath, [cliPath, 'retry failed upload', 'slow.fifo', 'good.txt', '--stats', '--jsonl', '-n', '0', '--top-k', '20']);
    expect(r.code, r.stderr).toBe(0);
    const bytes = Buffer.byteLength(lines.join('\n') + '\n') + Buffer.byteLength(GOOD_TEXT);
    // Every line the writer sent was read and scored: 4 from the pipe, 2 from good.txt.
    expect(r.stderr).toMatch(new RegExp(`^simgrep: searched 2 files, 6 lines, ${bytes} bytes in `));
    expect(jsonlFiles(r.stdout).sort()).toEqual(['good.txt', 'slow.fifo']);
  } finally {
    w.kill();
  }
}, 90_000);
