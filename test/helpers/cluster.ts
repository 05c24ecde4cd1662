// Cluster workers for tests: the built CLI's `simgrep worker`, spawned as a real process, its stderr
// collected, ready once it says it listens; stopped (or killed) by its pid.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Redis } from 'ioredis';
import { cliPath } from './cli.js';

export interface WorkerProcess {
  proc: ChildProcess;
  pid: number;
  log(): string;
  /** Resolves when the worker's stderr matches (rejects after timeoutMs). */
  waitFor(re: RegExp, timeoutMs?: number): Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** `allow`: the roots the worker lets jobs reach (--allow each); none given, the worker refuses to start. */
export async function startWorker(url: string, o: { env?: Record<string, string>; args?: string[]; cwd?: string; allow?: string[] } = {}): Promise<WorkerProcess> {
  const allow = (o.allow ?? []).flatMap((a) => ['--allow', a]);
  const proc = spawn(process.execPath, [cliPath, 'worker', '--cluster', url, '-J', '1', ...allow, ...(o.args ?? [])], {
    cwd: o.cwd, env: { ...process.env, HF_HUB_OFFLINE: '1', SIMGREP_CLUSTER_STALL_MS: '1500', ...o.env }, stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  const waiters = new Set<() => void>();
  proc.stderr!.setEncoding('utf8').on('data', (d: string) => { err += d; for (const w of waiters) w(); });
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  const w: WorkerProcess = {
    proc,
    pid: proc.pid!,
    log: () => err,
    waitFor(re, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => { if (re.test(err)) { waiters.delete(check); clearTimeout(t); resolve(); } };
        const t = setTimeout(() => { waiters.delete(check); reject(new Error(`worker did not log ${re} in ${timeoutMs} ms: ${err}`)); }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async stop(signal = 'SIGTERM') {
      if (proc.exitCode === null && proc.signalCode === null) process.kill(proc.pid!, signal);
      return exited;
    },
  };
  await w.waitFor(/listening for shards/);
  return w;
}

/** Jobs in a BullMQ list ('wait', 'active') of every simgrep queue (each build and model has its own: queueName). */
export async function queued(r: Redis, list: 'wait' | 'active'): Promise<number> {
  const keys = await r.keys(`simgrep:shards*:${list}`);
  const lengths = await Promise.all(keys.map((k) => r.llen(k)));
  return lengths.reduce((a, b) => a + b, 0);
}
