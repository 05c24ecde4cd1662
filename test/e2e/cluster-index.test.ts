// Cluster index builds end to end, with real processes: redis-server on a free loopback port, s3rver
// serving a generated tree (and holding an index), `simgrep worker` processes, and `simgrep index
// --cluster` as coordinator. A cluster-built workspace must answer exactly as a single-machine build
// of the same tree (files, lines, distances), with 1 and 2 workers, through a worker killed mid-shard,
// and after objects change or go; bad input gets a clear error and loses nothing.
import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DeleteObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusFiles } from '../../bench/remote-s3.js';
import { generateTree } from '../../bench/corpus.js';
import { openStore } from '../../src/workspace/store/store.js';
import { cliPath, runCli, type CliRun } from '../helpers/cli.js';
import { queued, startWorker, type WorkerProcess } from '../helpers/cluster.js';
import { freePort, startRedis, type RedisServer } from '../helpers/redis-server.js';
import { S3RVER_KEYS, s3rverCliEnv, putObject, seedObjects, startS3rver, type S3Server } from '../helpers/s3-server.js';
import { startProxy, type Proxy } from '../helpers/tcp-proxy.js';

const BUCKET = 'tree';
const uri = `s3://${BUCKET}/src/`;
const QUERIES: string[][] = [
  ['retry the failed request after a timeout', '--json', '--top-k', '6'],
  ['parse the config file', '--mode', 'semantic', '--top-k', '8', '--jsonl'],
  ['handler cache', '--mode', 'lexical', '--top-k', '5', '--json'],
];

let redis: RedisServer;
let s3: S3Server;
let home: string;
/** What the tests' workers let jobs reach: the test's temp dir and its buckets (simgrep worker --allow). */
const allowed = () => [home, `s3://${BUCKET}/`, 's3://idx/'];
let env: Record<string, string>;
let keys: string[];
const workers: WorkerProcess[] = [];
const single = new Map<string, CliRun>();
let singleStatus: { files: number; lines: number; chunks: number };

const stopWorkers = async () => { await Promise.all(workers.splice(0).map((w) => w.stop('SIGKILL'))); };
const status = async (dir: string) => {
  const r = await runCli(['workspace', 'status', '--index-dir', dir, '--json'], { env });
  expect(r.code, r.stderr).toBe(0);
  const s = JSON.parse(r.stdout) as { files: number; lines: number; chunks: number };
  return { files: s.files, lines: s.lines, chunks: s.chunks };
};

/** Every query through the index at `dir` prints what it printed through the single-machine build. */
async function expectSameAsSingle(dir: string): Promise<void> {
  for (const q of QUERIES) {
    const r = await runCli([...q, uri, '--index-dir', dir, '--stats'], { env });
    expect({ q: q[0], code: r.code, stdout: r.stdout }).toEqual({ q: q[0], code: 0, stdout: single.get(q.join(' '))!.stdout });
    expect(r.stderr).toContain('(0 files re-indexed first)');
  }
  expect(await status(dir)).toEqual(singleStatus);
}

async function inspect(url: string): Promise<{ wait: number; active: number; runKeys: string[] }> {
  const r = new Redis(url, { lazyConnect: true });
  await r.connect();
  try {
    const [wait, active, runKeys] = await Promise.all([queued(r, 'wait'), queued(r, 'active'), r.keys('simgrep:q:*')]);
    return { wait, active, runKeys };
  } finally { r.disconnect(); }
}

function spawnCli(args: string[], extra: Record<string, string> = {}) {
  const proc = spawn(process.execPath, [cliPath, ...args], { env: { ...process.env, HF_HUB_OFFLINE: '1', ...env, ...extra }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  proc.stdout!.setEncoding('utf8').on('data', (d: string) => { stdout += d; });
  proc.stderr!.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
  const t0 = Date.now();
  const done = new Promise<CliRun & { ms: number }>((resolve) => proc.on('close', (code) => resolve({ stdout, stderr, code, ms: Date.now() - t0 })));
  return { proc, done, stderr: () => stderr };
}

async function until(what: string, check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function objectsUnder(bucket: string, prefix: string): Promise<string[]> {
  const client = new S3Client({ region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: S3RVER_KEYS });
  try { return ((await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }))).Contents ?? []).map((c) => c.Key!); } finally { client.destroy(); }
}

