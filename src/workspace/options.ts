// How a workspace is opened and how an index run reports and where it runs: the options of
// createWorkspace and Workspace.index, and the seam a cluster build plugs into.
import type { ClusterOptions, SearcherOptions, Searcher } from '../searcher/api.js';
import type { IndexProgress, IndexUpdater } from './build/indexer.js';

export interface WorkspaceOptions extends SearcherOptions {
  /** A named workspace under $SIMGREP_HOME/workspaces. */
  name?: string;
  /** Or any directory or s3:// prefix (a team can share one index in a bucket). */
  dir?: string;
  /** LanceDB storage options for an s3:// dir; by default from `remote` and the AWS_* settings, as for s3:// sources. */
  storageOptions?: Record<string, string>;
  /** The S3-compatible endpoint of an s3:// dir (as --s3-endpoint), and the Cloud Storage endpoint of gs:// roots (as --gcs-endpoint). */
  remote?: { s3Endpoint?: string; gcsEndpoint?: string };
  /**
   * Share this searcher (and the model it has loaded) instead of creating one; close() then leaves
   * it open for its owner. The model options above are then ignored (`concurrency: 0` still keeps
   * a search's stat thread off).
   */
  searcher?: Searcher;
  /**
   * A process that lives on (a server): watch the searched directories from the first search, not
   * the second (a one-shot process never pays for watching).
   */
  resident?: boolean;
  /**
   * A process that answers one search and exits (the CLI): a search that finds a few changed files
   * (up to UNSAVED_REFRESH_BYTES) reads them again for its own answer without saving them into the
   * index, and the next search does the same until simgrep index (or a bigger change) saves them.
   */
  oneShot?: boolean;
  /**
   * @internal Tests: the file count from which a search's stats run on two threads
   * (STAT_THREAD_FROM_FILES), so small fixtures take the threaded path.
   */
  statThreadFromFiles?: number;
  /**
   * What builds the index when an index run names a cluster: the cluster adapter's, plugged in by the
   * caller (library.ts does, for the package's createWorkspace). Without it such a run is refused.
   */
  clusterIndex?: ClusterIndexUpdater;
}

/** The updater of an index run on a cluster's workers (its workers must run the model the workspace's searcher was made with). */
export type ClusterIndexUpdater = (cluster: ClusterOptions, ctx: { model: string; dim: number }) => Promise<IndexUpdater>;

/** How an index run reports and stops, and where it runs. */
export interface IndexIo { signal?: AbortSignal; onProgress?: (p: IndexProgress) => void; cluster?: string | ClusterOptions }
