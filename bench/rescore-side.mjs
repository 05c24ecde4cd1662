// Warm searches of two or more builds side by side in one process over one workspace index (issue 30,
// branch rescore30b): the bench's 40 questions and semble-dev's 264 (NQ caps them), in MODES, with
// find_related on each hybrid top hit (REL=1); the builds alternate per call, each call's main-thread CPU
// (/proc schedstat) is kept, and every build's whole answers (results with their window text, warnings,
// the closest miss) are compared as JSON, byte for byte (OUT=PREFIX writes them to PREFIX-<i>.jsonl).
// Each build's warm-up of its code chunks is waited for; KEEP=1: every prose document kept and counted
// first, as in the engine that built the index (as bench/prose/bounds-side.mjs). PROF=FILE: a CPU profile
// of the measured calls (FILE.cpuprofile). A build's dist may count things in globalThis.__C per call:
// summed and shown. CAP=FILE: each call's globalThis.__cap (a list) of the first build saved as JSON.
// The bench's own 40 questions' searches (the MCP harness's) are also shown apart (p50, mean, p95).
// DIST: an absolute path (a built dist/). semble-dev is found as bench/quality/dataset.ts finds it (SIMGREP_SHARED_DIR).
// SIGNAL=1: each call with an AbortSignal that never fires, as the MCP tools pass their client's (cancel41).
// POOL=1: each build's worker pool started first (searcher.warm(), as the MCP engine does), so a search may hand
// work to an idle worker (rescore42: the prose sweep's walk); each call's wall time and the whole process's CPU
// (every thread: process.cpuUsage) are then shown beside the main thread's, and the wall less the main thread's
// wait for a core (/proc schedstat): at load, what the call would take with a core free for it.
// RAW=1: every code file's kept text put back as the engine's own index build keeps it (side-builds.mjs
// keepBuiltText), not as this process's warm-up read it. ROUNDS=N: the questions asked N times, each round's search
// CPU shown apart (round 1: each question asked for the first time, as in the MCP harness's measured pass).
// Usage: [KEEP=1] [RAW=1] [ROUNDS=1] [NQ=304] [MODES=hybrid] [REL=1] [SIGNAL=1] [POOL=1] [OUT=PREFIX] [PROF=FILE] [SETTLE=2000] node bench/rescore-side.mjs INDEX_DIR TREE MODEL DIST [DIST...]
import os from 'node:os';
import { readFileSync, writeFileSync } from 'node:fs';
import inspector from 'node:inspector';
import { keepBuiltText, keepProse, openResident } from './side-builds.mjs';
const [dir, tree, model, ...dists] = process.argv.slice(2);
const cpu = () => Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
// The main thread's time waiting for a core (schedstat's second field): a call's wall less it is what the call would take with a core free.
const queued = () => Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[1]) / 1e6;
const { wss, searchers } = await openResident(dists, dir, model);
const { QUERIES, AGENT_QUERIES, WARMUP_QUERIES } = await import(`${dists[0]}/bench/queries.js`);
const { loadDataset } = await import(`${dists[0]}/bench/quality/dataset.js`);
const semble = loadDataset('semble-dev').queries.map((q) => q.query);
const queries = [...QUERIES, ...AGENT_QUERIES, ...semble].slice(0, Number(process.env.NQ ?? 1e9));
const modes = (process.env.MODES ?? 'hybrid').split(',');
const signal = () => (process.env.SIGNAL === '1' ? { signal: new AbortController().signal } : {});
const search = (ws, query, mode) => ws.search({ query, paths: [tree], topK: 11, nLines: 3, mode, ...signal() });
const related = (ws, file, line) => ws.search({ query: '', like: { path: file, line }, paths: [tree], topK: 11, nLines: 3, mode: 'hybrid', ...signal() });
if (process.env.POOL === '1') for (const s of searchers) await s.warm();
for (const ws of wss) await search(ws, WARMUP_QUERIES[0], 'hybrid');
for (let i = 0; i < dists.length; i++) {
  const mod = await import(`${dists[i]}/src/workspace/search/warm-chunks.js`);
  const alive = setInterval(() => {}, 1000); await mod.chunksWarmed(searchers[i]); clearInterval(alive);
}
if (process.env.KEEP === '1') for (const d of dists) await keepProse(d, dir, tree);
for (const ws of wss) for (const q of WARMUP_QUERIES) await search(ws, q, 'hybrid');
if (process.env.RAW === '1') for (const d of dists) console.log(`${d}: ${await keepBuiltText(d, dir)} code files' kept text put back as a build keeps it`);
await new Promise((ok) => setTimeout(ok, Number(process.env.SETTLE ?? 2000)));
const out = dists.map(() => []);
const T = dists.map(() => ({ search: [], related: [], counts: {}, first: [], wall: { search: [], related: [] }, free: { search: [], related: [] }, proc: { search: [], related: [] } }));
const procCpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e3; };
// The bench's own questions (the MCP harness's: QUERIES, AGENT_QUERIES) apart from semble-dev's: their searches' CPU shown on their own.
const bench = QUERIES.length + AGENT_QUERIES.length;
const session = process.env.PROF ? new inspector.Session() : null;
const post = (m, p) => new Promise((ok, no) => session.post(m, p ?? {}, (e, r) => (e ? no(e) : ok(r))));
if (session) { session.connect(); await post('Profiler.enable'); await post('Profiler.setSamplingInterval', { interval: 200 }); await post('Profiler.start'); }
let n = 0;
const caps = [];
async function call(kind, fn, label) {
  const order = n++ % 2 === 0 ? dists.map((_, i) => i) : dists.map((_, i) => dists.length - 1 - i);
  const res = [];
  for (const i of order) {
    globalThis.__C = undefined; if (process.env.CAP) globalThis.__cap = [];
    const c = cpu(); const p = procCpu(); const q = queued(); const w = performance.now();
    const r = await fn(wss[i]);
    const wall = performance.now() - w;
    T[i].wall[kind].push(wall); T[i].free[kind].push(wall - (queued() - q)); T[i].proc[kind].push(procCpu() - p);
    T[i][kind].push(cpu() - c);
    if (kind === 'search' && queries.indexOf(label.slice(label.indexOf(': ') + 2)) < bench) T[i].first.push(T[i].search.at(-1));
    if (globalThis.__C) for (const [k, v] of Object.entries(globalThis.__C)) T[i].counts[k] = (T[i].counts[k] ?? 0) + v;
    out[i].push(JSON.stringify({ label, results: r.results, warnings: r.warnings, closest: r.closest }));
    res[i] = r; if (process.env.CAP && i === 0) caps.push({ label, ranges: globalThis.__cap });
  }
  return res[0];
}
for (let round = 0; round < Number(process.env.ROUNDS ?? 1); round++) for (const q of queries) {
  for (const mode of modes) {
    const r = await call('search', (ws) => search(ws, q, mode), `${mode}: ${q}`);
    if (mode === 'hybrid' && process.env.REL === '1' && r.results[0]) { const t = r.results[0]; await call('related', (ws) => related(ws, t.filename, t.match_line + 1), `related ${t.filename}:${t.match_line + 1}`); }
  }
}
if (process.env.CAP) writeFileSync(process.env.CAP, JSON.stringify(caps));
if (session) { const { profile } = await post('Profiler.stop'); writeFileSync(`${process.env.PROF}.cpuprofile`, JSON.stringify(profile)); }
const at = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const f = (xs) => xs.length ? `n ${xs.length} p50 ${at(xs, 0.5).toFixed(1)} mean ${(xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(2)} sum ${xs.reduce((a, b) => a + b, 0).toFixed(0)}` : '-';
// A build that hands its prose sweep's walk to the pool (rescore42) counts what became of them.
const handed = await Promise.all(dists.map((d) => import(`${d}/src/rank/prose-sweep.js`).then((m) => m.sweepWalksHanded?.() ?? null)));
dists.forEach((d, i) => {
  console.log(`${d}: search cpu ${f(T[i].search)} | related cpu ${f(T[i].related)}`);
  const rounds = Number(process.env.ROUNDS ?? 1);
  if (rounds > 1) { const per = T[i].search.length / rounds; console.log(`  by round: ${Array.from({ length: rounds }, (_, r) => f(T[i].search.slice(r * per, (r + 1) * per))).join(' | ')}`); }
  console.log(`  the bench's ${bench} questions' searches: cpu ${f(T[i].first)} p95 ${T[i].first.length ? at(T[i].first, 0.95).toFixed(1) : '-'}`);
  if (process.env.POOL === '1') for (const k of ['search', 'related']) if (T[i].wall[k].length) console.log(`  ${k} wall ${f(T[i].wall[k])} p95 ${at(T[i].wall[k], 0.95).toFixed(1)} | less the main thread's wait for a core ${f(T[i].free[k])} p95 ${at(T[i].free[k], 0.95).toFixed(1)} | all threads' cpu ${f(T[i].proc[k])}`);
  if (Object.keys(T[i].counts).length) console.log(`  counts ${JSON.stringify(T[i].counts)}`);
  if (process.env.OUT) writeFileSync(`${process.env.OUT}-${i}.jsonl`, out[i].join('\n') + '\n');
  if (process.env.POOL === '1' && handed[i]) console.log(`  prose sweep walks handed to the pool: ${JSON.stringify(handed[i])}`);
});
let differ = 0; for (let k = 0; k < out[0].length; k++) if (out.some((o) => o[k] !== out[0][k])) differ++;
console.log(`answers: ${out[0].length} calls, ${differ} differ; load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
for (const ws of wss) await ws.close();
for (const s of searchers) await s.close();
process.exit(0);
