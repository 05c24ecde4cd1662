// The cluster worker: takes shards from the BullMQ queue, runs the ordinary search over them (the same
// searcher the CLI uses, with this machine's model and credentials) and pushes back only the shard's
// candidates, counts and per-file warnings. An index job ("index") is read, chunked and embedded into
// a staging database (index-shard.ts). A job of a dead or cancelled query or run is dropped unread.
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import type { Job, Worker } from 'bullmq';
import { isSimgrepError, serializeError } from '../errors.js';
import { type Searcher } from '../searcher/api.js';
import { shardSearchOf } from '../searcher/seams.js';
import { sourcesForPaths } from '../sources/resolve.js';
import type { Source } from '../sources/source.js';
import { simgrepVersion } from '../version.js';
import { connectRedis } from './connection.js';
import { modelIdentity } from './model-identity.js';
import {
  FORMATS, PREFIX, PROTOCOL, RESULT_TTL_MS, WORKER_INFO, aliveKey, incompatibility, queueName, resultsKey,
  type IndexShardJob, type IndexShardResult, type ShardJob, type ShardResult, type WorkerInfo,
} from './protocol.js';
import { createShardSource } from './shard-source.js';
import { runIndexShard } from './index-shard.js';
import type { AllowList } from './allow-list.js';
import { JobRefused, checkIndexJob, checkJobHeader, checkSearchJob, stagingName } from './job-check.js';
import { confine, describeJob, indexReach, oneLine, searchReach, type JobReach } from './job-reach.js';

export interface ClusterWorkerOptions {
  url: string;
  searcher: Searcher;
  /** The model spec the searcher was made with. */
  model: string;
  /** Shards searched at once (default 2: the next one starts while the last files of one finish). */
  shards?: number;
  /** How soon a shard of a worker that died is handed to another (default 30 s; $SIMGREP_CLUSTER_STALL_MS). */
  stallMs?: number;
  /** What jobs may read and write (`--allow`, `--allow-any-path`): a job reaching outside is refused. */
  allow: AllowList;
  log: (line: string) => void;
  /**
   * This machine's own Cloud Storage endpoint for gs:// (simgrep worker --gcs-endpoint). Never taken from
   * a job: whoever writes to Redis must not choose where this machine sends its access tokens.
   */
  gcsEndpoint?: string;
}

export interface ClusterWorker {
  info: WorkerInfo;
  /** Stops taking shards; finishes the ones running within a grace period, else (or with force at once) hands them back. */
  close(force?: boolean): Promise<void>;
}

