// A real redis-server for tests and benches: a free loopback port, no persistence, a temp dir, stopped
// by its pid. A machine without redis-server fails with the reason (never a silent skip).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface RedisServer {
  url: string;
  port: number;
  pid: number;
  proc: ChildProcess;
  /** Stops it by its pid (SIGTERM, or SIGKILL for a crash) and removes its directory. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export function redisServerMissing(): string | null {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (probe.error) return `redis-server is not installed (${(probe.error as NodeJS.ErrnoException).code}): install it with apt-get install -y redis-server (.ci/run does)`;
  return null;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export async function startRedis(o: { password?: string } = {}): Promise<RedisServer> {
  const missing = redisServerMissing();
  if (missing) throw new Error(missing);
  const dir = await mkdtemp(path.join(tmpdir(), 'simgrep-redis-'));
  const port = await freePort();
  const args = [
    '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir,
    '--maxmemory-policy', 'noeviction', '--daemonize', 'no', '--loglevel', 'warning',
    ...(o.password ? ['--requirepass', o.password] : []),
  ];
  const proc = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.setEncoding('utf8').on('data', (d: string) => { out += d; });
  proc.stderr!.setEncoding('utf8').on('data', (d: string) => { out += d; });
  await new Promise<void>((resolve, reject) => {
    const deadline = Date.now() + 10_000;
    proc.once('exit', (code) => reject(new Error(`redis-server exited (${code}) before listening: ${out}`)));
    const poll = () => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => { s.destroy(); resolve(); });
      s.once('error', () => {
        s.destroy();
        if (Date.now() > deadline) reject(new Error(`redis-server did not listen on ${port} in 10 s: ${out}`));
        else setTimeout(poll, 50);
      });
    };
    poll();
  });
  const auth = o.password ? `:${encodeURIComponent(o.password)}@` : '';
  return {
    url: `redis://${auth}127.0.0.1:${port}`,
    port,
    pid: proc.pid!,
    proc,
    async stop(signal = 'SIGTERM') {
      if (proc.exitCode === null && proc.signalCode === null) {
        const exited = new Promise((r) => proc.once('exit', r));
        process.kill(proc.pid!, signal);
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
