// What travels through Redis between a coordinator and its workers: the shard job, the shard result,
// the keys both use and their lifetimes. Plain JSON only; never credentials, never whole texts.
import { createHash } from 'node:crypto';
import type { SearchStats } from '../pipeline/types.js';
import type { Hit } from '../rank/windows.js';
import type { SearchOptions } from '../searcher/api.js';
import type { SourceWarning } from '../sources/source.js';
import type { FileState } from '../workspace/store/store.js';
import { PROSE_STATS_FORMAT } from '../workspace/snapshot/prose-stats-file.js';
import { SNAPSHOT_FORMATS } from '../workspace/snapshot/snapshot-file.js';

/**
 * Bumped when a job or result changes shape: workers refuse jobs of another protocol. 2: jobs and
 * workers carry FORMATS (a worker of protocol 1 refuses every job of 2, and the other way round). 3: a
 * search shard's entries carry their rank paths (ShardEntry.rank; a worker of 2 ranked by the spelled path).
 */
export const PROTOCOL = 3;
/**
 * The formats of what a worker hands back that depends on how text is cut into words: an index
 * shard's staged terms and definitions (merged into the coordinator's snapshot as they are), a search
 * shard's lexical scores. Made of the snapshot's and the prose statistics' own format names, which are
 * bumped with every change of the words (session 37: keycaps, folded definition names; PROTOCOL stayed 1
 * and a worker of an older build was taken, its terms misread by the new snapshot), so a change of the
 * words cannot leave the cluster's check behind: a worker of other formats refuses the job.
 */
export const FORMATS = [...SNAPSHOT_FORMATS, PROSE_STATS_FORMAT].join(' ');
/** BullMQ's key prefix: every key simgrep writes starts with "simgrep:". */
export const PREFIX = 'simgrep';

/** What a worker must share with a coordinator to run its jobs. */
export type Compatibility = Pick<WorkerInfo, 'protocol' | 'simgrep' | 'model' | 'formats'>;

/**
 * The queue a coordinator's jobs go to and a worker listens on: named for what they must share (simgrep,
 * protocol, formats, model), so a worker of another build or model never takes a job it would refuse
 * (a refused job is used up: one leftover worker failed every query of a mixed cluster whose shard it
 * took). Builds before session 39 used the one queue "shards": they never see these jobs. A worker still
 * checks each job (the queue is anyone's to write to), and the coordinator's watch names the workers
 * listening on other queues when none listens on its own.
 */
export function queueName(v: Compatibility): string {
  const key = createHash('sha256').update(JSON.stringify([v.simgrep, v.protocol, v.formats, v.model])).digest('hex');
  return `shards-${key.slice(0, 16)}`;
}

/** A query is alive while its coordinator renews this key; a job of a dead query is dropped unread. */
export const aliveKey = (queryId: string) => `${PREFIX}:q:${queryId}:alive`;
/** Workers push shard results here; the coordinator pops (removes) them as they come. */
export const resultsKey = (queryId: string) => `${PREFIX}:q:${queryId}:results`;
/** Staging databases a run's workers created (the coordinator drops them all, merged or not). */
export const stagedKey = (runId: string) => `${PREFIX}:q:${runId}:staged`;
/** What each worker runs (simgrep, model), by worker id; which workers are alive, Redis itself knows (CLIENT LIST). */
export const WORKER_INFO = `${PREFIX}:worker-info`;

export const ALIVE_TTL_MS = Number(process.env.SIMGREP_CLUSTER_ALIVE_MS) || 10_000;
export const HEARTBEAT_MS = Math.max(200, Math.floor(ALIVE_TTL_MS / 4));
/** A result nobody pops (its coordinator died) is gone after this. */
export const RESULT_TTL_MS = 5 * 60_000;

/** The options a worker needs to run a shard exactly as the coordinator's machine would. */
export type ShardOptions = Pick<SearchOptions,
  'query' | 'mode' | 'topK' | 'maxDistance' | 'nLines' | 'ignoreCase' | 'maxFileBytes' | 'batchLines'
  | 'recursive' | 'hidden' | 'noIgnore' | 'followSymlinks' | 'extensions'>
  & { remote?: { s3Endpoint?: string; timeoutMs?: number; retries?: number } };

