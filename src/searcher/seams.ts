// The searcher's seams for simgrep's own layers: what createSearcher keeps from a library caller but hands
// the workspace (its index builds and searches), the cluster (its shard searches), tests and benches.
import { SimgrepError } from '../errors.js';
import type { PipelineOutcome } from '../pipeline/types.js';
import type { PooledFiles } from '../pipeline/pooled-files.js';
import type { Executor } from '../pool.js';
import type { HandedWalk } from '../rank/prose-sweep-walk.js';
import type { Source } from '../sources/source.js';
import type { SearchOptions, Searcher } from './api.js';

/** What createSearcher attaches to each searcher it makes (attachSeams). */
export interface SearcherSeams {
  executor(pooled: boolean): Promise<Executor>;
  knownShare(query: string): Promise<number>;
  releasePool(): Promise<void>;
  poolStarted(): boolean;
  sweepWalker(): ((w: HandedWalk) => void) | null;
  shardSearch(sources: Source[], o: SearchOptions): Promise<PipelineOutcome>;
  pooledFiles: PooledFiles;
  sumsUsed(): number;
}

const seams = new WeakMap<Searcher, SearcherSeams>();

export function attachSeams(searcher: Searcher, s: SearcherSeams): void {
  seams.set(searcher, s);
}

function seamsOf(searcher: Searcher): SearcherSeams {
  const s = seams.get(searcher);
  if (!s) throw new SimgrepError('INTERNAL', 'not a searcher made by createSearcher()');
  return s;
}

/**
 * How many chunks the searcher's scans have scored from an index build's kept sums (pooledFilesOf), as its
 * scorers counted them: a sum sent along with a batch whose chunk was dropped by its lexical bound first is
 * not one (tests, benches).
 */
export function pooledSumsUsed(searcher: Searcher): number {
  return seams.get(searcher)?.sumsUsed() ?? 0;
}

/**
 * The files whose chunks' exact sums an index build of this process hands the searcher's in-process scorer
 * (workspace/search/warm-chunks.ts builtSums), and the prose documents it keeps, path -> state
 * (snapshot/prose-stats-file.ts documentState: its last field the content's sha256): a scan meanwhile
 * scores those chunks from the sums, and takes those documents' counted line terms, where it reads the same
 * bytes. Each build registers its own entries (PooledFiles.build) and lets go of them once its index is
 * published (searches use the index then); another build's stay.
 */
export function pooledFilesOf(searcher: Searcher): PooledFiles {
  return seamsOf(searcher).pooledFiles;
}

/**
 * The searcher's search over given sources, answering with the ranked candidates as kept (before they
 * are spread across files and merged into windows): what a cluster worker returns for a shard.
 */
export function shardSearchOf(searcher: Searcher): (sources: Source[], o: SearchOptions) => Promise<PipelineOutcome> {
  return seamsOf(searcher).shardSearch;
}

/**
 * Where a prose sweep's walk can be handed to run beside this thread (rank/prose-sweep.ts walkAhead): a
 * worker of the searcher's pool, when the pool has started and no batch is under way on it; else null
 * (walked on this thread).
 */
export function sweepWalkerOf(searcher: Searcher): ((w: HandedWalk) => void) | null {
  return seams.get(searcher)?.sweepWalker() ?? null;
}

/** Whether the searcher has started its worker threads (and not let them go since): tests, benches. */
export function workersStarted(searcher: Searcher): boolean {
  return seams.get(searcher)?.poolStarted() ?? false;
}

/**
 * Stops the searcher's worker threads, if it started them, and frees their memory (a big index build
 * does before it builds its snapshot); the next search that needs them starts them again.
 */
export async function releaseWorkersOf(searcher: Searcher): Promise<void> {
  await seams.get(searcher)?.releasePool();
}

/**
 * The share of a query's words the searcher's model knows, as its hybrid search plans by (memoised for the
 * last query embedded): a workspace search plans its candidates and prose listing by the same share, so
 * the pipeline ranks with that very plan (rank/plan.ts buildRankPlan).
 */
export function knownShareFor(searcher: Searcher, query: string): Promise<number> {
  return seamsOf(searcher).knownShare(query);
}

/** The searcher's worker pool (pooled) or in-process scorer, for the workspace indexer. */
export function executorOf(searcher: Searcher, pooled: boolean): Promise<Executor> {
  return seamsOf(searcher).executor(pooled);
}
