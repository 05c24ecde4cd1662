// Runs one command as a child process and measures its wall time and peak RSS (GNU time's %M when
// /usr/bin/time exists, else VmHWM sampled from /proc), per-thread CPU from /proc, plus median helpers.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { childPid, createProcSampler } from './proc-sample.js';

export interface RunResult {
  wallMs: number;
  /** Peak resident set size in kB (KiB, as the kernel reports it). */
  peakRssKb: number;
  /** User + system CPU seconds of the whole process (all threads): GNU time's, else the sampled sum. */
  cpuS: number;
  /** Sampled CPU seconds of the main thread, and of every other thread, busiest first (workers, then V8's and libuv's). */
  mainCpuS: number;
  threadCpuS: number[];
  /** 1-minute load average when the run started: how busy the shared machine was. */
  load1: number;
  exitCode: number;
  stdoutBytes: number;
  stderrTail: string;
}

export interface RunOptions { cwd: string; timeoutMs: number; env?: NodeJS.ProcessEnv }

const GNU_TIME = '/usr/bin/time';
export const RSS_METHOD = existsSync(GNU_TIME) ? 'GNU time %M (getrusage maxrss)' : '/proc/<pid>/status VmHWM sampled every 50 ms';
/** Per-thread CPU is sampled; the last interval before exit is missed. */
const SAMPLE_MS = 50;

export function measure(cmd: string, args: string[], opts: RunOptions): Promise<RunResult> {
  const useTime = existsSync(GNU_TIME);
  const tmp = useTime ? mkdtempSync(path.join(os.tmpdir(), 'simgrep-bench-')) : '';
  const rssFile = path.join(tmp, 'rss');
  const [file, argv] = useTime ? [GNU_TIME, ['-f', '%M %U %S', '-o', rssFile, cmd, ...args]] : [cmd, args];
  return new Promise((resolve, reject) => {
    const load1 = os.loadavg()[0];
    const started = process.hrtime.bigint();
    const child = spawn(file, argv, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdoutBytes = 0;
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => { stdoutBytes += b.length; });
    child.stderr.on('data', (b: Buffer) => { stderr = (stderr + b.toString('utf8')).slice(-2000); });
    const sampler = createProcSampler(() => (child.pid === undefined ? null : useTime ? childPid(child.pid) : child.pid));
    const poll = setInterval(() => sampler.sample(), SAMPLE_MS);
    const killer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs);
    child.on('error', (e) => { clearTimeout(killer); clearInterval(poll); reject(e); });
    child.on('close', (code, signal) => {
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      clearTimeout(killer);
      clearInterval(poll);
      let peakRssKb = sampler.peakRssKb;
      let cpuS = sampler.mainCpuS + sampler.otherCpuS.reduce((x, y) => x + y, 0);
      if (useTime) {
        // GNU time writes "Command exited with non-zero status N" before the figures on failure.
        const lines = existsSync(rssFile) ? readFileSync(rssFile, 'utf8').trim().split('\n') : [];
        const [rss, user, sys] = (lines.at(-1) ?? '').split(' ').map(Number);
        peakRssKb = rss || peakRssKb;
        cpuS = user + sys;
        rmSync(tmp, { recursive: true, force: true });
      }
      const exitCode = code ?? (signal ? 128 : 1);
      resolve({
        wallMs, peakRssKb, cpuS, mainCpuS: sampler.mainCpuS, threadCpuS: sampler.otherCpuS, load1, exitCode, stdoutBytes,
        stderrTail: signal ? `killed by ${signal}` : stderr.slice(-500),
      });
    });
  });
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** (max - min) / median: how noisy the repeats were. */
export function spread(xs: number[]): number {
  const m = median(xs);
  return m > 0 ? (Math.max(...xs) - Math.min(...xs)) / m : 0;
}
