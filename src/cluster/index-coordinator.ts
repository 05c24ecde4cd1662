// A workspace index built by the cluster's workers: the coordinator lists the roots, keeps what the
// index already has (size + mtime + ctime, or an object's size, last-modified and ETag), cuts the new and changed files into shards by
// bytes and enqueues them; each worker stages its shard's rows in a database of its own; the
// coordinator, the only writer of the workspace's tables, merges staged shards as they are reported
// (staged-merge.ts: old chunks dropped, new ones added, then the files' states), drops
// the files gone from the roots and the staging databases. The workspace publishes the result as
// after a local run, so it answers exactly as a single-machine build would.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { Redis } from 'ioredis';
import type { Queue } from 'bullmq';
import { SimgrepError, isSimgrepError } from '../errors.js';
import { identityOf, sameIdentity } from '../workspace/changes/file-identity.js';
import { fileKeys, type FileKeyOf } from '../sources/real-paths.js';
import { dropMissing, progressOf, unreadableWarning, type IndexReport, type IndexUpdater, type SnapshotPatch, type UpdateIndexOptions } from '../workspace/build/indexer.js';
import { lanceStorageOptions } from '../workspace/store/storage-options.js';
import type { FileState } from '../workspace/store/store.js';
import { emptyChanges } from '../workspace/snapshot/snapshot.js';
import { TopK } from '../rank/topk.js';
import type { Hit } from '../rank/windows.js';
import type { ClusterOptions } from '../searcher/api.js';
import { sourcesForPaths } from '../sources/resolve.js';
import type { Entry, Source, SourceWarning } from '../sources/source.js';
import { isRemoteUri, redactUri } from '../sources/uri.js';
import { simgrepVersion } from '../version.js';
import { connectRedis, unreachable } from './connection.js';
import { DEFAULT_CLUSTER_TIMEOUT_MS } from './coordinator.js';
import { shardFailure, type ShardState } from './merge.js';
import { modelIdentity } from './model-identity.js';
import { ALIVE_TTL_MS, FORMATS, HEARTBEAT_MS, PREFIX, PROTOCOL, queueName, aliveKey, resultsKey, stagedKey, type IndexShardJob, type IndexShardResult } from './protocol.js';
import { DEFAULT_SHARD_BYTES, cutShards } from './shards.js';
import { MERGE_BATCH, mergeStaged } from './staged-merge.js';
import { StagingProblem, dropStaging, readStaged, stagingUri, type StagedShard } from './staging.js';
import { stagedProblem } from './staged-check.js';
import { checkWorkers, type PendingShard } from './watch.js';
import { enqueueShards, type Listed } from './enqueue.js';
import { isCanonicalS3Uri, isStagingNameOf } from './job-check.js';
import { shownWorker, shownWorkerText } from './result-check.js';

export interface ClusterIndexContext {
  /** The model the workspace's searcher was made with (its spec): workers must run the same. */
  model: string;
  /** Its vectors' dimension: a staged shard's must be the same. */
  dim: number;
}

export function clusterIndexUpdater(cfg: ClusterOptions, ctx: ClusterIndexContext): IndexUpdater {
  return (o) => clusterIndex(o, cfg, ctx);
}

