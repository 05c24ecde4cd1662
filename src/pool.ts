// The piscina pool: sizing, typed-error rebuild, and the worker file located by path (never imported).
import { Piscina } from 'piscina';
import { deserializeError, SimgrepError } from './errors.js';
import type { ChunkEmbedRequest, ScoreRequest } from './embed/requests.js';
import type { WorkerResult, WorkerTask } from './embed/worker-protocol.js';
import type { EmbedderKind, ModelData } from './types.js';
import { builtWorkerFile } from './worker-file.js';

export interface Executor {
  /** How many batches to keep in flight: about 2 per thread. */
  readonly capacity: number;
  score(req: ScoreRequest): Promise<Float32Array>;
  embedTexts(texts: string[]): Promise<Float32Array>;
  embedChunks(req: ChunkEmbedRequest): Promise<Float32Array>;
  close(): Promise<void>;
}

export interface PoolOptions { model: ModelData; kind: EmbedderKind; threads: number }

export function createPool(opts: PoolOptions): Executor {
  const threads = Math.max(1, Math.floor(opts.threads));
  const pool = new Piscina({
    filename: workerFile(),
    minThreads: threads,
    maxThreads: threads,
    concurrentTasksPerWorker: 1,
    idleTimeout: 60_000,
    workerData: { model: opts.model, kind: opts.kind },
    // A small young generation: batches make short-lived garbage, and V8's default 16 MB semi-spaces
    // per worker showed up as ~20 MB of peak RSS each for no speed gain (bench/RESULTS.md).
    resourceLimits: { maxYoungGenerationSizeMb: 4 },
  });
  const run = async (task: WorkerTask): Promise<Float32Array> => {
    let res: WorkerResult;
    try {
      res = await pool.run(task);
    } catch (e) {
      throw new SimgrepError('WORKER_FAILED', `a worker thread failed: ${(e as Error).message}; retry with -J 1 or --embedder static`, { cause: e });
    }
    if (!res.ok) throw deserializeError(res.error);
    return res.values;
  };
  return {
    capacity: threads * 2,
    score: (req) => run({ op: 'score', ...req }),
    embedTexts: (texts) => run({ op: 'embed', texts }),
    embedChunks: (req) => run({ op: 'embedChunks', ...req }),
    close: () => pool.destroy(),
  };
}

/** dist/workers/embed-entry.cjs: the pool cannot run without it. */
function workerFile(): string {
  const file = builtWorkerFile('embed-entry.cjs');
  if (!file) throw new SimgrepError('INTERNAL', 'the worker file dist/workers/embed-entry.cjs is missing; run `npm run build`');
  return file;
}
