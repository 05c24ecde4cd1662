// Piscina worker: builds one LineScorer over the shared model tables and answers score/embed tasks.
// Errors come back as { ok: false, error: { code, message } } because classes do not cross threads.
import { workerData } from 'node:worker_threads';
import { serializeError } from '../src/errors.js';
import { createLineScorer, type LineScorer } from '../src/embed/line-scorer.js';
import { receiveModel } from '../src/embed/model-channel.js';
import { walkHanded } from '../src/rank/prose-sweep-walk.js';
import type { WorkerResult, WorkerTask } from '../src/embed/worker-protocol.js';
import type { EmbedderKind, ModelData } from '../src/types.js';

const { model, modelChannel, kind } = workerData as { model?: ModelData; modelChannel?: string; kind: EmbedderKind };
// Built as the thread starts, not on its first task: every task needs it, and the thread starts while
// the caller is still embedding the query and listing files (a failure is each task's answer). A pool
// started before its model was loaded hands it over once loaded (embed/model-channel.ts).
const scorer: Promise<LineScorer> = (model ? Promise.resolve(model) : receiveModel(modelChannel!)).then((m) => createLineScorer(m, kind));
// The entry waits for it (embed-entry.cts): the thread is ready for tasks only then. A model that failed
// to load fails each task with its own error, as before. Not a top-level await: a worker terminated while
// its module is still evaluating one (a pool closed at once: a search that failed first) aborts the whole
// process in V8 ("Check failed: (location_) != nullptr" in ExecuteAsyncModule; seen in CI).
export const ready: Promise<void> = scorer.then(() => {}, () => {});

export default async function run(task: WorkerTask): Promise<WorkerResult> {
  try {
    // A prose sweep's walk (rank/prose-sweep.ts walkAhead): its lists and bests in shared memory, no scorer needed.
    if (task.op === 'walkSweep') { walkHanded(task); return { ok: true, values: new Float32Array(0) }; }
    const s = await scorer;
    if (task.op === 'prepareBound') { s.prepareBound(); return { ok: true, values: new Float32Array(0) }; }
    if (task.op === 'chunkSums') return { ok: true, sums: await s.chunkSums(task) };
    if (task.op === 'embedChunkSums') { const { vectors, sums } = await s.embedChunkSums(task); return { ok: true, values: vectors, sums }; }
    if (task.op === 'score') {
      const counts = { keptSumsUsed: 0 };
      const values = await s.score(task, counts);
      return { ok: true, values, ...(counts.keptSumsUsed > 0 && { keptSumsUsed: counts.keptSumsUsed }) };
    }
    const values = task.op === 'embedChunks' ? await s.embedChunks(task) : await s.embedTexts(task.texts);
    return { ok: true, values };
  } catch (e) {
    return { ok: false, error: serializeError(e) };
  }
}
