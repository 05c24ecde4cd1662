// ONNX pooling kernel: the model2vec mean-pool graph (onnx-graph.ts) run by onnxruntime-node on the
// CPU, one session pair per worker thread, single-threaded unless told otherwise.
import { SimgrepError } from '../errors.js';
import type { ModelData, TokenizedBatch } from '../types.js';
import type { PoolingKernel } from './embedder.js';
import { buildEmbedGraph, buildScoreGraph, PoolingInputs, PoolingOutputs } from './onnx-graph.js';
import { createPacker, type PackedChunk } from './onnx-pack.js';

type Ort = typeof import('onnxruntime-node');
type Session = import('onnxruntime-node').InferenceSession;
type Tensor = import('onnxruntime-node').Tensor;

export interface OnnxKernelOptions {
  /** ORT intra-op threads per session (default 1: parallelism comes from the worker pool). */
  intraOpNumThreads?: number;
  /**
   * Max lines x tokens per session run (default: 2M floats of gathered rows, 8192 cells at dim
   * 256). Bigger batches are split; this keeps each run's intermediates cache-sized.
   */
  maxCellsPerRun?: number;
  /**
   * Rows kept in the worker-local row cache (default: 4M floats, 16 MB, 16384 rows at dim 256;
   * never more than the table). At least maxCellsPerRun.
   */
  rowCacheRows?: number;
}

const GATHER_BUDGET_FLOATS = 1 << 21;
const ROW_CACHE_FLOATS = 1 << 22;

const UNAVAILABLE_HINT = 'Reinstall it (`npm install onnxruntime-node`, or `npm rebuild onnxruntime-node` '
  + 'after a Node.js upgrade) or use --embedder static.';

/** Loads onnxruntime-node lazily, so the static embedder never needs the native binding. */
async function loadOrt(): Promise<Ort> {
  try {
    const mod = (await import('onnxruntime-node')) as Ort & { default?: Ort };
    const ort = mod.default ?? mod;
    if (typeof ort.InferenceSession?.create !== 'function') throw new Error('InferenceSession is missing');
    return ort;
  } catch (e) {
    throw new SimgrepError('EMBEDDER_UNAVAILABLE',
      `The onnx embedder needs onnxruntime-node, which failed to load (${errorText(e)}). ${UNAVAILABLE_HINT}`,
      { cause: e });
  }
}

/** First line of the message, then of each cause (the loader often wraps the dlopen error). */
function errorText(e: unknown): string {
  const text = (e instanceof Error ? e.message : String(e)).split('\n')[0];
  return e instanceof Error && e.cause !== undefined ? `${text}: ${errorText(e.cause)}` : text;
}

export async function createOnnxKernel(model: ModelData, opts: OnnxKernelOptions = {}): Promise<PoolingKernel> {
  const ort = await loadOrt();
  const { dim } = model;
  const options: import('onnxruntime-node').InferenceSession.SessionOptions = {
    executionProviders: ['cpu'],
    intraOpNumThreads: opts.intraOpNumThreads ?? 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    // Only cli/ writes to stderr; real failures surface as rejected runs.
    logSeverityLevel: 3,
  };
  const sessions: Session[] = [];
  try {
    sessions.push(await ort.InferenceSession.create(buildEmbedGraph({ dim, normalize: model.normalize }), options));
    sessions.push(await ort.InferenceSession.create(buildScoreGraph({ dim }), options));
  } catch (e) {
    await Promise.allSettled(sessions.map((s) => s.release()));
    throw new SimgrepError('EMBEDDER_UNAVAILABLE',
      `onnxruntime-node could not start a CPU session (${errorText(e)}). ${UNAVAILABLE_HINT}`, { cause: e });
  }
  const [embedSession, scoreSession] = sessions;
  const maxCells = opts.maxCellsPerRun ?? Math.max(1, Math.floor(GATHER_BUDGET_FLOATS / dim));
  const cacheRows = opts.rowCacheRows ?? Math.floor(ROW_CACHE_FLOATS / dim);
  const packer = createPacker(model, { maxCells, cacheRows });
  // The row cache is shared by every run of this kernel: one batch at a time.
  let queue: Promise<unknown> = Promise.resolve();
  function exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = queue.then(fn, fn);
    queue = run.catch(() => undefined);
    return run;
  }

  function feeds(c: PackedChunk): Record<string, Tensor> {
    const lines = c.lines.length;
    const rows = packer.cache.view();
    return {
      [PoolingInputs.rowTable]: new ort.Tensor('float32', rows.data, [rows.rows, dim]),
      [PoolingInputs.rowIds]: new ort.Tensor('int32', c.rowIds, [lines, c.len]),
      [PoolingInputs.weights]: new ort.Tensor('float32', c.weights, [lines, c.len]),
    };
  }

  /** Runs every chunk of the batch in turn; `take` scatters a run's rows back to line order. */
  function runChunks(batch: TokenizedBatch, session: Session, extra: Record<string, Tensor>,
    output: string, take: (c: PackedChunk, data: Float32Array) => void): Promise<void> {
    return exclusive(async () => {
      for (const chunk of packer.chunks(batch)) {
        const result = await session.run({ ...feeds(chunk), ...extra });
        take(chunk, result[output].data as Float32Array);
      }
    });
  }

  return {
    id: `onnx:${model.id}`,
    dim,
    async embed(batch) {
      const out = new Float32Array((batch.lineStarts.length - 1) * dim);
      await runChunks(batch, embedSession, {}, PoolingOutputs.embeddings, (c, data) => {
        for (let b = 0; b < c.lines.length; b++) out.set(data.subarray(b * dim, (b + 1) * dim), c.lines[b] * dim);
      });
      return out;
    },
    async score(batch, query) {
      if (query.length !== dim) {
        throw new SimgrepError('INTERNAL', `query has ${query.length} dimensions, the model has ${dim}`);
      }
      const out = new Float32Array(batch.lineStarts.length - 1).fill(NaN);
      // A plain copy: onnxruntime-node rejects typed arrays over a SharedArrayBuffer, where the
      // pipeline keeps the query.
      const extra = { [PoolingInputs.query]: new ort.Tensor('float32', new Float32Array(query), [dim]) };
      await runChunks(batch, scoreSession, extra, PoolingOutputs.scores, (c, data) => {
        for (let b = 0; b < c.lines.length; b++) out[c.lines[b]] = data[b];
      });
      return out;
    },
    close() {
      return exclusive(async () => { for (const s of sessions) await s.release(); });
    },
  };
}
