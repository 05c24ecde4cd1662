// A terminal given as a path (a real pseudo-terminal, held by a python3 helper that types two lines into it and
// keeps it open): a --timeout ends the run with its answer, the typed lines found, and the process exits then.
// Before trust44 the terminal was read on libuv's threads, which nothing cancels: the CLI printed its answer at
// the deadline and then did not exit until the terminal closed (when the helper ended, 40 s here). A device that
// never blocks (/dev/zero) is still read on the threads and stops at once (binary), or at the deadline.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cliPath, timedRun, type CliRun } from '../helpers/cli.js';
import { isolatedHome } from '../helpers/isolated-home.js';

let home: ReturnType<typeof isolatedHome>;
beforeAll(() => { home = isolatedHome(); });
afterAll(() => home.restore());

/** How long a run may take past its --timeout of 2 s (a loaded machine's model load and exit included). */
const EXIT_BOUND_MS = 15_000;
const HOLD_S = 40;
const python = spawnSync('python3', ['-c', 'import pty'], { stdio: 'ignore' }).status === 0;

/** A pseudo-terminal opened by python3: its slave's path, the lines typed into it (its input), held HOLD_S. */
const PTY = `
import os, pty, select, sys, time
m, s = pty.openpty()
print(os.ttyname(s), flush=True)
for l in sys.argv[2:]:
    os.write(m, (l + "\\n").encode())
end = time.time() + float(sys.argv[1])
while time.time() < end:
    r, _, _ = select.select([m], [], [], 0.2)
    if r: os.read(m, 4096)  # the echo, drained
`;

function terminal(lines: string[]): Promise<{ path: string; helper: ChildProcess }> {
  const helper = spawn('python3', ['-c', PTY, String(HOLD_S), ...lines], { stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((resolve, reject) => {
    createInterface({ input: helper.stdout! }).once('line', (path) => resolve({ path, helper }));
    helper.on('error', reject);
  });
}

const timed = (args: string[]): Promise<CliRun & { ms: number }> => timedRun(process.execPath, [cliPath, ...args], { env: home.env });

it.runIf(process.platform === 'linux' && python)('a terminal held open kept the CLI from exiting after its --timeout answer', async () => {
  const { path: tty, helper } = await terminal(['nothing typed here matters', 'we retry the failed upload']);
  let r: CliRun & { ms: number };
  try {
    // 6 s, not 2: a loaded machine's start (the model, the pool) took 2 s before the terminal was opened.
    r = await timed(['retry failed upload', tty, '--timeout', '6', '--stats', '--jsonl', '-n', '0', '--top-k', '3']);
  } finally {
    helper.kill();
  }
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toContain(`simgrep: stopped after the --timeout of 6 s: the results found so far are shown; still reading ${tty}\n`);
  // Before: the same answer, then the exit when the helper closed the terminal (HOLD_S).
  expect(r.ms).toBeLessThan(6_000 + EXIT_BOUND_MS);
  // The lines typed before the deadline are read, scored and counted (the terminal cut short: not a file searched).
  expect(r.stderr).toMatch(/^simgrep: searched 0 files, 2 lines, 54 bytes in /m);
  const hits = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { filename: string; content: string });
  expect(hits[0]).toMatchObject({ filename: tty, content: 'we retry the failed upload' });
}, 90_000);

it.runIf(process.platform === 'linux')('a device that never blocks (/dev/zero) still ends the run at once', async () => {
  const r = await timed(['retry failed upload', '/dev/zero', '--timeout', '2', '--stats']);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('/dev/zero: binary file (a NUL byte in its first 8 KiB), not searched');
  expect(r.ms).toBeLessThan(2_000 + EXIT_BOUND_MS);
}, 90_000);