export async function startClusterWorker(o: ClusterWorkerOptions): Promise<ClusterWorker> {
  const stallMs = o.stallMs ?? (Number(process.env.SIMGREP_CLUSTER_STALL_MS) || 30_000);
  const info: WorkerInfo = {
    id: `${hostname()}:${process.pid}`, host: hostname(), pid: process.pid,
    simgrep: simgrepVersion(), model: modelIdentity(o.model), protocol: PROTOCOL, formats: FORMATS,
  };
  const redis = await connectRedis(o.url, { persistent: true, name: 'simgrep-worker' });
  // Written again now and then: a Redis restarted without persistence has forgotten it.
  const announce = () => redis.hset(WORKER_INFO, info.id, JSON.stringify(info)).catch(() => 0);
  await announce();
  const heartbeat = setInterval(announce, 5000);
  const sources = new Map<string, Source[]>();
  const search = shardSearchOf(o.searcher);
  const bullmq = await import('bullmq');
  const { WaitingError } = bullmq;

  const push = (queryId: string, r: ShardResult | IndexShardResult) =>
    redis.multi().rpush(resultsKey(queryId), JSON.stringify(r)).pexpire(resultsKey(queryId), RESULT_TTL_MS).exec();

  async function runShard(job: Job<ShardJob | IndexShardJob>, token: string | undefined, signal?: AbortSignal): Promise<void> {
    const started = performance.now();
    // Anyone who can write to Redis can write a job: nothing in it is used before it is checked.
    let d: ShardJob | IndexShardJob;
    try { d = checkJobHeader(job.data) as ShardJob | IndexShardJob; } catch (e) {
      o.log(`dropped job ${String(job.id).slice(0, 64)} (${String(job.name).slice(0, 16)}): not a simgrep job: ${(e as Error).message}`);
      return;
    }
    const why = incompatibility(d, info);
    if (why) {
      o.log(`refused shard ${d.queryId}/${d.n}: ${why}`);
      await push(d.queryId, { n: d.n, worker: info.id, refused: true, error: { code: 'CLUSTER_INCOMPATIBLE', message: why } });
      return;
    }
    let reach: JobReach;
    let staging = '';
    try {
      if (job.name === 'index') {
        d = checkIndexJob(job.data);
        staging = stagingName(d.queryId, d.n, job.attemptsStarted);
        reach = indexReach(d, staging);
      } else if (job.name === 'search') {
        d = checkSearchJob(job.data);
        reach = searchReach(d);
      } else {
        throw new JobRefused(`unknown job kind ${JSON.stringify(String(job.name).slice(0, 32))}`);
      }
      if (!(await redis.exists(aliveKey(d.queryId)))) {
        o.log(`dropped shard ${d.queryId}/${d.n}: its query was cancelled or its coordinator is gone`);
        return;
      }
      const used = await confine(reach, o.allow, 'roots' in d ? d.options : d);
      o.log(describeJob({ queryId: d.queryId, n: d.n, kind: job.name as 'search' | 'index', reach, files: d.entries.length, roots: 'roots' in d ? reach.reads.slice(0, d.roots.length) as string[] : null, used }));
    } catch (e) {
      if (!(e instanceof JobRefused)) throw e;
      o.log(`refused shard ${d.queryId}/${d.n}: ${oneLine(e.message)}`);
      await push(d.queryId, { n: d.n, worker: info.id, error: { code: 'CLUSTER_JOB_REFUSED', message: `worker ${info.id} refused the job: ${e.message}` } });
      return;
    }
    // Stop when BullMQ cancels the job (shutdown) or the query goes away (Ctrl-C, the coordinator died).
    const abort = new AbortController();
    signal?.addEventListener('abort', () => abort.abort(), { once: true });
    const watch = setInterval(() => {
      redis.exists(aliveKey(d.queryId)).then((n) => { if (!n) abort.abort(); }, () => {});
    }, 1000);
    try {
      if (job.name === 'index') {
        const r = await runIndexShard(d as IndexShardJob, { redis, searcher: o.searcher, worker: info.id, host: info.host, staging: { name: staging, uri: reach.writes! }, signal: abort.signal, gcsEndpoint: o.gcsEndpoint });
        if (!(await redis.exists(aliveKey(d.queryId)))) throw abortedBy(abort);
        await push(d.queryId, r);
        const s = r.stats;
        o.log(`index shard ${d.queryId}/${d.n}: ${s.indexed} files indexed, ${s.lines} lines, ${(s.bytes / 1048576).toFixed(1)} MB in ${Math.round(performance.now() - started)} ms, ${s.errors} errors`);
        return;
      }
      if (!('roots' in d)) throw new Error(`a ${job.name} job without roots`);
      // Keyed by everything the sources are made from: a second job under the same id cannot read through the first one's sources.
      const made = JSON.stringify([d.queryId, d.roots, d.cwd, d.options]);
      const roots = sources.get(made) ?? await sourcesForPaths(d.roots, { ...d.options, remote: { ...d.options.remote, gcsEndpoint: o.gcsEndpoint } });
      remember(sources, made, roots);
      const shard = createShardSource({ entries: d.entries, sources: roots, roots: d.roots, cwd: d.cwd, host: info.host });
      const outcome = await search([shard], { ...d.options, sources: undefined, paths: undefined, signal: abort.signal });
      if (!(await redis.exists(aliveKey(d.queryId)))) throw abortedBy(abort);
      await push(d.queryId, { n: d.n, worker: info.id, hits: outcome.hits, closestMiss: outcome.closestMiss, warnings: outcome.warnings, stats: outcome.stats });
      const s = outcome.stats;
      o.log(`shard ${d.queryId}/${d.n}: ${s.files} files, ${s.lines} lines, ${(s.bytes / 1048576).toFixed(1)} MB in ${Math.round(performance.now() - started)} ms, ${s.errors} errors`);
    } catch (e) {
      if (signal?.aborted) {
        // This worker is stopping: the shard goes back to the queue for another worker, not to failed.
        await job.moveToWait(token);
        o.log(`handed back shard ${d.queryId}/${d.n}: this worker is stopping`);
        throw new WaitingError();
      }
      if (abort.signal.aborted) {
        o.log(`stopped shard ${d.queryId}/${d.n}: its query was cancelled`);
        return;
      }
      const error = serializeError(e);
      o.log(`shard ${d.queryId}/${d.n} failed: ${isSimgrepError(e) ? e.message : (e as Error).stack ?? String(e)}`);
      await push(d.queryId, { n: d.n, worker: info.id, error });
    } finally {
      clearInterval(watch);
    }
  }

  const { Worker: WorkerClass } = bullmq;
  const worker: Worker<ShardJob> = new WorkerClass<ShardJob>(queueName(info), (job, token, signal) => runShard(job, token, signal), {
    connection: redis, prefix: PREFIX, concurrency: o.shards ?? 2,
    lockDuration: stallMs, stalledInterval: Math.max(500, Math.floor(stallMs / 2)), maxStalledCount: 3,
    name: info.id, // BullMQ names its connection after it: the coordinator sees who listens in CLIENT LIST
  });
  worker.on('error', (e) => o.log(`Redis: ${e.message}`));
  await worker.waitUntilReady();
  o.log(`listening for shards (simgrep ${info.simgrep}, model ${info.model}, ${o.shards ?? 2} shards at a time)`);

  let closing: Promise<void> | null = null;
  return {
    info,
    async close(force = false) {
      clearInterval(heartbeat);
      const handBack = () => worker.cancelAllJobs('the worker is stopping');
      if (force) handBack();
      // Running shards may finish within the grace period; a shard stuck longer is handed back.
      const grace = setTimeout(handBack, Number(process.env.SIMGREP_CLUSTER_GRACE_MS) || 30_000);
      await (closing ??= worker.close());
      clearTimeout(grace);
      await redis.hdel(WORKER_INFO, info.id).catch(() => 0);
      redis.disconnect();
    },
  };
}

/** The query went away while its shard ran: nobody will read the answer. */
function abortedBy(abort: AbortController): Error {
  abort.abort();
  return new Error('the query is gone');
}

/** Sources per query, for the few queries a worker sees at a time. */
function remember(cache: Map<string, Source[]>, queryId: string, sources: Source[]): void {
  cache.delete(queryId);
  cache.set(queryId, sources);
  while (cache.size > 4) cache.delete(cache.keys().next().value!);
}