async function deleteObject(key: string): Promise<void> {
  const client = new S3Client({ region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: S3RVER_KEYS });
  try { await client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: key })); } finally { client.destroy(); }
}

/** No duplicate chunk rows, and as many as the single-machine build has. */
async function expectRows(dir: string): Promise<void> {
  const store = await openStore(dir, { dim: 256 });
  const rows = await store.chunkVectors();
  store.close();
  expect(new Set(rows.map((r) => `${r.path}:${r.start}`)).size).toBe(rows.length);
  expect(rows.length).toBe(singleStatus.chunks);
}

beforeAll(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'simgrep-cluster-index-'));
  redis = await startRedis();
  s3 = await startS3rver({ buckets: [BUCKET, 'idx'] });
  env = s3rverCliEnv(home, s3.endpoint);
  const tree = path.join(home, 'tree');
  generateTree({ out: tree, lines: 8_000, seed: 5 });
  keys = corpusFiles(tree);
  await seedObjects(s3.endpoint, BUCKET, Object.fromEntries(keys.map((k) => [`src/${k}`, readFileSync(path.join(tree, k))])));
  const built = await runCli(['index', uri, '--index-dir', path.join(home, 'single')], { env });
  expect(built.code, built.stderr).toBe(0);
  for (const q of QUERIES) single.set(q.join(' '), await runCli([...q, uri, '--index-dir', path.join(home, 'single')], { env }));
  singleStatus = await status(path.join(home, 'single'));
}, 120_000);

afterAll(async () => {
  await stopWorkers();
  await redis?.stop();
  await s3?.stop();
  await rm(home, { recursive: true, force: true });
});

