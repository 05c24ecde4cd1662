// The file piscina loads: a CommonJS shim that import()s the ES-module worker (embed.worker.ts).
// Piscina require()s its worker file first. On Node 20.19+ that require() of an ES module can abort
// the whole process (a native assertion in ModuleWrap::CreateRequiredModuleFacade, seen when a pool
// is closed while a worker is still loading); require() of a CommonJS file never takes that path.
import type { WorkerResult, WorkerTask } from '../src/embed/worker-protocol.js';

type Run = (task: WorkerTask) => Promise<WorkerResult>;

// Piscina awaits what this file exports before it says the thread is ready and blocks it in Atomics.wait
// between tasks, and a thread blocked there runs no promise: a load begun here and not awaited stood still
// until the first task woke the thread (the MCP engine's first answer waited ~0.3 s for each worker's code,
// model and scorer). So the export is the promise of the handler, settled once the worker module has loaded
// and says it is ready (the model received and the scorer built); a load error still surfaces on
// each task, as the handler's.
const run: Promise<Run> = import('./embed.worker.js').then(
  (m: { default: Run; ready: Promise<void> }) => m.ready.then(() => m.default),
  (e: unknown) => async () => { throw e; },
);

export = run;