async function clusterIndex(o: UpdateIndexOptions, cfg: ClusterOptions, ctx: ClusterIndexContext): Promise<IndexReport> {
  const started = performance.now();
  const timeoutMs = cfg.timeoutMs ?? DEFAULT_CLUSTER_TIMEOUT_MS;
  const shardBytes = cfg.shardBytes ?? DEFAULT_SHARD_BYTES;
  if (!(timeoutMs > 0)) throw new SimgrepError('BAD_FLAG', `--cluster-timeout must be a number of seconds > 0 (got ${timeoutMs / 1000})`);
  if (!(shardBytes > 0)) throw new SimgrepError('BAD_FLAG', `--shard-size must be a size > 0 (got ${shardBytes})`);
  const patch: SnapshotPatch = emptyChanges();
  const report: IndexReport = { files: 0, indexed: 0, lines: 0, bytes: 0, bytesToRead: 0, ms: 0, unchanged: 0, deleted: 0, chunks: 0, reused: 0, errors: 0, warnings: [], patch };
  const states = new Map((o.states ?? await o.store.fileStates()).map((s) => [s.key, s]));
  // Workers resolve nothing against their own directory: a local index directory goes to them absolute.
  const indexDir = isRemoteUri(o.store.uri) ? o.store.uri : path.resolve(o.store.uri);
  // Workers refuse any other form (job-check.ts): say so here, once, before anything is enqueued.
  if (isRemoteUri(indexDir) && !isCanonicalS3Uri(indexDir)) {
    throw new SimgrepError('BAD_FLAG', `--index-dir ${redactUri(indexDir)}: a cluster build needs the index directory as a plain s3://bucket/prefix (no empty, . or .. segments, no ? or #), e.g. s3://team-bucket/idx/app`);
  }
  const storageOptions = await lanceStorageOptions(indexDir, { s3Endpoint: o.remote?.s3Endpoint });
  if (!isRemoteUri(indexDir)) rmSync(path.join(indexDir, 'staging'), { recursive: true, force: true }); // a killed run's leftovers (this run holds the lock)

  const redis = await connectRedis(cfg.url, { name: 'simgrep-coordinator' });
  const blocking = redis.duplicate();
  const { Queue: QueueClass } = await import('bullmq');
  const me = { protocol: PROTOCOL, simgrep: simgrepVersion(), model: modelIdentity(ctx.model), formats: FORMATS };
  const queue: Queue = new QueueClass(queueName(me), { connection: redis, prefix: PREFIX });
  const runId = randomBytes(6).toString('hex');
  const failures: ShardState = { topk: new TopK<Hit>(1), closest: null, warnings: [], seenWarnings: new Set(), stats: { files: 0, lines: 0, bytes: 0, skipped: 0, binary: 0, errors: 0, ms: 0 } };
  const shards = new Map<number, PendingShard>();
  const seen = new Set<string>();
  const listed: Listed = { total: 0, done: false };
  let fatal: unknown = null;
  const listingAbort = new AbortController();
  const addWarnings = (ws: SourceWarning[]) => {
    report.warnings.push(...ws);
    report.errors += ws.filter((w) => w.code !== 'TOO_LARGE').length;
  };
  const lost = (e: unknown) => (isSimgrepError(e) || (redis.status === 'ready' && blocking.status === 'ready') ? e : unreachable(cfg.url, e as Error, true));
  const heartbeat = setInterval(() => { redis.pexpire(aliveKey(runId), ALIVE_TTL_MS).catch(() => {}); }, HEARTBEAT_MS);

  try {
    await blocking.connect().catch((e: Error) => { throw unreachable(cfg.url, e); });
    await redis.set(aliveKey(runId), String(process.pid), 'PX', ALIVE_TTL_MS);
    const sources = await sourcesForPaths(o.roots, { remote: o.remote, listOnly: true });
    const listing = (async () => {
      const keyOf = fileKeys(o.roots);
      const changed = sources.map((s) => changedOnly(s, { states, seen, report, keyOf }));
      await enqueueShards({
        queue, kind: 'index', runId, pending: shards, listed,
        cut: cutShards(changed, { shardBytes, signal: listingAbort.signal, onWarnings: addWarnings }),
        jobOf: (shard, n): IndexShardJob => {
          report.bytesToRead += shard.bytes;
          const prev = shard.entries.map((e) => states.get(e.path)).filter((s): s is FileState => s !== undefined);
          return { ...me, queryId: runId, n, indexDir, chunkLines: o.chunkLines, remote: remoteOptions(o), entries: shard.entries, prev };
        },
      });
    })();
    listing.catch((e) => { fatal ??= e; });

    let lastWatch = 0;
    let lastProgress = 0;
    const watch = { noWorkerSince: null as number | null, noted: false };
    while (!(listed.done && shards.size === 0)) {
      if (fatal) throw fatal;
      if (o.signal?.aborted) throw new SimgrepError('ABORTED', 'indexing was aborted');
      // The results waiting are merged together (up to MERGE_BATCH: fewer commits when the merge falls
      // behind), and the watch looks at job states only once none waits: a merge takes a while, and a
      // shard whose result waits unread must not look lost because its job was already removed.
      const popped = await blocking.blpop(resultsKey(runId), 0.25).catch((e) => { throw lost(e); });
      const ready: Extract<IndexShardResult, { staging: string }>[] = [];
      let raw = popped?.[1] ?? null;
      for (; raw !== null && ready.length < MERGE_BATCH; raw = await redis.lpop(resultsKey(runId)).catch((e) => { throw lost(e); })) {
        const r = indexAnswer(raw);
        const pending = shards.get(r.n);
        if (!pending || ready.some((x) => x.n === r.n)) continue; // a redelivered shard's second answer
        if (!('error' in r) && isStagingNameOf(r.staging, runId)) { ready.push(r); continue; }
        if (!('error' in r)) throw new SimgrepError('CLUSTER_JOB_REFUSED', `worker ${shownWorker(r.worker)} reported a staging database ${JSON.stringify(String(r.staging).slice(0, 80))} that is not one of this run's; is something else writing to the cluster's Redis?`);
        if (r.refused) throw new SimgrepError('CLUSTER_INCOMPATIBLE', `worker ${shownWorker(r.worker)} refused the index build: ${shownWorkerText(r.error.message)}; run the same simgrep and --model everywhere`);
        if (r.error.code === 'CLUSTER_JOB_REFUSED') throw new SimgrepError('CLUSTER_JOB_REFUSED', shownWorkerText(r.error.message));
        shardFailure(failures, pending.entries, `failed on worker ${shownWorker(r.worker)}: ${shownWorkerText(r.error.message)}`);
        shards.delete(r.n);
      }
      if (ready.length > 0) {
        // A shard's staging database is read, and its rows merged, only when they are its own files' and of
        // the shape a worker writes (a worker, or whoever writes the index directory, could stage rows for
        // any path, or rows the merge would stop on after its commits): else that shard fails with the reason.
        const staged = await Promise.all(ready.map((r) => readStaged(stagingUri(indexDir, r.staging), { storageOptions }).catch((e: unknown) => stagingReadProblem(e))));
        const good = ready.flatMap((r, i) => {
          const s = staged[i];
          const why = typeof s === 'string' ? s : stagedProblem(s, { keys: new Set(shards.get(r.n)!.entries.map((e) => e.path)), dim: ctx.dim });
          if (why === null) return [i];
          shardFailure(failures, shards.get(r.n)!.entries, `worker ${shownWorker(r.worker)} staged ${why}; is something else writing to the cluster's Redis or the index directory?`);
          shards.delete(r.n);
          return [];
        });
        if (good.length > 0) await mergeStaged(o.store, good.map((i) => staged[i] as StagedShard), { states, patch });
        for (const r of good.map((i) => ready[i])) {
          const s = r.stats;
          report.indexed += s.indexed; report.unchanged += s.unchanged; report.lines += s.lines; report.bytes += s.bytes; report.chunks += s.chunks;
          report.errors += s.errors;
          report.warnings.push(...r.warnings.map((w) => ({ ...w, message: shownWorkerText(w.message) }))); // a worker's text, from Redis
          shards.delete(r.n);
        }
      }
      if (raw !== null) await redis.lpush(resultsKey(runId), raw).catch((e) => { throw lost(e); }); // the next batch's first
      const now = performance.now();
      if (now - lastWatch >= 1000 && raw === null) {
        lastWatch = now;
        await checkWorkers({ redis, queue, url: cfg.url, me, timeoutMs, shards, total: listed.total, state: failures, watch, notice: cfg.onNotice }).catch((e) => { throw lost(e); });
      }
      if (o.onProgress && now - lastProgress >= 250) {
        lastProgress = now;
        o.onProgress(progressOf({ ...report, ms: now - started }));
      }
    }
    report.errors += failures.stats.errors;
    report.warnings.push(...failures.warnings);
    await dropMissing(o, report, states.keys(), seen);
  } catch (e) {
    throw lost(e);
  } finally {
    clearInterval(heartbeat);
    listingAbort.abort();
    await cleanUp({ redis, blocking, queue, runId, pending: [...shards.values()].map((s) => s.id), indexDir, storageOptions });
  }
  report.ms = performance.now() - started;
  return report;
}

