// The pool's worker threads of two or more builds side by side, from their creation to ready (branch boot35):
// per build a pool made as the searcher makes it (2 threads, the model over its channel, loaded once here with
// the first build's modules and shared by every pool), piscina's filename bench/worker-ready-wrap.cjs, which
// loads the build's dist/workers/embed-entry.cjs. Per thread: the wall time from `new Piscina` and the thread's
// CPU when piscina hands it the file (Node's start of the thread), and when the entry is ready (its code loaded,
// the model received, the scorer built); the CPU between the two; built-in modules loaded. Builds alternate,
// the order reversed every round.
// Usage: [N=10] node bench/worker-ready-side.mjs MODEL ROOT [ROOT...]   (ROOT: a checkout with dist/ built)
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
const [model, ...roots] = process.argv.slice(2).map((a) => path.resolve(a));
if (roots.length === 0) throw new Error('usage: node bench/worker-ready-side.mjs MODEL ROOT [ROOT...]');
const N = Number(process.env.N ?? 10);
const wrap = path.join(path.dirname(new URL(import.meta.url).pathname), 'worker-ready-wrap.cjs');
const first = roots[0];
const { Piscina } = createRequire(`${first}/package.json`)('piscina');
const { offerModel } = await import(`${first}/dist/src/embed/model-channel.js`);
const { loadModel } = await import(`${first}/dist/src/model/load.js`);
const { poolTable, withPoolMemory } = await import(`${first}/dist/src/embed/pool-memory.js`);
const { withSharedDirections } = await import(`${first}/dist/src/embed/static.js`);
const loaded = await loadModel(model, { floatTable: poolTable }).then((m) => withPoolMemory(withSharedDirections(m)));
const rows = new Map(roots.map((r) => [r, []]));
const loads = [];
for (let i = 0; i < N; i++) {
  for (const root of i % 2 ? [...roots].reverse() : roots) {
    const channel = offerModel(Promise.resolve(loaded));
    const t0 = performance.timeOrigin + performance.now();
    const pool = new Piscina({
      filename: wrap, minThreads: 2, maxThreads: 2, concurrentTasksPerWorker: 1,
      workerData: { modelChannel: channel.name, kind: 'static', entry: `${root}/dist/workers/embed-entry.cjs` },
      resourceLimits: { maxYoungGenerationSizeMb: 4 },
    });
    // One probe per thread: a thread answers one task at a time, and both are asked at once.
    const probes = await Promise.all([pool.run({ op: 'probe' }), pool.run({ op: 'probe' })]);
    await pool.destroy();
    channel.close();
    for (const { at, ready } of probes) {
      rows.get(root).push({ atMs: at.t - t0, atCpu: at.cpu, readyMs: ready.t - t0, readyCpu: ready.cpu, codeCpu: ready.cpu - at.cpu, builtins: ready.builtins - at.builtins });
    }
    loads.push(os.loadavg()[0]);
  }
}
const med = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const f = (x) => x.toFixed(1);
console.log(`${N} rounds, 2 threads each, load ${f(Math.min(...loads))}-${f(Math.max(...loads))}`);
for (const [root, r] of rows) {
  console.log(`${path.basename(root).padEnd(12)} handed the file: ${f(med(r.map((x) => x.atMs)))} ms, CPU ${f(med(r.map((x) => x.atCpu)))} ms;`
    + ` ready: ${f(med(r.map((x) => x.readyMs)))} ms, CPU ${f(med(r.map((x) => x.readyCpu)))} ms;`
    + ` file to ready CPU ${f(med(r.map((x) => x.codeCpu)))} ms [${r.map((x) => x.codeCpu.toFixed(0)).join(' ')}]; built-ins loaded ${med(r.map((x) => x.builtins))} (medians)`);
}
