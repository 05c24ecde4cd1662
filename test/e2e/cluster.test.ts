// Cluster search end to end, with real processes: redis-server on a free loopback port, s3rver serving
// a generated tree, `simgrep worker` processes and the CLI as coordinator. The answer must be the one
// machine's answer, byte for byte, whatever the worker count and shard size, and through each fault.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusFiles } from '../../bench/remote-s3.js';
import { generateTree } from '../../bench/corpus.js';
import { DeleteObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { cliPath, runCli, type CliRun } from '../helpers/cli.js';
import { queued, startWorker, type WorkerProcess } from '../helpers/cluster.js';
import { freePort, startRedis, type RedisServer } from '../helpers/redis-server.js';
import { S3RVER_KEYS, putObject, seedObjects, startS3rver, type S3Server } from '../helpers/s3-server.js';
import { startProxy, type Proxy } from '../helpers/tcp-proxy.js';
import { readFileSync, writeFileSync } from 'node:fs';

const BUCKET = 'tree';
const QUERIES: string[][] = [
  ['retry the failed request after a timeout', '--json', '--top-k', '5'],
  ['parse the config file', '--mode', 'line', '--top-k', '12', '--jsonl'],
];

let redis: RedisServer;
let s3: S3Server;
let home: string;
/** What the tests' workers let jobs reach: the test's temp dir and its buckets (simgrep worker --allow). */
const allowed = () => [home, `s3://${BUCKET}/`];
let env: Record<string, string>;
let keys: string[];
const workers: WorkerProcess[] = [];
const baseline = new Map<string, CliRun>();

const s3Env = (endpoint: string) => ({
  HOME: home, AWS_PROFILE: '', AWS_DEFAULT_PROFILE: '', AWS_REGION: 'us-east-1', AWS_SESSION_TOKEN: '',
  AWS_ACCESS_KEY_ID: S3RVER_KEYS.accessKeyId, AWS_SECRET_ACCESS_KEY: S3RVER_KEYS.secretAccessKey,
  AWS_ENDPOINT_URL: endpoint, AWS_ENDPOINT_URL_S3: '', AWS_SHARED_CREDENTIALS_FILE: '', AWS_CONFIG_FILE: '',
  SIMGREP_REMOTE_TIMEOUT_MS: '60000', SIMGREP_REMOTE_RETRIES: '1',
});
const uri = `s3://${BUCKET}/src/`;
const cluster = (args: string[], url = redis.url, extra: Record<string, string> = {}) =>
  runCli([...args, uri, '--cluster', url], { env: { ...env, ...extra } });
const stopWorkers = async () => { await Promise.all(workers.splice(0).map((w) => w.stop('SIGKILL'))); };

async function inspect(url: string): Promise<{ wait: number; active: number; queryKeys: string[] }> {
  const r = new Redis(url, { lazyConnect: true });
  await r.connect();
  try {
    const [wait, active, queryKeys] = await Promise.all([queued(r, 'wait'), queued(r, 'active'), r.keys('simgrep:q:*')]);
    return { wait, active, queryKeys };
  } finally { r.disconnect(); }
}

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The CLI as a background process, for faults injected while it runs. */
function spawnCli(args: string[], extra: Record<string, string> = {}) {
  const proc = spawn(process.execPath, [cliPath, ...args], { env: { ...process.env, HF_HUB_OFFLINE: '1', ...env, ...extra }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  proc.stdout!.setEncoding('utf8').on('data', (d: string) => { stdout += d; });
  proc.stderr!.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
  const done = new Promise<CliRun & { signal: NodeJS.Signals | null; ms: number }>((resolve) => {
    const t0 = Date.now();
    proc.on('close', (code, signal) => resolve({ stdout, stderr, code, signal, ms: Date.now() - t0 }));
  });
  return { proc, done, stderr: () => stderr };
}

/** A proxy in front of s3rver that holds every object GET (never answered): a worker behind it is stuck mid-shard. */
const holdingProxy = (): Promise<Proxy> => startProxy(Number(new URL(s3.endpoint).port), (line) => (line.startsWith('GET') && !line.includes('list-type') ? new Promise<void>(() => {}) : undefined));

async function deleteObject(key: string): Promise<void> {
  const client = new S3Client({ region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: S3RVER_KEYS });
  try { await client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: key })); } finally { client.destroy(); }
}

beforeAll(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'simgrep-cluster-'));
  redis = await startRedis();
  s3 = await startS3rver({ buckets: [BUCKET] });
  env = s3Env(s3.endpoint);
  const tree = path.join(home, 'tree');
  generateTree({ out: tree, lines: 12_000, seed: 7 });
  keys = corpusFiles(tree);
  await seedObjects(s3.endpoint, BUCKET, Object.fromEntries(keys.map((k) => [`src/${k}`, readFileSync(path.join(tree, k))])));
  for (const q of QUERIES) baseline.set(q.join(' '), await runCli([...q, uri], { env }));
});

