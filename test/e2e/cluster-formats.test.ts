// A cluster of mixed builds (trial38): session 37 changed how text is cut into words (snapshot format
// 11, delta 6, prose statistics 7) without bumping the cluster's PROTOCOL, and every build calls itself
// simgrep 0.1.0, so a worker of an older build took a newer coordinator's index shards and handed back
// terms the new snapshot misreads. Jobs and workers now carry the formats (PROTOCOL 2): a real worker
// refuses a job of other formats, and one of protocol 1, naming what differs. And a cluster build's
// progress counts chunks as its files and lines (MCP status never has a null `chunks` to show).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, type IndexProgress } from '../../src/index.js';
import { FORMATS, PREFIX, WORKER_INFO, queueName, resultsKey, type WorkerInfo } from '../../src/cluster/protocol.js';
import { runCli } from '../helpers/cli.js';
import { startWorker, type WorkerProcess } from '../helpers/cluster.js';
import { writeTinyModel } from '../helpers/tiny-model.js';
import { isolatedHome } from '../helpers/isolated-home.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';

let home: ReturnType<typeof isolatedHome>;
let redis: RedisServer;
let worker: WorkerProcess;
let client: Redis;
let queue: Queue;
let queueConnection: Redis;
let tree = '';
const savedOffline = process.env.HF_HUB_OFFLINE;

const WORDS = ['upload', 'retry', 'invoice', 'socket', 'parser', 'render', 'cache', 'token', 'backoff', 'queue'];
const file = (seed: number) => Array.from({ length: 120 }, (_, i) => `export function ${WORDS[(seed + i) % 10]}${i}() { return ${WORDS[(seed * 3 + i) % 10]}(${i}); } // 1️⃣ Straße ${WORDS[(i * 7 + seed) % 10]}`).join('\n');

beforeAll(async () => {
  home = isolatedHome('simgrep-cluster-formats-');
  process.env.HF_HUB_OFFLINE = '1';
  tree = path.join(home.dir, 'tree');
  for (let d = 0; d < 4; d++) {
    mkdirSync(path.join(tree, `m${d}`), { recursive: true });
    for (let f = 0; f < 25; f++) writeFileSync(path.join(tree, `m${d}`, `f${f}.ts`), file(d * 25 + f));
  }
  redis = await startRedis();
  worker = await startWorker(redis.url, { env: home.env, allow: [home.dir] });
  client = new Redis(redis.url);
  queueConnection = client.duplicate();
  // The queue the worker listens on (named for its build and model): a forged job of other formats
  // put there reaches the worker's own check.
  queue = new Queue(queueName(await workerInfo()), { connection: queueConnection, prefix: PREFIX });
}, 60_000);
afterAll(async () => {
  await queue?.close();
  queueConnection?.disconnect();
  client?.disconnect();
  await worker?.stop('SIGKILL');
  await redis?.stop();
  if (savedOffline === undefined) delete process.env.HF_HUB_OFFLINE; else process.env.HF_HUB_OFFLINE = savedOffline;
  home?.restore();
});

/** The worker's own record, as it announces itself in Redis. */
async function workerInfo(): Promise<WorkerInfo> {
  const all = Object.values(await client.hgetall(WORKER_INFO)).map((v) => JSON.parse(v) as WorkerInfo);
  expect(all).toHaveLength(1);
  return all[0];
}

/** Enqueues a job as a coordinator of another build would, and waits for the worker's answer. */
async function answerTo(kind: 'index' | 'search', job: Record<string, unknown>): Promise<Record<string, unknown>> {
  await queue.add(kind, job, { jobId: `${String(job.queryId)}-0`, removeOnComplete: true, removeOnFail: { age: 600 }, attempts: 1 });
  const popped = await client.blpop(resultsKey(String(job.queryId)), 20);
  expect(popped, 'no answer from the worker').not.toBeNull();
  return JSON.parse(popped![1]) as Record<string, unknown>;
}