/** Why a shard's staging database could not be read, as the shard's failure says it (escaped: its text may be a worker's). */
function stagingReadProblem(e: unknown): string {
  if (e instanceof StagingProblem) return e.message;
  return `a staging database that could not be read (${shownWorkerText(e instanceof Error ? e.message : String(e))})`;
}

/** A source's listing without the files the index already has as they are; entries named by their index keys. */
function changedOnly(source: Source, c: { states: Map<string, FileState>; seen: Set<string>; report: IndexReport; keyOf: FileKeyOf }): Source {
  return {
    async *list(signal) {
      for await (const entry of source.list(signal)) {
        const key = c.keyOf(entry.path);
        // A file reached through two overlapping roots is checked (and indexed) once, as updateIndex does.
        if (c.seen.has(key)) continue;
        c.seen.add(key);
        c.report.files++;
        let id;
        try { id = identityOf(entry); } catch (e) {
          c.report.errors++;
          c.report.warnings.push(unreadableWarning(entry.path, e));
          continue;
        }
        const prev = c.states.get(key);
        if (prev && sameIdentity(id, prev)) { c.report.unchanged++; continue; }
        yield { path: key, size: id.size >= 0 ? id.size : undefined, modifiedMs: entry.modifiedMs, etag: entry.etag, named: entry.named } satisfies Entry;
      }
    },
    read: (e, signal) => source.read(e, signal),
    drainWarnings: () => source.drainWarnings?.() ?? [],
  };
}

