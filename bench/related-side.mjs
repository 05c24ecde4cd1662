// find_related of two or more builds side by side in one process (issue 30, branch related30b): resident
// workspaces over one index, every prose document kept and counted and the code chunks warmed first (as
// in the engine that built it); the targets are the top hit of each of the 40 bench queries (the MCP
// harness's find_related calls) and seeded random lines of code and Markdown files (NREL in all), each
// asked once per build, the builds' order rotating call by call. Per build the main thread's CPU a call
// (/proc schedstat); every answer's whole results JSON compared byte for byte between the builds (the
// differing targets printed), and written to OUT-<i>.txt with OUT. PROF=PREFIX: a CPU profile of the calls.
// Usage: [NREL=140] [SETTLE=2000] [OUT=PREFIX] [PROF=PREFIX] node bench/related-side.mjs INDEX TREE MODEL DIST [DIST...]
import os from 'node:os';
import path from 'node:path';
import inspector from 'node:inspector';
import { readFileSync, writeFileSync } from 'node:fs';
import { keepProse, openResident, seeded, filesUnder } from './side-builds.mjs';
const [dir, tree, model, ...dists] = process.argv.slice(2).map((a, i) => (i >= 3 ? path.resolve(a) : a));
const cpu = () => Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
const TOP = 10;
const { wss, searchers } = await openResident(dists, dir, model);
const { QUERIES, AGENT_QUERIES, WARMUP_QUERIES } = await import(`${dists[0]}/bench/queries.js`);
const search = (ws, query) => ws.search({ query, paths: [tree], topK: TOP, nLines: 3, mode: 'hybrid' });
const related = (ws, file, line) => ws.search({ query: '', like: { path: file, line }, paths: [tree], topK: TOP, nLines: 3, mode: 'hybrid' });
for (const ws of wss) await search(ws, WARMUP_QUERIES[0]);
for (const [i, d] of dists.entries()) {
  const { chunksWarmed } = await import(`${d}/src/workspace/search/warm-chunks.js`);
  const alive = setInterval(() => {}, 1000); await chunksWarmed(searchers[i]); clearInterval(alive);
  await keepProse(d, dir, tree);
}
for (const ws of wss) for (const q of WARMUP_QUERIES) await search(ws, q);
const { rand, pick } = seeded(30);
const files = filesUnder;
const targets = [];
for (const q of [...QUERIES, ...AGENT_QUERIES]) { const r = await search(wss[0], q); if (r.results[0]) targets.push([r.results[0].filename, r.results[0].match_line + 1]); }
const code = files(tree, ['.ts', '.py', '.go', '.rs', '.js', '.java', '.md']);
for (const f of pick(code, Number(process.env.NREL ?? 140) - targets.length)) {
  const n = readFileSync(f, 'utf8').split('\n').length;
  targets.push([f, 1 + Math.floor(rand() * Math.max(1, n - 1))]);
}
await new Promise((ok) => setTimeout(ok, Number(process.env.SETTLE ?? 2000)));
const session = process.env.PROF ? new inspector.Session() : null;
const post = (m, p) => new Promise((ok, no) => session.post(m, p ?? {}, (e, r) => (e ? no(e) : ok(r))));
if (session) { session.connect(); await post('Profiler.enable'); await post('Profiler.setSamplingInterval', { interval: 200 }); await post('Profiler.start'); }
const T = dists.map(() => []); const A = dists.map(() => []);
let differ = 0; let turn = 0;
for (const [f, line] of targets) {
  const out = [];
  for (let j = 0; j < dists.length; j++) {
    const i = (j + turn) % dists.length;
    const c = cpu();
    let r;
    try { r = await related(wss[i], f, line); } catch (e) { r = { error: e.message }; }
    T[i].push(cpu() - c);
    out[i] = JSON.stringify(r.error ? r : r.results);
    A[i].push(`${f}:${line}\t${out[i]}`);
  }
  turn++;
  if (out.some((o) => o !== out[0])) { differ++; console.log(`differs: ${f}:${line}`); }
}
if (session) { const { profile } = await post('Profiler.stop'); writeFileSync(`${process.env.PROF}-related.cpuprofile`, JSON.stringify(profile)); }
const at = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
for (const [i, d] of dists.entries()) {
  const xs = T[i]; const h = xs.slice(0, 40);
  console.log(`${d}: cpu all n ${xs.length} p50 ${at(xs, 0.5).toFixed(1)} p95 ${at(xs, 0.95).toFixed(1)} sum ${xs.reduce((a, b) => a + b, 0).toFixed(0)} | first 40 (bench hits) p50 ${at(h, 0.5).toFixed(1)} sum ${h.reduce((a, b) => a + b, 0).toFixed(0)}`);
  if (process.env.OUT) writeFileSync(`${process.env.OUT}-${i}.txt`, A[i].join('\n') + '\n');
}
console.log(`${differ} of ${targets.length} differ; load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
for (const ws of wss) await ws.close();
for (const s of searchers) await s.close();
process.exit(0);