describe('cluster index builds', () => {
  it('with 1 worker (local index dir) and 2 workers (index in the bucket): the single-machine answers, rows and counts', async () => {
    for (const q of QUERIES) expect(single.get(q.join(' '))!.stdout.length).toBeGreaterThan(100);
    expect(singleStatus.files).toBe(keys.length);
    workers.push(await startWorker(redis.url, { allow: allowed(), env }));
    const one = path.join(home, 'one');
    const r1 = await runCli(['index', uri, '--index-dir', one, '--cluster', redis.url, '--shard-size', '64K'], { env });
    expect(r1.code, r1.stderr).toBe(0);
    expect(r1.stderr).toContain(`${keys.length} files checked, ${keys.length} indexed`);
    expect(workers[0].log()).toMatch(/index shard [0-9a-f]+\/\d+: \d+ files indexed/);
    await expectSameAsSingle(one);
    await expectRows(one);
    expect(existsSync(path.join(one, 'staging'))).toBe(false);

    workers.push(await startWorker(redis.url, { allow: allowed(), env }));
    const two = 's3://idx/two';
    const r2 = await runCli(['index', uri, '--index-dir', two, '--cluster', redis.url, '--shard-size', '32K'], { env });
    expect(r2.code, r2.stderr).toBe(0);
    await expectSameAsSingle(two);
    for (const w of workers) expect(w.log()).toMatch(/index shard [0-9a-f]+\/\d+:/);
    expect(await objectsUnder('idx', 'two/staging/')).toEqual([]);
    expect(await inspect(redis.url)).toEqual({ wait: 0, active: 0, runKeys: [] });
  }, 240_000);

  it('a worker killed with kill -9 mid-shard: the shard is redelivered, staged anew, and the index is exact', async () => {
    await stopWorkers();
    // The victim reads objects through a proxy that never answers a GET: it is stuck mid-shard.
    const proxy: Proxy = await startProxy(Number(new URL(s3.endpoint).port), (line) => (line.startsWith('GET') && !line.includes('list-type') ? new Promise<void>(() => {}) : undefined));
    const dir = path.join(home, 'killed');
    try {
      const victim = await startWorker(redis.url, { allow: allowed(), env: { ...env, AWS_ENDPOINT_URL: proxy.endpoint } });
      const run = spawnCli(['index', uri, '--index-dir', dir, '--cluster', redis.url, '--shard-size', '1G']);
      await until('the victim to be stuck reading', () => proxy.requests.some((l) => l.startsWith('GET') && !l.includes('list-type')));
      expect(existsSync(path.join(dir, 'staging'))).toBe(true);
      await victim.stop('SIGKILL');
      workers.push(await startWorker(redis.url, { allow: allowed(), env }));
      const r = await run.done;
      expect(r.code, r.stderr).toBe(0);
      expect(workers[0].log()).toMatch(/index shard [0-9a-f]+\/0:/);
    } finally { proxy.cut(); await proxy.close(); }
    await expectSameAsSingle(dir);
    await expectRows(dir);
    expect(existsSync(path.join(dir, 'staging'))).toBe(false);
  }, 120_000);

  it('an incremental run through the cluster after objects changed, went and came: only those are read; answers equal a scan', async () => {
    if (workers.length === 0) workers.push(await startWorker(redis.url, { allow: allowed(), env }));
    const dir = path.join(home, 'one');
    await putObject(s3.endpoint, BUCKET, `src/${keys[0]}`, 'export function retryTheFailedRequestAfterATimeout(request) { return request.retry(); }\n'.repeat(20));
    await deleteObject(`src/${keys[1]}`);
    // Written again with the same bytes: a new last-modified, the same content hash (its state is updated, its chunks kept).
    await putObject(s3.endpoint, BUCKET, `src/${keys[2]}`, readFileSync(path.join(home, 'tree', keys[2])));
    await putObject(s3.endpoint, BUCKET, 'src/added/config-parser.ts', 'export function parseTheConfigFile(path) { return JSON.parse(read(path)); }\n');
    const r = await runCli(['index', uri, '--index-dir', dir, '--cluster', redis.url], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`${keys.length} files checked, 2 indexed`);
    expect(r.stderr).toContain(`${keys.length - 2} unchanged, 1 removed`);
    for (const q of QUERIES) {
      const indexed = await runCli([...q, uri, '--index-dir', dir, '--stats'], { env });
      const scan = await runCli([...q, uri, '--no-index'], { env });
      expect({ q: q[0], code: indexed.code, stdout: indexed.stdout }).toEqual({ q: q[0], code: 0, stdout: scan.stdout });
      expect(indexed.stderr).toContain('(0 files re-indexed first)');
    }
    // The same tree built on one machine has the same counts.
    const again = path.join(home, 'single-again');
    expect((await runCli(['index', uri, '--index-dir', again], { env })).code).toBe(0);
    expect(await status(dir)).toEqual(await status(again));
  }, 180_000);

  it('local paths on a filesystem every worker sees: the cluster build answers as the single-machine build', async () => {
    if (workers.length === 0) workers.push(await startWorker(redis.url, { allow: allowed(), env }));
    const tree = path.join(home, 'tree');
    const local = path.join(home, 'local-single');
    const clustered = path.join(home, 'local-cluster');
    expect((await runCli(['index', tree, '--index-dir', local], { env })).code).toBe(0);
    const r = await runCli(['index', tree, '--index-dir', clustered, '--cluster', redis.url, '--shard-size', '48K'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`${keys.length} files checked, ${keys.length} indexed`);
    for (const q of QUERIES) {
      const a = await runCli([...q, tree, '--index-dir', clustered, '--stats'], { env });
      const b = await runCli([...q, tree, '--index-dir', local], { env });
      expect({ q: q[0], code: a.code, stdout: a.stdout }).toEqual({ q: q[0], code: 0, stdout: b.stdout });
      expect(a.stderr).toContain('(0 files re-indexed first)');
    }
    expect(await status(clustered)).toEqual(await status(local));
  }, 120_000);

  it('a local file gone before its worker reads it: an error naming it and the worker, exit 2; the other files are indexed', async () => {
    await stopWorkers();
    const tree = path.join(home, 'tree-copy');
    cpSync(path.join(home, 'tree'), tree, { recursive: true });
    const victim = path.join(tree, keys[3]);
    const dir = path.join(home, 'local-gone');
    const run = spawnCli(['index', tree, '--index-dir', dir, '--cluster', redis.url]);
    // Listed and queued by the coordinator (no worker yet), then deleted before a worker reads it.
    await until('the notice that no worker listens', () => /no worker is listening/.test(run.stderr()));
    rmSync(victim);
    workers.push(await startWorker(redis.url, { allow: allowed(), env }));
    const r = await run.done;
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${victim}: cannot be read (ENOENT); check it exists and its permissions (on worker `);
    expect(r.stderr).toContain(`${keys.length} files checked, ${keys.length - 1} indexed`);
    expect((await status(dir)).files).toBe(keys.length - 1);
  }, 60_000);

  it('a worker with another model takes none of the index build\'s shards, the build says which models differ; nothing indexed is lost', async () => {
    await stopWorkers();
    const dir = path.join(home, 'one');
    const before = await status(dir);
    await putObject(s3.endpoint, BUCKET, 'src/added/refused.ts', 'export const refused = true;\n');
    const { writeTinyModel } = await import('../helpers/tiny-model.js');
    const model = await writeTinyModel(path.join(home, 'tiny'));
    workers.push(await startWorker(redis.url, { allow: allowed(), env, args: ['--model', model] }));
    // It listens on its own model's queue: the coordinator's watch names it, and gives up after --cluster-timeout.
    const r = await runCli(['index', uri, '--index-dir', dir, '--cluster', redis.url, '--cluster-timeout', '3'], { env });
    const log = workers[0].log();
    await stopWorkers();
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no worker can run this query \(1 listening, none compatible: model bundled \(\d+ bytes of weights\) on the coordinator, tiny \(\d+ bytes of weights\) on the worker\) for 3 s/);
    expect(log).not.toMatch(/shard [0-9a-f]+\/\d+/);
    expect(await status(dir)).toEqual(before);
  }, 60_000);

  it('no worker listening: says so within seconds, --cluster-timeout ends it with exit 2, and nothing indexed is lost', async () => {
    await stopWorkers();
    const dir = path.join(home, 'one');
    const before = await status(dir);
    await putObject(s3.endpoint, BUCKET, 'src/added/late.ts', 'export const late = 1;\n');
    const r = await spawnCli(['index', uri, '--index-dir', dir, '--cluster', redis.url, '--cluster-timeout', '3']).done;
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no worker is listening on redis:\/\/127\.0\.0\.1:\d+; start one with: simgrep worker --cluster/);
    expect(r.stderr).toMatch(/for 3 s \(--cluster-timeout\)/);
    expect(r.ms).toBeLessThan(12_000);
    expect(await status(dir)).toEqual(before);
    expect(await inspect(redis.url)).toEqual({ wait: 0, active: 0, runKeys: [] });
  }, 60_000);

  it('Ctrl-C of the coordinator: its shards leave the queue at once, nothing is left in Redis or staging, nothing indexed is lost', async () => {
    await stopWorkers();
    const dir = path.join(home, 'one');
    const before = await status(dir);
    await putObject(s3.endpoint, BUCKET, 'src/added/interrupted.ts', 'export const interrupted = true;\n');
    const run = spawnCli(['index', uri, '--index-dir', dir, '--cluster', redis.url]);
    await until('the notice that no worker listens', () => /no worker is listening/.test(run.stderr()));
    const t0 = Date.now();
    run.proc.kill('SIGINT');
    const r = await run.done;
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('indexing was aborted');
    expect(await inspect(redis.url)).toEqual({ wait: 0, active: 0, runKeys: [] });
    expect(existsSync(path.join(dir, 'staging'))).toBe(false);
    expect(await status(dir)).toEqual(before);
  }, 60_000);

  it('Redis unreachable: a clear error within seconds, exit 2, the password never printed, nothing indexed lost', async () => {
    const dir = path.join(home, 'one');
    const before = await status(dir);
    const port = await freePort();
    const r = await spawnCli(['index', uri, '--index-dir', dir, '--cluster', `redis://:hunter2secret@127.0.0.1:${port}`]).done;
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`cannot connect to Redis at redis://:***@127.0.0.1:${port} (ECONNREFUSED)`);
    expect(r.stderr).not.toContain('hunter2secret');
    expect(r.ms).toBeLessThan(10_000);
    expect(await status(dir)).toEqual(before);
  }, 60_000);
});
