// Whoever can write to Redis can write a job (issue 28, item 2). With a real redis-server and a real
// `simgrep worker --allow ...`, jobs forged straight into the BullMQ queue (as an attacker with Redis
// access would) must not delete, create or read anything outside what the worker's operator allows;
// a refused job is reported to the coordinator, and a legitimate job is logged with what it reads and writes.
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueName } from '../../src/cluster/protocol.js';
import { runCli } from '../helpers/cli.js';
import { startWorker, type WorkerProcess } from '../helpers/cluster.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';

let redis: RedisServer;
let client: Redis;
let queue: Queue;
let queueConnection: Redis;
let home: string;
let allowed: string;
let outside: string;
let worker: WorkerProcess;
let me: { protocol: number; simgrep: string; model: string; formats: string };
let env: Record<string, string>;

/** Every file and directory under `dir` (relative), sorted: what must survive a forged job unchanged. */
function tree(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      out.push(path.relative(dir, p) + (e.isDirectory() ? '/' : ''));
      if (e.isDirectory() && !e.isSymbolicLink()) walk(p);
    }
  };
  walk(dir);
  return out.sort();
}

/** Enqueues a job as an attacker with Redis access would: its query marked alive so the worker takes it. */
async function forge(kind: 'search' | 'index', data: Record<string, unknown>): Promise<void> {
  await client.set(`simgrep:q:${String(data.queryId)}:alive`, '1', 'PX', 60_000);
  await queue.add(kind, data, { removeOnComplete: true, removeOnFail: true });
}

/** The result the worker pushed for a (forged) query, or null when none came within timeoutMs. */
async function resultOf(queryId: string, timeoutMs = 20_000): Promise<Record<string, unknown> | null> {
  const blocking = client.duplicate(); // a blocking pop holds its connection
  try {
    const popped = await blocking.blpop(`simgrep:q:${queryId}:results`, timeoutMs / 1000);
    return popped ? JSON.parse(popped[1]) as Record<string, unknown> : null;
  } finally { blocking.disconnect(); }
}

beforeAll(async () => {
  home = realpathSync(await mkdtemp(path.join(tmpdir(), 'simgrep-cluster-trust-')));
  env = { HOME: home, SIMGREP_HOME: path.join(home, 'simgrep-home'), SIMGREP_CACHE_DIR: path.join(home, 'cache') };
  allowed = path.join(home, 'allowed');
  outside = path.join(home, 'outside');
  mkdirSync(path.join(allowed, 'src'), { recursive: true });
  writeFileSync(path.join(allowed, 'src', 'retry.ts'), 'export function retryFailedUpload() { return upload.retry(); }\n');
  // Sentinels outside the allowed root: directories named as a staging database would be, and a secret.
  for (const a of [0, 1, 2, 3]) {
    mkdirSync(path.join(outside, `victim-0-${a}`), { recursive: true });
    writeFileSync(path.join(outside, `victim-0-${a}`, 'keep.txt'), 'precious\n');
  }
  writeFileSync(path.join(outside, 'passwd'), 'root:x:0:0:root:/root:/bin/bash\n');
  symlinkSync(outside, path.join(allowed, 'link-out'));
  redis = await startRedis();
  client = new Redis(redis.url, { maxRetriesPerRequest: null });
  queueConnection = client.duplicate();
  worker = await startWorker(redis.url, { allow: [allowed], env });
  const info = Object.values(await client.hgetall('simgrep:worker-info')).map((v) => JSON.parse(v) as typeof me)[0];
  // A forged job that passes the version check (protocol, build, word formats, model): what the worker then checks.
  me = { protocol: info.protocol, simgrep: info.simgrep, model: info.model, formats: info.formats };
  // The queue the worker listens on: named for its build and model (what a coordinator like it uses).
  queue = new Queue(queueName(me), { connection: queueConnection, prefix: 'simgrep' });
}, 60_000);

afterAll(async () => {
  await worker?.stop('SIGKILL');
  await queue?.close();
  queueConnection?.disconnect();
  client?.disconnect();
  await redis?.stop();
  await rm(home, { recursive: true, force: true });
});

const indexJob = (over: Record<string, unknown>) => ({
  ...me, queryId: '0123456789ab', n: 0, indexDir: path.join(allowed, 'idx'), chunkLines: 48,
  entries: [{ s: 0, path: path.join(allowed, 'src', 'retry.ts'), size: 62 }], prev: [], ...over,
});
const searchJob = (over: Record<string, unknown>) => ({
  ...me, queryId: 'ba9876543210', n: 0, roots: [allowed], cwd: home, options: { query: 'root', mode: 'line', topK: 5 },
  entries: [{ s: 0, path: path.join(allowed, 'src', 'retry.ts') }], ...over,
});