/** What a worker needs of the remote options (no credentials: workers use their own). */
function remoteOptions(o: UpdateIndexOptions): IndexShardJob['remote'] {
  if (!o.remote) return undefined;
  return JSON.parse(JSON.stringify({ s3Endpoint: o.remote.s3Endpoint, timeoutMs: o.remote.timeoutMs, retries: o.remote.retries })) as IndexShardJob['remote'];
}

/**
 * Leaves nothing behind: the run's key goes (workers drop its jobs unread and stop running shards),
 * its waiting jobs and results are removed, and every staging database a worker created is dropped.
 * Bounded: Redis or the store may be gone.
 */
async function cleanUp(o: { redis: Redis; blocking: Redis; queue: Queue; runId: string; pending: string[]; indexDir: string; storageOptions?: Record<string, string> }): Promise<void> {
  const work = (async () => {
    if (o.redis.status !== 'ready') return;
    await o.redis.del(aliveKey(o.runId)).catch(() => {});
    await Promise.all(o.pending.map((id) => o.queue.remove(id).catch(() => 0)));
    // Names from Redis: only this run's RUN-SHARD-ATTEMPT names are dropped, never a path someone else wrote there.
    const staged = (await o.redis.smembers(stagedKey(o.runId)).catch(() => [] as string[])).filter((name) => isStagingNameOf(name, o.runId));
    await Promise.all(staged.map((name) => dropStaging(stagingUri(o.indexDir, name), o.storageOptions).catch(() => {})));
    if (!isRemoteUri(o.indexDir)) rmSync(path.join(o.indexDir, 'staging'), { recursive: true, force: true });
    await o.redis.del(resultsKey(o.runId), stagedKey(o.runId)).catch(() => {});
    await o.queue.close().catch(() => {});
  })();
  await Promise.race([work, new Promise((r) => setTimeout(r, 10_000).unref())]);
  o.blocking.disconnect();
  o.redis.disconnect();
}

/**
 * One answer popped from the run's Redis list, in the form a worker makes: whoever can write to Redis can
 * push anything there (a malformed one stopped the run with a SyntaxError or a TypeError).
 */
function indexAnswer(raw: string): IndexShardResult {
  let v: unknown;
  try { v = JSON.parse(raw); } catch { v = null; }
  const r = (typeof v === 'object' && v !== null ? v : {}) as Record<string, unknown>;
  const counts = r.stats as Record<string, unknown> | undefined;
  const well = typeof r.worker === 'string' && Number.isSafeInteger(r.n) && (
    ('error' in r && typeof (r.error as { message?: unknown })?.message === 'string' && typeof (r.error as { code?: unknown }).code === 'string')
    || (typeof r.staging === 'string' && Array.isArray(r.warnings) && r.warnings.every(isWarning) && typeof counts === 'object' && counts !== null
      && ['files', 'indexed', 'unchanged', 'lines', 'bytes', 'chunks', 'errors'].every((k) => Number.isSafeInteger(counts[k]))));
  if (!well) throw new SimgrepError('CLUSTER_JOB_REFUSED', `an answer in the index run's Redis list is not one a worker makes (${JSON.stringify(raw.slice(0, 80))}); is something else writing to the cluster's Redis?`);
  return r as unknown as IndexShardResult;
}

/** A warning in a worker's form (`[null]` was taken, and failed with a TypeError where it was printed). */
function isWarning(w: unknown): boolean {
  const o = w as Record<string, unknown> | null;
  return typeof o === 'object' && o !== null && typeof o.path === 'string' && typeof o.code === 'string' && typeof o.message === 'string';
}
