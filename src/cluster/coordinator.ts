// The cluster coordinator: lists the sources here, cuts the listing into shards as it streams in,
// enqueues them on BullMQ, and merges the shards' candidates into the same bounded heap a search on
// one machine fills, so the answer is the same. It never reads a file itself.
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Queue } from 'bullmq';
import { SimgrepError, isSimgrepError } from '../errors.js';
import { MAX_QUERY_CHARS } from './job-check.js';
import { candidateLimit, finishCandidates } from '../rank/diversify.js';
import type { PipelineOutcome, SearchStats } from '../pipeline/types.js';
import { bundledLexicon } from '../rank/lexical/lexicon.js';
import { buildRankPlan } from '../rank/plan.js';
import { TopK } from '../rank/topk.js';
import type { Hit } from '../rank/windows.js';
import type { ClusterOptions, ClusterSearchContext, SearchOptions } from '../searcher/api.js';
import { sourcesForPaths } from '../sources/resolve.js';
import { fileKeys } from '../sources/real-paths.js';
import type { SourceWarning } from '../sources/source.js';
import { simgrepVersion } from '../version.js';
import { connectRedis, shownUrl, unreachable } from './connection.js';
import { mergeShardResult, shardFailure, type ShardState } from './merge.js';
import { modelIdentity } from './model-identity.js';
import { ALIVE_TTL_MS, FORMATS, HEARTBEAT_MS, PREFIX, PROTOCOL, queueName, aliveKey, resultsKey, type ShardJob } from './protocol.js';
import { DEFAULT_SHARD_BYTES, cutShards } from './shards.js';
import { readShardResult, shownWorker, shownWorkerText } from './result-check.js';
import { checkWorkers, type PendingShard } from './watch.js';
import { enqueueShards, type Listed } from './enqueue.js';

export const DEFAULT_CLUSTER_TIMEOUT_MS = 30_000;
/** Errors that are the same on every shard: the query stops with them instead of N copies. */
const QUERY_ERRORS = new Set(['BAD_QUERY', 'BAD_FLAG', 'MODEL_NOT_FOUND', 'MODEL_OFFLINE', 'MODEL_DOWNLOAD', 'MODEL_CORRUPT', 'TOKENIZER_CORRUPT', 'EMBEDDER_UNAVAILABLE', 'CLUSTER_JOB_REFUSED']);

