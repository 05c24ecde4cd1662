// piscina's filename in bench/worker-ready-side.mjs: notes the thread's CPU (/proc schedstat) when piscina hands
// it the file (Node's start of the thread and piscina's worker module done), then loads the build's real entry
// (workerData.entry) and, once that says it is ready (its code loaded, the model received, the scorer built),
// the CPU again and the built-in modules it loaded. A task { op: 'probe' } answers them; any other, the real handler.
const { readFileSync } = require('node:fs');
const { workerData } = require('node:worker_threads');
const cpu = () => Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
const at = { t: performance.timeOrigin + performance.now(), cpu: cpu(), builtins: process.moduleLoadList.length };
module.exports = Promise.resolve(require(workerData.entry)).then((run) => {
  const ready = { t: performance.timeOrigin + performance.now(), cpu: cpu(), builtins: process.moduleLoadList.length };
  return async (task) => (task.op === 'probe' ? { at, ready } : run(task));
});
