// What a search through the pipeline takes and gives back: its options, its outcome, and the counts
// it reports while it runs and at the end.
import type { Executor } from '../pool.js';
import type { RankPlan } from '../rank/plan.js';
import type { Hit } from '../rank/windows.js';
import type { Source, SourceWarning } from '../sources/source.js';
import type { KeptFiles } from './kept-files.js';

export interface SearchStats {
  files: number;
  lines: number;
  bytes: number;
  skipped: number;
  binary: number;
  errors: number;
  ms: number;
  /**
   * Set when a workspace index answered: its name, how many new or changed files it re-indexed first,
   * and how many of those (`pending`, when any) were read for this answer only, not saved into the index.
   */
  index?: { workspace: string; refreshed: number; pending?: number };
}

/** Progress while searching: the counts so far, and the read that has waited longest (a slow or stuck source). */
export interface SearchProgress extends SearchStats {
  waitingOn?: { path: string; ms: number };
  /** A cluster search: shards searched and enqueued so far (listing: the listing is still going on). */
  shards?: { done: number; total: number; listing: boolean };
}

export interface PipelineOptions {
  sources: Source[];
  executor: Executor;
  query: Float32Array;
  queryKey: string;
  topK: number;
  maxDistance?: number;
  nLines: number;
  ignoreCase: boolean;
  /** Hybrid or lexical ranking: one result per chunk (absent: semantic, one per line). */
  rank?: RankPlan;
  batchLines?: number;
  fileConcurrency?: number;
  signal?: AbortSignal;
  /** The overall time budget: when it fires, reading stops and the results so far are returned. */
  deadline?: { signal: AbortSignal; seconds: number };
  /** Stop reading a file after this many bytes, whatever its size claimed (the --max-filesize cap). */
  maxFileBytes?: number;
  onProgress?: (s: SearchProgress) => void;
  /** Return the ranked candidates as kept, before they are spread across files (a cluster shard's answer). */
  candidatesOnly?: boolean;
  /** A scan's: the files whose chunk sums the searcher's in-process scorer keeps (kept-files.ts). */
  kept?: KeptFiles;
}

export interface PipelineOutcome {
  hits: Hit[];
  /** More matches were ranked than the hits shown (topK cut them). */
  more?: boolean;
  /** The best line overall, kept when --max-distance filtered everything out. */
  closestMiss: Hit | null;
  warnings: SourceWarning[];
  stats: SearchStats;
}
