// What the library's searcher takes and gives: its options, its answer, the Searcher itself, and the
// checks of a search's options. searcher.ts makes searchers; the workspace, the cluster, the actions and
// the CLI read these types.
import { SimgrepError } from '../errors.js';
import { checkOptionTypes } from '../options-check.js';
import type { LoadModelOptions } from '../model/load.js';
import type { PipelineOutcome, SearchProgress, SearchStats } from '../pipeline/types.js';
import type { LikeTarget } from '../rank/related.js';
import type { SearchResult } from '../rank/windows.js';
import { extensionsWithTypes } from '../sources/file-types.js';
import type { FilterValues } from '../sources/filter-options.js';
import type { RemoteOptions } from '../sources/remote/options.js';
import type { Source, SourceWarning } from '../sources/source.js';
import { SEARCH_MODES, type EmbedderKind, type ModelData, type SearchMode } from '../types.js';

export interface SearcherOptions {
  /** Local model dir or Hugging Face id; default: $SIMGREP_MODEL, else the bundled model. */
  model?: string;
  /** Worker threads; 0 runs everything on the calling thread. Default: available cores. */
  concurrency?: number;
  embedder?: EmbedderKind;
  offline?: boolean;
  cacheDir?: string;
  onModelProgress?: LoadModelOptions['onProgress'];
  /**
   * Where a search with `cluster` set runs: the cluster adapter's, plugged in by the caller
   * (library.ts does, for the package's createSearcher). Without it such a search is refused.
   */
  clusterSearch?: ClusterSearch;
}

/** A search run on other machines, answering with the candidates this machine's pipeline would keep. */
export type ClusterSearch = (o: SearchOptions, ctx: ClusterSearchContext) => Promise<PipelineOutcome>;

export interface ClusterSearchContext {
  /** The model the searcher was made with (its spec): workers must run the same. */
  model: string;
  deadline: Deadline | null;
  onNotice?: (message: string) => void;
}

/** The file filters and per-file answers (globs, types, typesNot, extensions, perFile, filesWithMatches) are the one table's: sources/filter-options.ts. */
export interface SearchOptions extends FilterValues {
  /** What to look for; ignored (pass '') with `like`. */
  query: string;
  /**
   * Find code like the chunk at this file and 1-based line (the chunk, cut where the ranker cuts them,
   * is the query) and leave that chunk out of the answer.
   */
  like?: LikeTarget;
  /** Ranking mode (default 'hybrid'). */
  mode?: SearchMode;
  paths?: string[];
  /** Extra sources (e.g. stdin, or a caller's own Source). */
  sources?: Source[];
  topK?: number;
  maxDistance?: number;
  nLines?: number;
  ignoreCase?: boolean;
  recursive?: boolean;
  hidden?: boolean;
  noIgnore?: boolean;
  maxFileBytes?: number;
  /** Follow symbolic links in directory walks (loops are detected and reported). */
  followSymlinks?: boolean;
  /** Overall time budget: when it runs out, reading stops and the results so far are returned (with a TIMEOUT warning). */
  timeoutMs?: number;
  /** For s3://, gs://, az:// and http(s):// paths: S3 endpoint override, timeout, retries, the env settings are read from. */
  remote?: RemoteOptions;
  /** Merge overlapping windows of one file into one result (default true). */
  merge?: boolean;
  /** Lines per worker batch (tuning only; results never depend on it). */
  batchLines?: number;
  signal?: AbortSignal;
  onProgress?: (s: SearchProgress) => void;
  /**
   * Search on the workers of a cluster instead of this machine: a Redis URL (redis://, rediss://),
   * or the URL with tuning. The answer is the one this machine would give (docs/cluster.md).
   */
  cluster?: string | ClusterOptions;
  /** Internal (FRESH_ONLY): not a library option. */
  [FRESH_ONLY]?: boolean;
}

/**
 * Internal, not for callers (the MCP engine's made-up searches at its start), and so a symbol, which the
 * options' check (options-check.ts) does not list: a workspace search that finds files changed since the
 * index saw them stops there, reading and saving none of them, its answer empty with a NOT_FRESH warning
 * (workspace/search-run.ts). A scan ignores it.
 */
export const FRESH_ONLY: unique symbol = Symbol('simgrep.freshOnly');