/** One listed file: which root's source lists it (index into roots), and the entry as listed. */
export interface ShardEntry {
  s: number;
  path: string;
  size?: number;
  named?: boolean;
  /** A remote object's key. */
  key?: string;
  /** A remote object's last-modified time from the listing (index jobs). */
  modifiedMs?: number;
  /** A remote object's ETag (Cloud Storage: generation) from the listing (index jobs). */
  etag?: string;
  /** A local name that is not valid UTF-8: its raw bytes, base64. */
  io?: string;
  /**
   * The path the coordinator's walk ranks it by (Entry.rank: below the searched root), sent as the walk gave
   * it rather than worked out again on the worker, which cannot know it from the roots' spelling alone
   * (`src/../docs`, a glob's base, a link). Read only by the ranking, never to open a file.
   */
  rank?: string;
}

export interface ShardJob {
  protocol: number;
  simgrep: string;
  model: string;
  formats: string;
  queryId: string;
  n: number;
  roots: string[];
  /** The coordinator's working directory, for relative local paths on a shared filesystem. */
  cwd: string;
  options: ShardOptions;
  entries: ShardEntry[];
}

/** A cluster index shard (job name "index"): the new and changed files to read, chunk and embed into a staging database. */
export interface IndexShardJob {
  protocol: number;
  simgrep: string;
  model: string;
  formats: string;
  /** The run (its alive and results keys are those of a query with this id). */
  queryId: string;
  n: number;
  /** The workspace's directory or s3:// prefix: the staging database goes under it. */
  indexDir: string;
  chunkLines: number;
  remote?: { s3Endpoint?: string; timeoutMs?: number; retries?: number };
  /** Paths are index keys: absolute local paths (a filesystem every worker sees) or URIs. */
  entries: ShardEntry[];
  /** The indexed states of those entries that were indexed before (an unchanged content hash is not re-embedded). */
  prev: FileState[];
}

export interface IndexShardStats { files: number; indexed: number; unchanged: number; lines: number; bytes: number; chunks: number; errors: number }

export type IndexShardResult =
  | { n: number; worker: string; staging: string; warnings: SourceWarning[]; stats: IndexShardStats }
  | { n: number; worker: string; error: { code: string; message: string }; refused?: boolean };

export interface WorkerInfo { id: string; host: string; pid: number; simgrep: string; model: string; protocol: number; formats: string }

/** What a worker pushes for a shard: its candidates, or why it could not run it. */
export type ShardResult =
  | { n: number; worker: string; hits: Hit[]; closestMiss: Hit | null; warnings: SourceWarning[]; stats: SearchStats }
  | { n: number; worker: string; error: { code: string; message: string }; refused?: boolean };

/**
 * Why a worker cannot run a job (another simgrep, protocol, formats or model), or null when it can.
 * `formats` is required on both sides (undefined only for a job of an older coordinator, which sent
 * none): optional, a caller that dropped it compiled and compared undefined with undefined.
 */
export function incompatibility(job: Pick<ShardJob, 'protocol' | 'simgrep' | 'model'> & { formats: string | undefined }, mine: Pick<WorkerInfo, 'protocol' | 'simgrep' | 'model' | 'formats'>): string | null {
  const diffs: string[] = [];
  if (job.simgrep !== mine.simgrep || job.protocol !== mine.protocol) {
    diffs.push(`simgrep ${job.simgrep} (protocol ${job.protocol}) on the coordinator, ${mine.simgrep} (protocol ${mine.protocol}) on the worker`);
  } else if (job.formats !== mine.formats) {
    // The same version and protocol from builds whose words differ: the worker's terms would be misread.
    diffs.push(`index formats ${job.formats ?? '(none)'} on the coordinator, ${mine.formats ?? '(none)'} on the worker (builds that cut text into words differently)`);
  }
  if (job.model !== mine.model) diffs.push(`model ${job.model} on the coordinator, ${mine.model} on the worker`);
  return diffs.length ? diffs.join('; ') : null;
}