afterAll(async () => {
  await stopWorkers();
  await redis?.stop();
  await s3?.stop();
  await rm(home, { recursive: true, force: true });
});

describe('cluster search', () => {
  it('a search on one machine loads neither BullMQ nor ioredis (its start-up is unchanged)', async () => {
    const hook = path.join(home, 'hook.mjs');
    // The coordinator is cluster/coordinator.js, or its part of the bundled CLI (bundle-coordinator-<hash>.js).
    writeFileSync(hook, 'export async function resolve(s, c, n) { if (/^(bullmq|ioredis)$|(^|\\/)cluster\\/|bundle-coordinator-/.test(s)) process.stderr.write(`LOADED ${s}\\n`); return n(s, c); }\n');
    const run = (extra: string[]) => new Promise<string>((resolve) => {
      const p = spawn(process.execPath, ['--no-warnings', '--experimental-loader', hook, cliPath, 'retry the request', path.join(home, 'tree'), '-J', '0', ...extra], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      p.stderr!.setEncoding('utf8').on('data', (d: string) => { err += d; });
      p.on('close', () => resolve(err));
    });
    expect((await run([])).match(/LOADED .*/g)).toBeNull();
    expect((await run(['--cluster', `redis://127.0.0.1:${await freePort()}`])).match(/LOADED .*/g)?.map((l) => l.replace(/bundle-coordinator-\w+\.js/, 'cluster/coordinator.js'))).toEqual(['LOADED ./cluster/coordinator.js', 'LOADED ioredis']);
  });

  it('answers exactly as one machine with 1, 2 and 4 workers and shards from tiny to large', async () => {
    for (const q of QUERIES) {
      const b = baseline.get(q.join(' '))!;
      expect(b.code, b.stderr).toBe(0);
      expect(b.stdout.length).toBeGreaterThan(100);
    }
    for (const count of [1, 2, 4]) {
      while (workers.length < count) workers.push(await startWorker(redis.url, { allow: allowed(), env }));
      for (const shard of ['4K', '64K', '1G']) {
        for (const q of QUERIES) {
          const r = await cluster([...q, '--shard-size', shard]);
          const b = baseline.get(q.join(' '))!;
          expect({ workers: count, shard, query: q[0], code: r.code, stdout: r.stdout }).toEqual({ workers: count, shard, query: q[0], code: b.code, stdout: b.stdout });
        }
      }
    }
    // Each worker logs one line per shard it searched; with tiny shards all four took some.
    for (const w of workers) expect(w.log()).toMatch(/shard [0-9a-f]+\/\d+: \d+ files, \d+ lines/);
    expect((await inspect(redis.url)).queryKeys).toEqual([]);
  }, 180_000);

  it('a file that two of the paths reach is searched once, as on one machine', async () => {
    while (workers.length < 2) workers.push(await startWorker(redis.url, { allow: allowed(), env }));
    const tree = path.join(home, 'tree');
    const args = ['retry the failed request after a timeout', path.join(tree, keys[0]), tree, '--json', '--top-k', '5', '--stats', '-J', '0'];
    const one = await runCli(args, { env });
    const many = await runCli([...args, '--cluster', redis.url], { env });
    const files = (r: CliRun) => /searched ([\d,]+) files/.exec(r.stderr)?.[1];
    expect({ code: many.code, stdout: many.stdout, files: files(many) }).toEqual({ code: one.code, stdout: one.stdout, files: files(one) });
    expect(files(one)).toBe(String(keys.length).replace(/\B(?=(\d{3})+$)/g, ','));
  }, 120_000);

  it('a worker killed with kill -9 mid-shard: its shard is redelivered and the answer is exact', async () => {
    await stopWorkers();
    const proxy = await holdingProxy();
    try {
      const victim = await startWorker(redis.url, { allow: allowed(), env: { ...env, AWS_ENDPOINT_URL: proxy.endpoint } });
      const q = QUERIES[0];
      const run = spawnCli([...q, uri, '--cluster', redis.url, '--shard-size', '1G']);
      await until('the victim to be stuck reading', () => proxy.requests.some((l) => l.startsWith('GET') && !l.includes('list-type')));
      await victim.stop('SIGKILL');
      workers.push(await startWorker(redis.url, { allow: allowed(), env }));
      const r = await run.done;
      expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 0, stdout: baseline.get(q.join(' '))!.stdout });
      expect(workers[0].log()).toMatch(/shard [0-9a-f]+\/0:/);
    } finally { proxy.cut(); await proxy.close(); }
  }, 60_000);

  it('SIGTERM: a worker stuck mid-shard hands it back after its grace period and exits 0; another finishes it exactly', async () => {
    await stopWorkers();
    const proxy = await holdingProxy();
    try {
      const leaving = await startWorker(redis.url, { allow: allowed(), env: { ...env, AWS_ENDPOINT_URL: proxy.endpoint, SIMGREP_CLUSTER_GRACE_MS: '1000' } });
      const q = QUERIES[1];
      const run = spawnCli([...q, uri, '--cluster', redis.url, '--shard-size', '1G']);
      await until('the worker to be stuck reading', () => proxy.requests.some((l) => l.startsWith('GET') && !l.includes('list-type')));
      expect(await leaving.stop('SIGTERM')).toBe(0);
      expect(leaving.log()).toMatch(/SIGTERM: finishing the running shards, then exiting\n.*handed back shard [0-9a-f]+\/0: this worker is stopping/s);
      workers.push(await startWorker(redis.url, { allow: allowed(), env }));
      const r = await run.done;
      expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 0, stdout: baseline.get(q.join(' '))!.stdout });
    } finally { proxy.cut(); await proxy.close(); }
  }, 60_000);

  it('an object deleted mid-query is a per-source error: every other result printed, exit 2', async () => {
    await stopWorkers();
    const q = QUERIES[0];
    const victimKey = `src/${keys[Math.floor(keys.length / 2)]}`;
    const run = spawnCli([...q, uri, '--cluster', redis.url, '--shard-size', '16K']);
    await until('the notice that no worker listens', () => /no worker is listening/.test(run.stderr()));
    await deleteObject(victimKey);
    const expected = await runCli([...q, uri], { env });
    workers.push(await startWorker(redis.url, { allow: allowed(), env }));
    const r = await run.done;
    await putObject(s3.endpoint, BUCKET, victimKey, readFileSync(path.join(home, 'tree', victimKey.slice('src/'.length))));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`s3://${BUCKET}/${victimKey}`);
    expect(r.stdout).toBe(expected.stdout);
    expect(expected.code).toBe(0);
  }, 60_000);

  // With no worker listening, each bound ends the wait: exit 2, what was not searched said, nothing left in Redis.
  it.each([
    {
      name: 'no worker listening: says so within seconds, and --cluster-timeout bounds the wait', flags: ['--cluster-timeout', '4'], maxMs: 9000,
      messages: [/no worker is listening on redis:\/\/127\.0\.0\.1:\d+; start one with: simgrep worker --cluster/, /for 4 s \(--cluster-timeout\)/],
    },
    {
      // The --timeout counts from the search's start, the model's load and the listing inside it: 2 s was
      // less than those take at a load of 10 on 2 cores ("0 of 0 shards listed so far"), so 4 s.
      name: '--timeout: the results so far, the shards not searched named, and they leave the queue', flags: ['--timeout', '4'], maxMs: 9000,
      messages: [/stopped after the --timeout of 4 s: the results found so far are shown; 1 of 1 shards were not searched/],
    },
  ])('$name', async ({ flags, maxMs, messages }) => {
    await stopWorkers();
    const r = await spawnCli([...QUERIES[0], uri, '--cluster', redis.url, ...flags]).done;
    expect(r.code).toBe(2);
    for (const m of messages) expect(r.stderr).toMatch(m);
    expect(r.ms).toBeLessThan(maxMs);
    expect(await inspect(redis.url)).toEqual({ wait: 0, active: 0, queryKeys: [] });
  }, 30_000);

  it('Redis unreachable at start: a clear error within 5 s, exit 2, the password never printed', async () => {
    const port = await freePort();
    const t0 = Date.now();
    const r = await cluster(QUERIES[0], `redis://:hunter2secret@127.0.0.1:${port}`);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`cannot connect to Redis at redis://:***@127.0.0.1:${port} (ECONNREFUSED)`);
    expect(r.stderr + r.stdout).not.toContain('hunter2secret');
    const tls = await cluster(QUERIES[0], `rediss://:hunter2secret@127.0.0.1:${redis.port}`);
    expect(tls.code).toBe(2);
    expect(tls.stderr).toMatch(/cannot connect to Redis at rediss:\/\/:\*\*\*@127\.0\.0\.1/);
    expect(tls.stderr + tls.stdout).not.toContain('hunter2secret');
  }, 30_000);

  it('a Redis with a password: workers and coordinator connect, the password is never printed', async () => {
    await stopWorkers();
    const secured = await startRedis({ password: 'pa55-w0rd' });
    try {
      const w = await startWorker(secured.url, { allow: allowed(), env });
      const q = QUERIES[1];
      // The URL from $SIMGREP_CLUSTER, as a user sets it once per shell.
      const r = await runCli([...q, uri], { env: { ...env, SIMGREP_CLUSTER: secured.url } });
      await w.stop();
      expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 0, stdout: baseline.get(q.join(' '))!.stdout });
      expect(w.log() + r.stderr).not.toContain('pa55-w0rd');
      const wrong = await cluster(q, secured.url.replace('pa55-w0rd', 'wrong-one'));
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toMatch(/Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:\d+ .*check the password/);
      expect(wrong.stderr).not.toContain('wrong-one');
    } finally { await secured.stop(); }
  }, 60_000);

  it('Redis killed mid-query: a clear error, no hang, nothing left running', async () => {
    await stopWorkers();
    const doomed = await startRedis();
    const proxy = await holdingProxy();
    try {
      const stuck = await startWorker(doomed.url, { allow: allowed(), env: { ...env, AWS_ENDPOINT_URL: proxy.endpoint } });
      workers.push(stuck);
      const run = spawnCli([...QUERIES[0], uri, '--cluster', doomed.url]);
      await until('a shard to be running', () => proxy.requests.some((l) => l.startsWith('GET') && !l.includes('list-type')));
      await doomed.stop('SIGKILL');
      const r = await run.done;
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/lost the connection to Redis at redis:\/\/127\.0\.0\.1:\d+ during the query/);
      expect(r.ms).toBeLessThan(15_000);
      expect(run.proc.exitCode).toBe(2); // the coordinator is gone, not hung in the background
    } finally { proxy.cut(); await proxy.close(); await stopWorkers(); }
  }, 60_000);

  it('Ctrl-C of the coordinator removes its pending shards and keys at once', async () => {
    await stopWorkers();
    const proxy = await holdingProxy();
    try {
      workers.push(await startWorker(redis.url, { allow: allowed(), env: { ...env, AWS_ENDPOINT_URL: proxy.endpoint } }));
      const run = spawnCli([...QUERIES[0], uri, '--cluster', redis.url, '--shard-size', '8K']);
      await until('shards waiting', async () => (await inspect(redis.url)).wait > 0);
      run.proc.kill('SIGINT');
      const r = await run.done;
      expect(r.signal).toBe('SIGINT');
      expect(await inspect(redis.url)).toMatchObject({ wait: 0, queryKeys: [] });
      // The running shard is stopped by its worker within a second or two (its query key is gone).
      await until('the running shard to stop', async () => (await inspect(redis.url)).active === 0, 10_000);
    } finally { proxy.cut(); await proxy.close(); await stopWorkers(); }
  }, 60_000);

  it('a coordinator killed with kill -9: its shards expire and are dropped unread, results carry a TTL', async () => {
    await stopWorkers();
    const run = spawnCli([...QUERIES[0], uri, '--cluster', redis.url, '--shard-size', '8K'], { SIMGREP_CLUSTER_ALIVE_MS: '2000' });
    await until('shards waiting', async () => (await inspect(redis.url)).wait > 3);
    run.proc.kill('SIGKILL');
    await run.done;
    // Nobody renews the query's key now: it lapses (2 s here), and its shards are worthless from then on.
    await until('the query key to lapse', async () => !(await inspect(redis.url)).queryKeys.some((k) => k.endsWith(':alive')), 5000);
    const w = await startWorker(redis.url, { allow: allowed(), env });
    workers.push(w);
    await until('the dead query\'s shards to be dropped', async () => {
      const s = await inspect(redis.url);
      return s.wait === 0 && s.active === 0 && !s.queryKeys.some((k) => k.endsWith(':alive'));
    }, 20_000);
    // A result pushed just before the query's key lapsed is never read: it expires by itself.
    const r = new Redis(redis.url);
    try {
      for (const k of (await inspect(redis.url)).queryKeys) {
        const ttl = await r.pttl(k);
        expect({ k, expires: ttl > 0 && ttl <= 300_000 }).toEqual({ k, expires: true });
      }
    } finally { r.disconnect(); }
    expect(w.log()).toMatch(/dropped shard [0-9a-f]+\/\d+: its query was cancelled or its coordinator is gone/);
  }, 60_000);

  it('a worker with another model takes none of the query\'s shards, and the query says which models differ', async () => {
    await stopWorkers();
    const other = await mkdtemp(path.join(tmpdir(), 'simgrep-model-'));
    try {
      const { writeTinyModel } = await import('../helpers/tiny-model.js');
      const model = await writeTinyModel(path.join(other, 'tiny'));
      workers.push(await startWorker(redis.url, { allow: allowed(), env, args: ['--model', model] }));
      // It listens on its own model's queue: the coordinator's watch names it, and gives up after --cluster-timeout.
      const r = await cluster([...QUERIES[0], '--cluster-timeout', '3']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/no worker can run this query \(1 listening, none compatible: model bundled \(\d+ bytes of weights\) on the coordinator, tiny \(\d+ bytes of weights\) on the worker\) for 3 s/);
      expect(r.stdout).toBe('');
    } finally { await stopWorkers(); await rm(other, { recursive: true, force: true }); }
  }, 60_000);
});