describe('a cluster of mixed builds', () => {
  it('the formats a worker announces are this build\'s snapshot, delta and prose statistics formats', async () => {
    expect(FORMATS).toBe('simgrep-snapshot-12 simgrep-snapshot-delta-7 simgrep-prose-stats-7');
    expect(await workerInfo()).toMatchObject({ protocol: 3, formats: FORMATS });
  });

  it('a worker refuses an index shard of other formats (the same version and protocol), naming them', async () => {
    const me = await workerInfo();
    const older = 'simgrep-snapshot-11 simgrep-snapshot-delta-6 simgrep-prose-stats-7';
    const job = {
      protocol: me.protocol, simgrep: me.simgrep, model: me.model, formats: older, queryId: 'a1b2c3d4e5f6', n: 0,
      indexDir: path.join(home.dir, 'idx'), chunkLines: 48, entries: [{ s: 0, path: path.join(tree, 'm0', 'f0.ts') }], prev: [],
    };
    expect(await answerTo('index', job)).toEqual({
      n: 0, worker: me.id, refused: true,
      error: { code: 'CLUSTER_INCOMPATIBLE', message: `index formats ${older} on the coordinator, ${FORMATS} on the worker (builds that cut text into words differently)` },
    });
    expect(worker.log()).toContain(`refused shard a1b2c3d4e5f6/0: index formats ${older} on the coordinator`);
  });

  it('a worker refuses a search shard of a protocol-1 coordinator (no formats), naming the protocols', async () => {
    const me = await workerInfo();
    const job = {
      protocol: 1, simgrep: me.simgrep, model: me.model, queryId: 'b1b2c3d4e5f6', n: 0, roots: [tree], cwd: tree,
      options: { query: 'retry the upload' }, entries: [{ s: 0, path: path.join(tree, 'm0', 'f0.ts') }],
    };
    expect(await answerTo('search', job)).toEqual({
      n: 0, worker: me.id, refused: true,
      error: { code: 'CLUSTER_INCOMPATIBLE', message: `simgrep ${me.simgrep} (protocol 1) on the coordinator, ${me.simgrep} (protocol 3) on the worker` },
    });
  });

  it('a cluster build of this build\'s formats runs, and its progress counts chunks with the files and lines', async () => {
    const ws = createWorkspace({ dir: path.join(home.dir, 'idx'), concurrency: 0 });
    const seen: IndexProgress[] = [];
    try {
      const report = await ws.index([tree], { cluster: { url: redis.url, shardBytes: 16 * 1024 }, onProgress: (p) => seen.push(p) });
      expect(report.indexed).toBe(100);
      const s = await ws.status();
      expect([s.complete, s.files, s.chunks]).toEqual([true, 100, report.chunks]);
      expect(seen.length).toBeGreaterThan(0);
      for (const p of seen) expect(typeof p.chunks, JSON.stringify(p)).toBe('number');
      // Its counts only (mend38a: it carried the report so far, its patch and warnings with it).
      for (const p of seen) expect(JSON.stringify(p).length).toBeLessThan(1024);
      // The counts of the same files: no file without its chunks, no chunk of a file not counted.
      for (const p of seen) expect(p.chunks > 0).toBe(p.indexed > 0);
      expect(seen.at(-1)!.chunks).toBeLessThanOrEqual(report.chunks);
    } finally {
      await ws.close();
    }
  }, 120_000);

  it('a worker of another model listening beside this one takes no shard: the search and the index build answer as without it', async () => {
    // Before each build and model had a queue of its own (queueName), every worker listened on one queue, and a
    // worker that refused a shard used it up: the whole query failed (CLUSTER_INCOMPATIBLE) whenever it took one.
    const other = await startWorker(redis.url, { env: home.env, allow: [home.dir], args: ['--model', await writeTinyModel(path.join(home.dir, 'tiny'))] });
    try {
      const args = ['retry the upload after a timeout', tree, '--json', '--top-k', '8'];
      const local = await runCli([...args, '--no-index'], { env: home.env });
      expect(local.code, local.stderr).toBe(0);
      const viaCluster = await runCli([...args, '--cluster', redis.url, '--shard-size', '16K'], { env: home.env });
      expect(viaCluster.code, viaCluster.stderr).toBe(0);
      expect(JSON.parse(viaCluster.stdout).results).toEqual(JSON.parse(local.stdout).results);
      const ws = createWorkspace({ dir: path.join(home.dir, 'idx-mixed'), concurrency: 0 });
      try {
        const report = await ws.index([tree], { cluster: { url: redis.url, shardBytes: 16 * 1024 } });
        expect(report.indexed).toBe(100);
        expect((await ws.status()).complete).toBe(true);
      } finally {
        await ws.close();
      }
      expect(other.log()).not.toMatch(/refused|shard [0-9a-f]+\/\d+/);
      expect(worker.log()).toMatch(/shard [0-9a-f]+\/\d+/);
    } finally {
      await other.stop('SIGKILL');
    }
  }, 120_000);
});
