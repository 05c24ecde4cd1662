// The piscina pool: sizing, typed-error rebuild, and the worker file located by path (never imported).
import { createRequire } from 'node:module';
import { deserializeError, SimgrepError } from './errors.js';
import type { ChunkEmbedRequest, ScoreRequest } from './embed/requests.js';
import type { LineTokens } from './embed/line-cosines.js';
import type { KeptChunks } from './embed/kept-chunks.js';
import type { HandedWalk } from './rank/prose-sweep-walk.js';
import type { WorkerResult, WorkerTask } from './embed/worker-protocol.js';
import type { EmbedderKind, ModelData } from './types.js';
import { offerModel } from './embed/model-channel.js';
import { planKeyOf } from './embed/plan-key.js';
import { builtWorkerFile } from './worker-file.js';

// piscina through require (its CommonJS entry), not its ESM wrapper (`import mod from "./main.js"`,
// then `mod.Piscina`): imported while the MCP engine loaded other modules at once, with node_modules
// a symbolic link (every worktree), the wrapper now and then got the exports of a second, never-loaded
// record of main.js ({}) and `new Piscina` threw "Piscina is not a constructor" (4 of 6 engine starts
// with warm() building the pool and the in-process scorer at once; 0 of 6 through require).
const { Piscina } = createRequire(import.meta.url)('piscina') as typeof import('piscina');

export interface Executor {
  /** How many batches to keep in flight: about 2 per thread. */
  readonly capacity: number;
  /**
   * Distances of a batch's lines. Takes `req.bytes` and `req.offsets`: the pool moves a buffer that
   * is theirs alone to the worker thread (no copy), so the caller must not read them after.
   */
  score(req: ScoreRequest): Promise<Float32Array>;
  embedTexts(texts: string[]): Promise<Float32Array>;
  /** Per text, 1 when its embedding is not all zeros, from its tokens alone (the in-process executor; others embed). */
  knownTexts?(texts: string[]): Promise<Uint8Array>;
  /** Lines' token ids and pooled norms, tokenized as the workers tokenize them (the in-process executor only). */
  tokenLines?(texts: string[]): Promise<LineTokens>;
  /** Chunks' exact pooled sums (chunks x dim; NaN for a chunk with no token), as a search's scoring sums them. */
  chunkSums?(req: ChunkEmbedRequest): Promise<Float64Array>;
  /**
   * Keeps chunks' sums (chunkSums) under their keys for later searches, before any scores them (the
   * in-process executor only: line-scorer.ts); false once its store has no room.
   */
  keepSums?(keys: string[], sums: Float64Array): Promise<boolean>;
  /** The in-process executor's kept chunks (embed/kept-chunks.ts): which sums it has; its warmed ones compacted. */
  keptChunks?(): KeptChunks | undefined;
  embedChunks(req: ChunkEmbedRequest): Promise<Float32Array>;
  /** embedChunks' vectors with each chunk's exact pooled sum (chunkSums'): a resident process's index build. */
  embedChunkSums?(req: ChunkEmbedRequest): Promise<{ vectors: Float32Array; sums: Float64Array }>;
  /**
   * Works out now, on one of its threads, what the kernel's pruning bound needs whatever the query (the
   * pruning directions, shared by the searcher's threads): a searcher warming up (searcher.ts warm()).
   */
  prepareBound(): Promise<void>;
  close(): Promise<void>;
  /** Tasks the worker threads have finished (the pool only): whether a warm-up reached them. */
  readonly completed?: number;
  /**
   * A prose sweep's walk handed over (rank/prose-sweep.ts walkAhead), walked on a worker thread into its
   * shared bests unless taken back first: the floats walkLists gives on any thread. The pool only.
   */
  walkSweep?(w: HandedWalk): Promise<void>;
  /**
   * Tasks sent to the worker threads and not answered yet but the sweep's walks (the pool only): 0 when no
   * batch keeps a thread busy (a walk is done in ~1-3 ms, or taken back by its search before it begins).
   */
  readonly pending?: number;
}

export interface PoolOptions {
  /**
   * The model, or the promise of it: then the threads start at once and load their code while this
   * thread loads the model, which each gets over a channel once loaded (model-channel.ts).
   */
  model: ModelData | Promise<ModelData>;
  kind: EmbedderKind;
  threads: number;
  /** Gains the sums scans' batches brought along (ChunkRequest.keptSums) that the workers' scoring used. */
  counts?: { keptSumsUsed: number };
}

