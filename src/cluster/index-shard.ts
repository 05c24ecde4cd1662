// A cluster worker's index shard: the ordinary indexer (read, content hash, chunk, embed on this
// machine's pool, with this machine's credentials) run over the shard's files into a staging database
// of its own, then the chunks' features beside them. Each attempt writes under its own name, so a
// shard handed to a second worker never shares a table with the first; a name is recorded in Redis
// before anything is written, so the coordinator drops every attempt's tables, merged or not.
import type { Redis } from 'ioredis';
import { timer } from '../workspace/debug-timer.js';
import { updateIndex } from '../workspace/build/indexer.js';
import { lanceStorageOptions } from '../workspace/store/storage-options.js';
import { type Searcher } from '../searcher/api.js';
import { executorOf } from '../searcher/seams.js';
import type { Entry, SourceWarning } from '../sources/source.js';
import { isRemoteUri } from '../sources/uri.js';
import { RESULT_TTL_MS, stagedKey, type IndexShardJob, type IndexShardResult } from './protocol.js';
import { dropStaging, openStagingStore, writeFeatures } from './staging.js';

export interface IndexShardContext {
  redis: Redis;
  searcher: Searcher;
  worker: string;
  host: string;
  /** The staging database's name and location, made from the checked job (job-check.ts). */
  staging: { name: string; uri: string };
  signal: AbortSignal;
  /** The worker's own gs:// endpoint (never the job's). */
  gcsEndpoint?: string;
}

export async function runIndexShard(d: IndexShardJob, c: IndexShardContext): Promise<Extract<IndexShardResult, { staging: string }>> {
  const mark = timer(`index shard ${d.n}`);
  const { name, uri } = c.staging;
  await c.redis.multi().sadd(stagedKey(d.queryId), name).pexpire(stagedKey(d.queryId), RESULT_TTL_MS).exec();
  const storageOptions = await lanceStorageOptions(d.indexDir, { s3Endpoint: d.remote?.s3Endpoint });
  const model = await c.searcher.model();
  await dropStaging(uri, storageOptions); // a retry of this attempt starts empty
  const store = await openStagingStore(uri, { dim: model.dim, storageOptions });
  mark('open staging');
  try {
    const entries: Entry[] = d.entries.map((e) => ({ path: e.path, size: e.size, modifiedMs: e.modifiedMs, etag: e.etag, named: e.named }));
    const report = await updateIndex({
      store, executor: () => executorOf(c.searcher, true), chunkLines: d.chunkLines, roots: [], remote: { ...d.remote, gcsEndpoint: c.gcsEndpoint },
      deleteMissing: false, entries, states: d.prev, signal: c.signal,
    });
    mark('index');
    await writeFeatures(uri, report.patch, storageOptions);
    mark('features');
    const { files, indexed, unchanged, lines, bytes, chunks, errors } = report;
    return { n: d.n, worker: c.worker, staging: name, warnings: report.warnings.map((w) => onWorker(w, c.host)), stats: { files, indexed, unchanged, lines, bytes, chunks, errors } };
  } finally {
    store.close();
  }
}

/** A local file this worker could not read: say where, and what workers need to see local paths. */
function onWorker(w: SourceWarning, host: string): SourceWarning {
  if (isRemoteUri(w.path) || w.code !== 'PATH_UNREADABLE') return w;
  return { ...w, message: `${w.message} (on worker ${host}: local paths are indexed by workers only when every worker sees the same filesystem at the same path, e.g. NFS)` };
}
