// Locks (issue 28, item 9), with real processes over the built dist/: four processes race to take
// over a stale lock, trial after trial, and exactly one may win each time; the stale lock is left by
// a process that is gone, or names a live pid that a later process reused (its start time differs).
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../helpers/shared.js';

const lockModule = path.join(repoRoot, 'dist', 'src', 'workspace', 'lock.js');
const RACERS = 4;
const TRIALS = 60;

// Each racer waits for "go", tries the lock, says whether it holds it, and releases when told.
const RACER = `
const { tryLock, isLock } = await import(process.argv[2]);
let held = null;
process.on('message', (m) => {
  if (m.go) { const got = tryLock(m.file); held = isLock(got) ? got : null; process.send({ got: held !== null }); }
  if (m.release) { held?.release(); held = null; process.send({ released: true }); }
});
process.send({ ready: true });
`;

let tmp = '';
let racers: ChildProcess[] = [];
const next = (c: ChildProcess) => new Promise<Record<string, unknown>>((r) => c.once('message', (m) => r(m as Record<string, unknown>)));

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-lock-race-'));
  const script = path.join(tmp, 'racer.mjs');
  writeFileSync(script, RACER);
  racers = Array.from({ length: RACERS }, () => fork(script, [lockModule], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] }));
  await Promise.all(racers.map(next));
});
afterAll(() => {
  for (const r of racers) r.kill();
  rmSync(tmp, { recursive: true, force: true });
});

describe('workspace lock', () => {
  it('taking over a stale lock is not atomic: four processes race over many trials and exactly one holds it each time', async () => {
    const dead = fork(path.join(tmp, 'racer.mjs'), [lockModule], { stdio: 'ignore' });
    const deadPid = dead.pid!;
    dead.kill('SIGKILL');
    await new Promise((r) => dead.once('exit', r));
    const file = path.join(tmp, '.simgrep-lock');
    for (let trial = 0; trial < TRIALS; trial++) {
      // Odd trials: a live pid (this test's) with another start time, as when a pid is reused.
      const stale = trial % 2 === 0
        ? { pid: deadPid, host: hostname(), started: 'then', nonce: `dead${trial}` }
        : { pid: process.pid, host: hostname(), started: 'then', startTicks: '1', nonce: `reused${trial}` };
      writeFileSync(file, JSON.stringify(stale));
      const answers = racers.map(next);
      for (const r of racers) r.send({ go: true, file });
      const got = (await Promise.all(answers)).filter((a) => a.got).length;
      expect([trial, got]).toEqual([trial, 1]);
      const released = racers.map(next);
      for (const r of racers) r.send({ release: true });
      await Promise.all(released);
      expect(existsSync(file)).toBe(false);
    }
    // No temp file or takeover marker is left.
    expect(readdirSync(tmp).sort()).toEqual(['racer.mjs']);
  });

  it('a live lock is never taken: its holder (this process, with its own start time) keeps it', async () => {
    const { tryLock, isLock } = await import(lockModule);
    const file = path.join(tmp, 'live-lock');
    const mine = tryLock(file);
    expect(isLock(mine)).toBe(true);
    const answers = racers.map(next);
    for (const r of racers) r.send({ go: true, file });
    expect((await Promise.all(answers)).filter((a) => a.got)).toEqual([]);
    mine.release();
    expect(existsSync(file)).toBe(false);
  });
});