export async function clusterSearch(o: SearchOptions, ctx: ClusterSearchContext): Promise<PipelineOutcome> {
  const started = performance.now();
  const cfg: ClusterOptions = typeof o.cluster === 'string' ? { url: o.cluster } : o.cluster!;
  if (o.sources?.length) {
    throw new SimgrepError('BAD_FLAG', 'a cluster search takes paths and URIs only: standard input and Source objects cannot travel to the workers');
  }
  const paths = o.paths ?? [];
  if (paths.length === 0) throw new SimgrepError('BAD_FLAG', 'nothing to search: pass paths or URIs for the cluster to search');
  const timeoutMs = cfg.timeoutMs ?? DEFAULT_CLUSTER_TIMEOUT_MS;
  const shardBytes = cfg.shardBytes ?? DEFAULT_SHARD_BYTES;
  if (!(timeoutMs > 0)) throw new SimgrepError('BAD_FLAG', `--cluster-timeout must be a number of seconds > 0 (got ${timeoutMs / 1000})`);
  if (!(shardBytes > 0)) throw new SimgrepError('BAD_FLAG', `--shard-size must be a size > 0 (got ${shardBytes})`);
  // Checked here, not by the first worker to refuse it (whose message would blame versions).
  if (o.query.length > MAX_QUERY_CHARS) {
    throw new SimgrepError('BAD_QUERY', `a cluster search's query is at most ${MAX_QUERY_CHARS.toLocaleString('en-US')} characters (this one has ${o.query.length.toLocaleString('en-US')}); shorten it, or search without --cluster`);
  }
  const mode = o.mode ?? 'hybrid';
  const rank = mode === 'line' ? undefined : buildRankPlan(o.query, mode, bundledLexicon());
  const topK = o.topK ?? (o.maxDistance !== undefined ? Infinity : 3);

  const redis = await connectRedis(cfg.url, { name: 'simgrep-coordinator' });
  const blocking = redis.duplicate();
  const { Queue: QueueClass } = await import('bullmq');
  const me = { protocol: PROTOCOL, simgrep: simgrepVersion(), model: modelIdentity(ctx.model), formats: FORMATS };
  const queue: Queue = new QueueClass(queueName(me), { connection: redis, prefix: PREFIX });
  const queryId = randomBytes(6).toString('hex');
  const state: ShardState = {
    topk: new TopK<Hit>(candidateLimit(topK, rank)), closest: null, warnings: [], seenWarnings: new Set(),
    stats: { files: 0, lines: 0, bytes: 0, skipped: 0, binary: 0, errors: 0, ms: 0 },
  };
  const shards = new Map<number, PendingShard>();
  const listed: Listed = { total: 0, done: false };
  let fatal: unknown = null;
  const listingAbort = new AbortController();
  const addWarnings = (ws: SourceWarning[]) => {
    for (const w of ws) {
      state.warnings.push(w);
      if (w.code === 'TOO_LARGE') state.stats.skipped++; else state.stats.errors++;
    }
  };
  // An error with a connection down is the connection's; anything else is what it is.
  const lost = (e: unknown) => (isSimgrepError(e) || (redis.status === 'ready' && blocking.status === 'ready') ? e : unreachable(cfg.url, e as Error, true));
  const heartbeat = setInterval(() => { redis.pexpire(aliveKey(queryId), ALIVE_TTL_MS).catch(() => {}); }, HEARTBEAT_MS);

  try {
    await blocking.connect().catch((e: Error) => { throw unreachable(cfg.url, e); });
    await redis.set(aliveKey(queryId), String(process.pid), 'PX', ALIVE_TTL_MS);
    const listing = (async () => {
      const sources = await sourcesForPaths(paths, {
        recursive: o.recursive, hidden: o.hidden, noIgnore: o.noIgnore, extensions: o.extensions, typesNot: o.typesNot, globs: o.globs,
        maxFileBytes: o.maxFileBytes, remote: o.remote, followSymlinks: o.followSymlinks, listOnly: true,
        unique: paths.length > 1 ? fileKeys(paths) : undefined, // a file two paths reach is searched once, as on one machine (searcher.ts)
      });
      await enqueueShards({
        queue, kind: 'search', runId: queryId, pending: shards, listed,
        cut: cutShards(sources, { shardBytes, signal: listingAbort.signal, onWarnings: addWarnings }),
        jobOf: (shard, n): ShardJob => ({ ...me, queryId, n, roots: paths, cwd: process.cwd(), options: shardOptions(o), entries: shard.entries }),
      });
    })();
    listing.catch((e) => { fatal ??= e; });

    let lastWatch = 0;
    let lastProgress = 0;
    const watch = { noWorkerSince: null as number | null, noted: false };
    while (!(listed.done && shards.size === 0)) {
      if (fatal) throw fatal;
      if (o.signal?.aborted) throw new SimgrepError('ABORTED', 'the search was aborted');
      if (ctx.deadline?.signal.aborted) {
        state.stats.errors++;
        state.warnings.push({
          path: '', code: 'TIMEOUT',
          message: `stopped after the --timeout of ${ctx.deadline.seconds} s: the results found so far are shown; ${shards.size} of ${listed.total} shards${listed.done ? '' : ' listed so far'} were not searched`,
        });
        break;
      }
      const popped = await blocking.blpop(resultsKey(queryId), 0.25).catch((e) => { throw lost(e); });
      if (popped) {
        const read = readShardResult(popped[1], (n) => shards.get(n)?.entries);
        if (!read.ok) {
          const why = `worker ${read.worker} sent ${read.why}; is something else writing to the cluster's Redis?`;
          if (read.n !== undefined && shards.has(read.n)) {
            shardFailure(state, shards.get(read.n)!.entries, why);
            shards.delete(read.n);
          } else {
            state.stats.errors++;
            state.warnings.push({ path: '', code: 'CLUSTER_JOB_REFUSED', message: `an answer in the query's Redis list was dropped: ${why}` });
          }
          continue;
        }
        const r = read.result;
        if (!shards.has(r.n)) continue; // a redelivered shard's second answer
        if ('error' in r) {
          if (r.refused) throw new SimgrepError('CLUSTER_INCOMPATIBLE', `worker ${shownWorker(r.worker)} refused the query: ${shownWorkerText(r.error.message)}; run the same simgrep and --model everywhere`);
          if (QUERY_ERRORS.has(r.error.code)) throw new SimgrepError(r.error.code as 'BAD_QUERY', shownWorkerText(r.error.message));
          shardFailure(state, shards.get(r.n)!.entries, `failed on worker ${shownWorker(r.worker)}: ${shownWorkerText(r.error.message)}`);
        } else {
          mergeShardResult(state, r);
        }
        shards.delete(r.n);
      }
      const now = performance.now();
      // Only once no result waits (as index-coordinator.ts does): a shard whose result waits unread in
      // a backlog (a loaded coordinator) has had its job removed already and must not look lost.
      if (now - lastWatch >= 1000 && !popped) {
        lastWatch = now;
        await checkWorkers({ redis, queue, url: cfg.url, me, timeoutMs, shards, total: listed.total, state, watch, notice: ctx.onNotice }).catch((e) => { throw lost(e); });
      }
      if (o.onProgress && now - lastProgress >= 250) {
        lastProgress = now;
        o.onProgress({ ...state.stats, ms: now - started, shards: { done: listed.total - shards.size, total: listed.total, listing: !listed.done } });
      }
    }
  } catch (e) {
    throw lost(e);
  } finally {
    clearInterval(heartbeat);
    listingAbort.abort();
    // Shards still unanswered (Ctrl-C, --timeout, an error) leave the queue with the query.
    await cleanUp({ redis, blocking, queue, queryId, pending: [...shards.values()].map((s) => s.id) });
  }
  state.stats.ms = performance.now() - started;
  const { hits, more, closest } = finishCandidates(state.topk.take(), topK, rank, o.maxDistance);
  return { hits, more, closestMiss: closest ?? (state.topk.size === 0 ? state.closest : null), warnings: state.warnings, stats: state.stats as SearchStats };
}