export function createPool(opts: PoolOptions): Executor {
  const threads = Math.max(1, Math.floor(opts.threads));
  const channel = opts.model instanceof Promise ? offerModel(opts.model) : null;
  const pool = new Piscina({
    filename: workerFile(),
    minThreads: threads,
    maxThreads: threads,
    concurrentTasksPerWorker: 1,
    idleTimeout: 60_000,
    workerData: channel ? { modelChannel: channel.name, kind: opts.kind } : { model: opts.model, kind: opts.kind },
    // A small young generation: batches make short-lived garbage, and V8's default 16 MB semi-spaces
    // per worker showed up as ~20 MB of peak RSS each for no speed gain (bench/RESULTS.md); 16 MB was
    // tried again for issue 30 and cost the four-agent memory target (docs/agents.md).
    resourceLimits: { maxYoungGenerationSizeMb: 4 },
  });
  // Tasks under way but the sweep's walks (those say when they are done in shared memory, before the answer comes back).
  let pending = 0;
  const answer = async (task: WorkerTask, transferList?: ArrayBuffer[]): Promise<WorkerResult & { ok: true }> => {
    let res: WorkerResult;
    const counted = task.op !== 'walkSweep';
    if (counted) pending++;
    try {
      res = await pool.run(task, transferList && { transferList });
    } catch (e) {
      throw new SimgrepError('WORKER_FAILED', `a worker thread failed: ${(e as Error).message}; retry with -J 1 or --embedder static`, { cause: e });
    } finally {
      if (counted) pending--;
    }
    if (!res.ok) throw deserializeError(res.error);
    return res;
  };
  const run = async (task: WorkerTask, transferList?: ArrayBuffer[]): Promise<Float32Array> => (await answer(task, transferList) as { values: Float32Array }).values;
  const gate = createSearchFirstGate(threads);
  const counts = opts.counts ?? { keptSumsUsed: 0 };
  return {
    capacity: threads * 2,
    // A prose document's kept line tokens stay on this thread (requests.ts rangeTokens): the worker tokenizes.
    score: (req) => gate.search(async () => {
      const res = await answer({ op: 'score', ...withoutTokens(req) }, movable(req.bytes, req.offsets, ...(req.chunks?.keptSums ? [req.chunks.keptSums.sums] : []))) as { values: Float32Array; keptSumsUsed?: number };
      counts.keptSumsUsed += res.keptSumsUsed ?? 0;
      return res.values;
    }),
    embedTexts: (texts) => run({ op: 'embed', texts }),
    embedChunks: (req) => gate.build(() => run({ op: 'embedChunks', ...req })),
    embedChunkSums: (req) => gate.build(async () => {
      const res = await answer({ op: 'embedChunkSums', ...req }) as { values: Float32Array; sums: Float64Array };
      return { vectors: res.values, sums: res.sums };
    }),
    prepareBound: async () => { await run({ op: 'prepareBound' }); },
    chunkSums: (req) => gate.build(async () => (await answer({ op: 'chunkSums', ...req }, movable(req.bytes, req.offsets)) as { sums: Float64Array }).sums),
    walkSweep: async (w) => { await answer({ op: 'walkSweep', ...w }); },
    close: () => { channel?.close(); return pool.destroy(); },
    get completed() { return pool.completed; },
    get pending() { return pending; },
  };
}

/**
 * The buffers of these views that can move to a worker rather than be copied (a batch of 2,064 lines
 * is ~100 KB of bytes and 8 KB of offsets, ~400 of them in a scan of the bench tree): each view's
 * whole, unshared buffer. A view into a larger buffer is copied as before, so nothing else is detached.
 */
/** A score request without its prose documents' kept line tokens (requests.ts rangeTokens: for an in-process scorer), its plan named (plan-key.ts). */
export function withoutTokens(req: ScoreRequest): ScoreRequest {
  if (!req.chunks) return req;
  const { rangeTokens: _, ...chunks } = req.chunks;
  return { ...req, chunks: { ...chunks, planKey: planKeyOf(chunks.plan) } };
}

export function movable(...views: ArrayBufferView[]): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  for (const v of views) {
    const buf = v.buffer;
    if (buf instanceof ArrayBuffer && v.byteOffset === 0 && v.byteLength === buf.byteLength && buf.byteLength > 0 && !out.includes(buf)) out.push(buf);
  }
  return out;
}

/** How long the gate stays shut after a search's last batch: the pipeline refills between batches. */
const SEARCH_QUIET_MS = 25;

/**
 * Searches first (issue 30): one pool serves the searches and the index builds of a long-lived
 * process (the MCP server, simgrep serve), and a build queues its embeddings a flush at a time, so a
 * search started during a build would wait behind the whole build. Here, while a search is scoring
 * (and briefly after), a build keeps one batch in flight: the search waits for at most that one and
 * has most of the workers, and the build still moves on under back-to-back searches. Otherwise a build
 * queues at most one batch per thread, so a search that starts waits for no more than those.
 */
export function createSearchFirstGate(threads: number) {
  let searching = 0;
  let building = 0;
  let quietTimer: NodeJS.Timeout | null = null;
  let shut = false;
  const waiting: (() => void)[] = [];
  const room = () => (shut || searching > 0 ? 1 : threads);
  const wake = () => {
    while (waiting.length > 0 && building < room()) { building++; waiting.shift()!(); }
  };
  return {
    async search<T>(task: () => Promise<T>): Promise<T> {
      searching++;
      shut = true;
      if (quietTimer) { clearTimeout(quietTimer); quietTimer = null; }
      try {
        return await task();
      } finally {
        if (--searching === 0) {
          // Not unref'd: a build waiting here must keep the process alive until it runs.
          quietTimer = setTimeout(() => { quietTimer = null; shut = false; wake(); }, SEARCH_QUIET_MS);
        }
      }
    },
    async build<T>(task: () => Promise<T>): Promise<T> {
      if (building >= room() || waiting.length > 0) await new Promise<void>((resolve) => waiting.push(resolve));
      else building++;
      try {
        return await task();
      } finally {
        building--;
        wake();
      }
    },
  };
}

/** dist/workers/embed-entry.cjs: the pool cannot run without it. */
function workerFile(): string {
  const file = builtWorkerFile('embed-entry.cjs');
  if (!file) throw new SimgrepError('INTERNAL', 'the worker file dist/workers/embed-entry.cjs is missing; run `npm run build`');
  return file;
}
