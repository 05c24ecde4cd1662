// The coordinator's watch, once a second: is any compatible worker listening (say so within seconds,
// give up after --cluster-timeout), and did BullMQ fail a shard no worker will answer for (a worker
// that died mid-shard more often than its stall limit allows)?
import type { Redis } from 'ioredis';
import type { Queue } from 'bullmq';
import { SimgrepError } from '../errors.js';
import { shownUrl } from './connection.js';
import { shardFailure, type ShardState } from './merge.js';
import { PREFIX, WORKER_INFO, incompatibility, type ShardEntry, type WorkerInfo } from './protocol.js';

export interface PendingShard { id: string; entries: ShardEntry[]; queued: boolean; missingTicks: number }

/** Shards whose job state is looked at per tick (the oldest first). */
const STATES_PER_TICK = 20;
const NOTICE_AFTER_MS = 2000;

export interface WatchContext {
  redis: Redis;
  queue: Queue;
  url: string;
  me: Pick<WorkerInfo, 'protocol' | 'simgrep' | 'model' | 'formats'>;
  timeoutMs: number;
  shards: Map<number, PendingShard>;
  total: number;
  state: ShardState;
  watch: { noWorkerSince: number | null; noted: boolean };
  notice?: (message: string) => void;
}

export async function checkWorkers(c: WatchContext): Promise<void> {
  const now = Date.now();
  // Workers listening on this query's queue now, by their connections (a killed worker's is gone at once).
  const clients = await c.queue.getWorkers();
  if (clients.some((w) => !w.rawname)) return checkFailedJobs(c); // a Redis without CLIENT LIST: cannot tell
  const infos = await infosOf(c.redis, clients.map((w) => workerId(String(w.rawname))));
  // A worker whose versions are not known (yet) is taken as compatible: it refuses a job it cannot run.
  const compatible = infos.filter((w) => w === null || incompatibility(c.me, w) === null);
  if (compatible.length > 0) {
    c.watch.noWorkerSince = null;
  } else {
    // Workers of other builds or models listen on their own queues (queueName): name them.
    const known = (await infosOf(c.redis, await listeningWorkerIds(c.redis)))
      .filter((w): w is WorkerInfo => w !== null && incompatibility(c.me, w) !== null);
    c.watch.noWorkerSince ??= now;
    const waited = now - c.watch.noWorkerSince;
    const why = known.length > 0
      ? `no worker can run this query (${known.length} listening, none compatible: ${incompatibility(c.me, known[0])})`
      : `no worker is listening on ${shownUrl(c.url)}`;
    if (waited >= NOTICE_AFTER_MS && !c.watch.noted) {
      c.watch.noted = true;
      c.notice?.(`${why}; start one with: simgrep worker --cluster ${shownUrl(c.url)} --allow DIR|URI (waiting up to ${c.timeoutMs / 1000} s, --cluster-timeout)`);
    }
    if (waited >= c.timeoutMs) {
      const code = known.length > 0 ? 'CLUSTER_INCOMPATIBLE' : 'CLUSTER_NO_WORKER';
      throw new SimgrepError(code, `${why} for ${c.timeoutMs / 1000} s (--cluster-timeout): ${c.shards.size} of ${c.total} shards not searched; start workers with: simgrep worker --cluster ${shownUrl(c.url)} --allow DIR|URI`);
    }
  }
  await checkFailedJobs(c);
}

/** A worker's id from its BullMQ connection name, "simgrep:<queue, base64>:w:<id>". */
const workerId = (name: string) => name.slice(name.indexOf(':w:') + 3);

const infosOf = async (redis: Redis, ids: string[]): Promise<(WorkerInfo | null)[]> =>
  ids.length ? (await redis.hmget(WORKER_INFO, ...ids)).map(infoOf) : [];

/**
 * A worker's info as Redis holds it, or null (not known) where it is not in the form a worker writes:
 * whoever can write to Redis can put anything there (a value that was not JSON stopped the query with a
 * SyntaxError, a JSON null with a TypeError). A worker not known is taken as compatible; it refuses a job
 * it cannot run.
 */
function infoOf(raw: string | null): WorkerInfo | null {
  if (!raw) return null;
  let v: unknown;
  try { v = JSON.parse(raw); } catch { return null; }
  if (typeof v !== 'object' || v === null) return null;
  const w = v as Record<string, unknown>;
  // formats may be missing (an older worker's): incompatibility names it "(none)".
  const well = typeof w.simgrep === 'string' && typeof w.model === 'string' && Number.isSafeInteger(w.protocol)
    && (w.formats === undefined || typeof w.formats === 'string');
  return well ? (w as unknown as WorkerInfo) : null;
}

/** Every simgrep worker listening on any queue of this Redis (any build's: the queue's name is in base64, without ':'). */
async function listeningWorkerIds(redis: Redis): Promise<string[]> {
  const list = String(await redis.client('LIST'));
  const ids: string[] = [];
  for (const m of list.matchAll(/(?:^| )name=(\S+)/gm)) {
    const name = m[1];
    if (name.startsWith(`${PREFIX}:`) && /^[^:]+:[^:]+:w:/.test(name)) ids.push(workerId(name));
  }
  return ids;
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
