// The coordinator's watch, once a second: is any compatible worker listening (say so within seconds,
// give up after --cluster-timeout), and did BullMQ fail a shard no worker will answer for (a worker
// that died mid-shard more often than its stall limit allows)?
import type { Redis } from 'ioredis';
import type { Queue } from 'bullmq';
import { SimgrepError } from '../errors.js';
import { shownUrl } from './connection.js';
import { shardFailure, type ShardState } from './merge.js';
import { WORKERS, WORKER_INFO, WORKER_STALE_MS, incompatibility, type ShardEntry, type WorkerInfo } from './protocol.js';

export interface PendingShard { id: string; entries: ShardEntry[]; queued: boolean; missingTicks: number }

/** Shards whose job state is looked at per tick (the oldest first). */
const STATES_PER_TICK = 20;
const NOTICE_AFTER_MS = 2000;

export interface WatchContext {
  redis: Redis;
  queue: Queue;
  url: string;
  me: Pick<WorkerInfo, 'protocol' | 'simgrep' | 'model'>;
  timeoutMs: number;
  shards: Map<number, PendingShard>;
  total: number;
  state: ShardState;
  watch: { noWorkerSince: number | null; noted: boolean };
  notice?: (message: string) => void;
}

export async function checkWorkers(c: WatchContext): Promise<void> {
  const now = Date.now();
  const ids = await c.redis.zrangebyscore(WORKERS, now - WORKER_STALE_MS, '+inf');
  const infos = ids.length ? (await c.redis.hmget(WORKER_INFO, ...ids)).flatMap((j) => (j ? [JSON.parse(j) as WorkerInfo] : [])) : [];
  const compatible = infos.filter((w) => incompatibility(c.me, w) === null);
  if (compatible.length > 0) {
    c.watch.noWorkerSince = null;
  } else {
    c.watch.noWorkerSince ??= now;
    const waited = now - c.watch.noWorkerSince;
    const why = infos.length > 0
      ? `no worker can run this query (${infos.length} listening, none compatible: ${incompatibility(c.me, infos[0])})`
      : `no worker is listening on ${shownUrl(c.url)}`;
    if (waited >= NOTICE_AFTER_MS && !c.watch.noted) {
      c.watch.noted = true;
      c.notice?.(`${why}; start one with: simgrep worker --cluster ${shownUrl(c.url)} (waiting up to ${c.timeoutMs / 1000} s, --cluster-timeout)`);
    }
    if (waited >= c.timeoutMs) {
      const code = infos.length > 0 ? 'CLUSTER_INCOMPATIBLE' : 'CLUSTER_NO_WORKER';
      throw new SimgrepError(code, `${why} for ${c.timeoutMs / 1000} s (--cluster-timeout): ${c.shards.size} of ${c.total} shards not searched; start workers with: simgrep worker --cluster ${shownUrl(c.url)}`);
    }
  }
  await checkFailedJobs(c);
}

async function checkFailedJobs(c: WatchContext): Promise<void> {
  const oldest = [...c.shards].filter(([, s]) => s.queued).slice(0, STATES_PER_TICK);
  for (const [n, s] of oldest) {
    const state = await c.queue.getJobState(s.id);
    if (state === 'failed') {
      const job = await c.queue.getJob(s.id);
      shardFailure(c.state, s.entries, `the shard failed: ${job?.failedReason ?? 'no reason recorded'}`);
      await job?.remove().catch(() => {});
      c.shards.delete(n);
    } else if (state === 'unknown') {
      // Gone without a result: a result is pushed before its job completes, so this is no race once seen twice.
      if (++s.missingTicks >= 2) {
        shardFailure(c.state, s.entries, 'its job disappeared from Redis (removed by another client, or evicted: set maxmemory-policy noeviction)');
        c.shards.delete(n);
      }
    } else {
      s.missingTicks = 0;
    }
  }
}
