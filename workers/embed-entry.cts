// The file piscina loads: a CommonJS shim that import()s the ES-module worker (embed.worker.ts).
// Piscina require()s its worker file first. On Node 20.19+ that require() of an ES module can abort
// the whole process (a native assertion in ModuleWrap::CreateRequiredModuleFacade, seen when a pool
// is closed while a worker is still loading); require() of a CommonJS file never takes that path.
import type { WorkerResult, WorkerTask } from '../src/embed/worker-protocol.js';

type Run = (task: WorkerTask) => Promise<WorkerResult>;

// Start loading at once, so the first task does not wait; a load error surfaces on the first task.
const worker: Promise<{ default: Run }> = import('./embed.worker.js');
worker.catch(() => {});

async function run(task: WorkerTask): Promise<WorkerResult> {
  return (await worker).default(task);
}

export = run;
