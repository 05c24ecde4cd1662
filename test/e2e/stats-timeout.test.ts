// --stats after a --timeout that fires inside one big file (the built CLI, -J 0 and one worker): the file's lines
// and bytes are counted together, for the part scored. Before trust43 its bytes read were counted and none of its
// lines ("searched 0 files, 0 lines, 8,384,532 bytes"): notes42 made the in-process search stop between one
// file's batches, so a --timeout there became common. The cut must land inside the file: the file is a pipe
// (a named pipe) given its first lines and held open, so no --timeout can come after its end, and longer ones
// are tried until one comes after the model's load (a loaded machine); the 8 MiB file on disk checks the same
// counts at whatever point its cuts land (a fast machine may read it whole before the shortest).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { execFileSync, spawn } from 'node:child_process';
import { cliPath, runCli, type CliRun } from '../helpers/cli.js';
import { bigFileLines } from '../helpers/big-file.js';
import { isolatedHome } from '../helpers/isolated-home.js';

let dir = '';
let home: ReturnType<typeof isolatedHome>;
/** Each line's byte length with its terminator. */
let lineBytes: number[] = [];
/** The file's first PIPED lines, written into the pipe. */
const PIPED = 20_000;

beforeAll(() => {
  home = isolatedHome();
  dir = mkdtempSync(path.join(tmpdir(), 'simgrep-stats-timeout-'));
  const lines = bigFileLines();
  writeFileSync(path.join(dir, 'big.ts'), `${lines.join('\n')}\n`);
  lineBytes = readFileSync(path.join(dir, 'big.ts'), 'utf8').split('\n').slice(0, -1).map((l) => Buffer.byteLength(l) + 1);
  writeFileSync(path.join(dir, 'head.txt'), `${lines.slice(0, PIPED).join('\n')}\n`);
  execFileSync('mkfifo', [path.join(dir, 'big.pipe')]);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  home.restore();
});

const STATS = /^simgrep: searched (\S+) files?, (\S+) lines?, (\S+) bytes? in/m;
const num = (s: string) => Number(s.replace(/,/g, ''));

/**
 * The CLI searching `big.pipe`, a named pipe that a writer (sh: cat, then sleep with it open) fills with the
 * file's first PIPED lines and holds open until the CLI has printed its stats line: the pipe has no end before
 * the deadline. (The writer is then ended. Before pipe43 the CLI did not exit until it was, its read of the pipe
 * on libuv's threads never given up: test/e2e/named-pipe.test.ts pins the exit.)
 */
function runOnHeldPipe(args: string[]): Promise<CliRun> {
  const writer = spawn('sh', ['-c', 'exec >"$1"; cat "$2"; exec sleep 120', 'sh', path.join(dir, 'big.pipe'), path.join(dir, 'head.txt')], { stdio: 'ignore' });
  return new Promise<CliRun>((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, ...args], { cwd: dir, env: { ...process.env, HF_HUB_OFFLINE: '1', ...home.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => { stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; if (STATS.test(stderr)) writer.kill(); });
    child.on('error', reject);
    child.on('close', (code) => resolve({ stdout, stderr, code }));
  }).finally(() => writer.kill());
}

/** The stats line's counts, checked: the bytes are those of the file's first lines counted (scored in order). */
function counted(r: CliRun): { files: number; lines: number; bytes: number } {
  const m = STATS.exec(r.stderr);
  expect(m, r.stderr).not.toBeNull();
  const [files, lines, bytes] = [num(m![1]), num(m![2]), num(m![3])];
  // Before: `0 lines, 8,384,532 bytes` (or N lines and all 8 MiB, with workers).
  expect({ files, lines, bytes }).toEqual({ files, lines, bytes: lineBytes.slice(0, lines).reduce((a, b) => a + b, 0) });
  return { files, lines, bytes };
}

for (const workers of ['0', '1']) {
  it(`-J ${workers}: a --timeout inside a file (a pipe held open) counts the lines scored and their bytes, together`, async () => {
    // Longer timeouts until one comes after the model's load: each cut is inside the file (the pipe never ends).
    let within: { lines: number; bytes: number } | null = null;
    for (const seconds of ['0.5', '1', '2', '4', '8']) {
      const r = await runOnHeldPipe(['retry the failed upload', 'big.pipe', '--stats', '--timeout', seconds, '-J', workers, '--top-k', '3']);
      const c = counted(r);
      expect(c.files, r.stderr).toBe(0);
      expect(r.stderr).toContain('stopped after the --timeout');
      if (c.lines > 0) { within = c; break; }
    }
    expect(within, 'no --timeout came after the model was loaded').not.toBeNull();
    expect(within!.lines).toBeLessThanOrEqual(PIPED);
  }, 120_000);

  it(`-J ${workers}: a --timeout in the 8 MiB file on disk: whatever the cut, the lines counted and their bytes agree`, async () => {
    // Short to longer, until one lands inside the file or after its end (a fast machine); each is checked.
    for (const seconds of ['0.3', '0.8', '2']) {
      const r = await runCli(['retry the failed upload', 'big.ts', '--stats', '--timeout', seconds, '-J', workers, '--top-k', '3'], { cwd: dir, env: home.env });
      const c = counted(r);
      if (c.files === 1) { expect(c.lines).toBe(lineBytes.length); break; }
      expect(r.stderr).toContain('stopped after the --timeout');
      if (c.lines > 0) break;
    }
  }, 120_000);
}

it('--stats counts the time from where --timeout\'s clock starts (the model\'s load and the pool\'s start too): a 1 s deadline says 1,000 ms or more', async () => {
  // Before session 47 the stats counted from the pipeline's start, after the model's load: `in 812 ms` for a
  // --timeout 1 that stopped the search a second after it started.
  const r = await runOnHeldPipe(['retry the failed upload', 'big.pipe', '--stats', '--timeout', '1', '-J', '0', '--top-k', '3']);
  expect(r.stderr).toContain('stopped after the --timeout of 1 s');
  const ms = /^simgrep: searched .* in (\S+) ms;/m.exec(r.stderr);
  expect(ms, r.stderr).not.toBeNull();
  expect(num(ms![1])).toBeGreaterThanOrEqual(1000);
}, 60_000);