/** What a worker needs of the search's options (no credentials: workers use their own). */
function shardOptions(o: SearchOptions): ShardJob['options'] {
  const { query, mode, topK, maxDistance, nLines, ignoreCase, maxFileBytes, batchLines, recursive, hidden, noIgnore, followSymlinks, extensions } = o;
  const remote = o.remote && { s3Endpoint: o.remote.s3Endpoint, timeoutMs: o.remote.timeoutMs, retries: o.remote.retries };
  return JSON.parse(JSON.stringify({ query, mode, topK, maxDistance, nLines, ignoreCase, maxFileBytes, batchLines, recursive, hidden, noIgnore, followSymlinks, extensions, remote })) as ShardJob['options'];
}

/**
 * Leaves nothing behind: the query's key goes (workers drop its jobs unread and stop its running
 * shards), its waiting jobs are removed, its results list deleted. Bounded: Redis may be gone.
 */
async function cleanUp(o: { redis: Redis; blocking: Redis; queue: Queue; queryId: string; pending: string[] }): Promise<void> {
  const work = (async () => {
    if (o.redis.status === 'ready') {
      await o.redis.del(aliveKey(o.queryId), resultsKey(o.queryId)).catch(() => {});
      await Promise.all(o.pending.map((id) => o.queue.remove(id).catch(() => 0)));
      await o.queue.close().catch(() => {});
    }
  })();
  await Promise.race([work, new Promise((r) => setTimeout(r, 2000).unref())]);
  o.blocking.disconnect();
  o.redis.disconnect();
}