export interface ClusterOptions {
  url: string;
  /** Give up when no worker has been listening for this long (default 30 s). */
  timeoutMs?: number;
  /** Bytes of files per shard (default 16 MiB). */
  shardBytes?: number;
  /** Said while the search runs (no worker listening yet): the CLI prints it on stderr. */
  onNotice?: (message: string) => void;
}

export interface SearchContentOptions extends Omit<SearchOptions, 'paths' | 'sources'> {
  content: string;
  /** Name used as the result filename (default "<content>"). */
  name?: string;
}

export interface SearchResponse {
  results: SearchResult[];
  /** Set when --max-distance let nothing through: the closest line, for a hint. */
  closestMiss?: SearchResult;
  warnings: SourceWarning[];
  stats: SearchStats;
  /** With filesWithMatches: the files with results, best first. */
  files?: string[];
  /** True when more matches exist than `results` holds: topK cut them (with perFile or filesWithMatches: more results under the same per-file limit). */
  more?: boolean;
}

export interface Searcher {
  search(opts: SearchOptions): Promise<SearchResponse>;
  searchContent(opts: SearchContentOptions): Promise<SearchResponse>;
  /** The model, loading it on first use. */
  model(): Promise<ModelData>;
  /** Unit-length embeddings of texts (rows x dim), as search() embeds a query. */
  embed(texts: string[]): Promise<Float32Array>;
  /**
   * Loads the model, starts the worker threads and runs one made-up search through them now, so that
   * the first search waits for none of it (a resident process that expects searches: the MCP engine).
   * Never throws: a failure shows on the search that needs them.
   */
  warm(): Promise<void>;
  close(): Promise<void>;
}

export type Deadline = { signal: AbortSignal; seconds: number };

export function deadlineOf(timeoutMs: number | undefined): Deadline | null {
  if (timeoutMs === undefined) return null;
  return { signal: AbortSignal.timeout(timeoutMs), seconds: timeoutMs / 1000 };
}

/** The options with `types` turned into the extensions they mean (one table: sources/file-types.ts). */
export function withTypes<O extends SearchOptions>(o: O): O {
  return { ...o, extensions: extensionsWithTypes(o.extensions, o.types), types: undefined };
}

/** Checks a search's options (types and ranges): throws a SimgrepError that says what to fix. */
export function validate(o: SearchOptions | SearchContentOptions): void {
  checkOptionTypes(o);
  if (o.timeoutMs !== undefined && !(o.timeoutMs > 0)) {
    throw new SimgrepError('BAD_FLAG', `--timeout must be a number of seconds > 0 (got ${o.timeoutMs / 1000})`);
  }
  if (typeof o.query !== 'string' || o.query.trim() === '') {
    throw new SimgrepError('BAD_QUERY', 'the query is empty; pass what you are looking for, e.g. simgrep "retry failed uploads" ./src');
  }
  if (o.mode !== undefined && !(SEARCH_MODES as readonly string[]).includes(o.mode)) {
    throw new SimgrepError('BAD_FLAG', `--mode must be one of ${SEARCH_MODES.join(', ')} (got ${String(o.mode)})`);
  }
  if (o.topK !== undefined && (!Number.isInteger(o.topK) || o.topK <= 0)) {
    throw new SimgrepError('BAD_FLAG', `--top-k must be a whole number >= 1 (got ${o.topK})`);
  }
  if (o.maxDistance !== undefined && (!Number.isFinite(o.maxDistance) || o.maxDistance < 0)) {
    throw new SimgrepError('BAD_FLAG', `--max-distance must be a number >= 0 (cosine distance, 0..2; got ${o.maxDistance})`);
  }
  if (o.maxFileBytes !== undefined && (!Number.isInteger(o.maxFileBytes) || o.maxFileBytes < 0)) {
    throw new SimgrepError('BAD_FLAG', `--max-filesize must be a whole number of bytes >= 0 (got ${o.maxFileBytes})`);
  }
  if (o.nLines !== undefined && (!Number.isInteger(o.nLines) || o.nLines < 0)) {
    throw new SimgrepError('BAD_FLAG', `--n-lines must be a whole number >= 0 (got ${o.nLines})`);
  }
}