describe('forged jobs (whoever can write to Redis)', () => {
  it('an index job whose queryId climbs out with ../ deletes and creates nothing outside: dropped unread', async () => {
    const before = tree(home);
    const queryId = `../../../${path.basename(outside)}/victim`;
    await forge('index', indexJob({ queryId }));
    // Whatever the worker does with it (before the fix: it ran it, and logged the shard), it is done within seconds.
    await worker.waitFor(/dropped job|index shard/);
    expect(tree(home)).toEqual(before);
    for (const a of [0, 1, 2, 3]) expect(readFileSync(path.join(outside, `victim-0-${a}`, 'keep.txt'), 'utf8')).toBe('precious\n');
    expect(worker.log()).toMatch(/dropped job .*not a simgrep job: queryId .* is not a run id of 12 hex digits/);
    expect(await resultOf(queryId, 1000)).toBeNull();
  }, 60_000);

  it('an index job whose indexDir has .. segments is refused and reported; no LanceDB database appears anywhere', async () => {
    const before = tree(home);
    const queryId = '00000000000a';
    await forge('index', indexJob({ queryId, indexDir: `${allowed}/idx/../../${path.basename(outside)}` }));
    const r = await resultOf(queryId);
    expect(r).toMatchObject({ n: 0, error: { code: 'CLUSTER_JOB_REFUSED' } });
    expect((r!.error as { message: string }).message).toMatch(/refused the job: indexDir ".*\/idx\/\.\.\/\.\.\/outside" is neither an absolute canonical path nor a canonical s3:\/\/ URI/);
    expect(tree(home)).toEqual(before);
    expect(existsSync(path.join(outside, 'staging'))).toBe(false);
  }, 60_000);

  it('a canonical index job writing outside the allowed roots (directly, or through a symlink in them) is refused: nothing created there', async () => {
    const before = tree(home);
    for (const [queryId, indexDir] of [['00000000000b', outside], ['00000000000c', path.join(allowed, 'link-out')]]) {
      await forge('index', indexJob({ queryId, indexDir }));
      const r = await resultOf(queryId);
      const real = `${outside}/staging/${queryId}-0-\\d+`;
      const shown = indexDir === outside ? real : `${indexDir}/staging/${queryId}-0-\\d+ \\(really ${real}\\)`;
      expect((r?.error as { message?: string } | undefined)?.message).toMatch(new RegExp(`the job would write to ${shown}, outside the roots this worker allows \\(${allowed}\\)`));
    }
    expect(tree(home)).toEqual(before);
  }, 60_000);

  it('an index job reading a file outside the allowed roots is refused', async () => {
    await forge('index', indexJob({ queryId: '00000000000d', entries: [{ s: 0, path: path.join(outside, 'passwd') }] }));
    const r = await resultOf('00000000000d');
    expect((r?.error as { message?: string } | undefined)?.message).toMatch(/the job would read .*\/outside\/passwd, outside the roots/);
    expect(existsSync(path.join(allowed, 'idx'))).toBe(false);
  }, 60_000);

  it('a search job reading /etc/passwd or a file outside the roots (also through a symlink inside) is refused: no line comes back', async () => {
    const cases: [string, Record<string, unknown>][] = [
      ['0000000000e1', { roots: ['/etc'], entries: [{ s: 0, path: '/etc/passwd' }] }],
      ['0000000000e2', { entries: [{ s: 0, path: path.join(outside, 'passwd') }] }],
      ['0000000000e3', { entries: [{ s: 0, path: 'allowed/link-out/passwd' }] }],
      ['0000000000e4', { entries: [{ s: 0, path: 'allowed/../outside/passwd' }] }],
    ];
    for (const [queryId, over] of cases) {
      await forge('search', searchJob({ queryId, ...over }));
      const r = await resultOf(queryId);
      expect({ queryId, hits: r?.hits, code: (r?.error as { code?: string } | undefined)?.code }).toEqual({ queryId, hits: undefined, code: 'CLUSTER_JOB_REFUSED' });
      expect((r!.error as { message: string }).message).toMatch(/the job would read (\/etc|\S*passwd( \(really \S*\/outside\/passwd\))?), outside the roots this worker allows/);
    }
  }, 60_000);

  it('a search job pointing the worker\'s S3 client at another endpoint is refused', async () => {
    await forge('search', searchJob({ queryId: '0000000000f1', options: { query: 'root', remote: { s3Endpoint: 'http://127.0.0.1:1' } } }));
    const r = await resultOf('0000000000f1');
    expect((r?.error as { message?: string } | undefined)?.message).toMatch(/points this worker's S3 client at http:\/\/127\.0\.0\.1:1, not its own endpoint/);
  }, 60_000);
});

describe('the coordinator and the operator', () => {
  it('a search of a path outside the worker\'s roots fails with the worker\'s reason (exit 2); one inside is logged with what it reads', async () => {
    const refused = await runCli(['root', outside, '--mode', 'line', '--cluster', redis.url], { env });
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/refused the job: the job would read .*outside.*, outside the roots this worker allows \(.*allowed\); start the worker with --allow covering it, or --allow-any-path/);
    const ok = await runCli(['retry failed upload', allowed, '--cluster', redis.url], { env });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('retryFailedUpload');
    expect(worker.log()).toMatch(new RegExp(`job [0-9a-f]{12}/0 search: reads 1 file under ${allowed}; writes nothing`));
  }, 60_000);

  it('a worker started with neither --allow nor --allow-any-path refuses to start and says how to fix it', async () => {
    const r = await runCli(['worker', '--cluster', redis.url], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('simgrep worker needs to know what jobs may read and write: --allow DIR or --allow s3://bucket/prefix/');
  }, 30_000);
});
