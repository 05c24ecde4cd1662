// Runs one command as a child process and measures its wall time and peak RSS (GNU time's %M when
// /usr/bin/time exists, else the last VmHWM polled from /proc/<pid>/status), plus median helpers.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface RunResult {
  wallMs: number;
  /** Peak resident set size in kB (KiB, as the kernel reports it). */
  peakRssKb: number;
  exitCode: number;
  stdoutBytes: number;
  stderrTail: string;
}

export interface RunOptions { cwd: string; timeoutMs: number; env?: NodeJS.ProcessEnv }

const GNU_TIME = '/usr/bin/time';
export const RSS_METHOD = existsSync(GNU_TIME) ? 'GNU time %M (getrusage maxrss)' : '/proc/<pid>/status VmHWM polled every 10 ms';

function readHwmKb(pid: number): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

export function measure(cmd: string, args: string[], opts: RunOptions): Promise<RunResult> {
  const useTime = existsSync(GNU_TIME);
  const tmp = useTime ? mkdtempSync(path.join(os.tmpdir(), 'simgrep-bench-')) : '';
  const rssFile = path.join(tmp, 'rss');
  const [file, argv] = useTime ? [GNU_TIME, ['-f', '%M', '-o', rssFile, cmd, ...args]] : [cmd, args];
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(file, argv, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdoutBytes = 0;
    let stderr = '';
    let polledKb = 0;
    child.stdout.on('data', (b: Buffer) => { stdoutBytes += b.length; });
    child.stderr.on('data', (b: Buffer) => { stderr = (stderr + b.toString('utf8')).slice(-2000); });
    const poll = useTime ? null : setInterval(() => {
      const kb = child.pid ? readHwmKb(child.pid) : null;
      if (kb !== null) polledKb = Math.max(polledKb, kb);
    }, 10);
    const killer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs);
    child.on('error', (e) => { clearTimeout(killer); if (poll) clearInterval(poll); reject(e); });
    child.on('close', (code, signal) => {
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      clearTimeout(killer);
      if (poll) clearInterval(poll);
      let peakRssKb = polledKb;
      if (useTime) {
        // GNU time writes "Command exited with non-zero status N" before the figure on failure.
        const lines = existsSync(rssFile) ? readFileSync(rssFile, 'utf8').trim().split('\n') : [];
        peakRssKb = Number(lines.at(-1) ?? 0) || 0;
        rmSync(tmp, { recursive: true, force: true });
      }
      const exitCode = code ?? (signal ? 128 : 1);
      resolve({ wallMs, peakRssKb, exitCode, stdoutBytes, stderrTail: signal ? `killed by ${signal}` : stderr.slice(-500) });
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
