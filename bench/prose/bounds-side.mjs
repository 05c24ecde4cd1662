// Warm searches and find_related of two or more builds side by side in one process over one workspace index
// (issue 30, branch prose30): the bench queries, then find_related on each one's top hit, the builds
// alternating per call so each sees the same load; per call the wall time and the main thread's CPU time
// (/proc schedstat), and whether every build answered alike (file, lines, match line, distance). The last
// round is timed. KEEP=1: every prose document kept and counted first, as in the engine that built the
// index (publish.ts); without it the documents not yet read come from the index's statistics file.
// PROF=PREFIX: CPU profiles of the timed round's searches and find_related calls (PREFIX-search.cpuprofile,
// PREFIX-related.cpuprofile), with one DIST.
// A build that warms its index's code chunks in a resident process (src/workspace/search/warm-chunks.ts, branch
// cand30c) is measured once warmed, its warm-up's wall and main-thread CPU shown; WARM=0: not waited for.
// Each build's prose sweep's bytes (sweepHeld, branch sweep30) are shown before and after the timed round.
// MODES=hybrid,lexical,semantic: each query searched in each mode (more calls compared; the timings mix
// them); TOPS=3: find_related on each hybrid search's first 3 hits, not only its top one.
// Usage: [KEEP=1] [WARM=0] [ROUNDS=2] [SETTLE=10000] [NQ=40] [ONLY=search] [PROF=PREFIX] [MODES=hybrid] [TOPS=1] node bench/prose/bounds-side.mjs INDEX_DIR TREE MODEL DIST[@BYTES] [DIST[@BYTES]...]
import os from 'node:os';
import { readFileSync, writeFileSync } from 'node:fs';
import inspector from 'node:inspector';
import { keepProse } from '../side-builds.mjs';
const [dir, tree, model, ...args] = process.argv.slice(2);
// DIST@BYTES: that build's prose sweep bounded to BYTES (prose-sweep.ts setSweepLimitBytes; a copy of a
// dist directory is a build of its own in this process).
const dists = args.map((a) => a.split('@')[0]);
for (const [i, a] of args.entries()) if (a.includes('@')) (await import(`${dists[i]}/src/rank/prose-sweep.js`)).setSweepLimitBytes(Number(a.split('@')[1]));
const cpu = () => { const s = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8'); return Number(s.split(' ')[0]) / 1e6; };
const wss = [];
const searchers = [];
for (const d of dists) {
  const { createWorkspace, createSearcher } = await import(`${d}/src/library.js`);
  const searcher = createSearcher({ model, concurrency: 2 });
  searchers.push(searcher);
  wss.push(createWorkspace({ dir, model, concurrency: 2, resident: true, searcher }));
}
// A build that warms its index's chunks in the background (warm-chunks.js): waited for, and its cost shown.
async function warmed() {
  for (let i = 0; i < dists.length; i++) {
    let mod = null;
    try { mod = await import(`${dists[i]}/src/workspace/search/warm-chunks.js`); } catch { continue; }
    const c = cpu(); const t = performance.now(); const alive = setInterval(() => {}, 1000);
    await mod.chunksWarmed(searchers[i]); clearInterval(alive);
    console.error(`${dists[i]}: warmed in ${(performance.now() - t).toFixed(0)} ms wall, main-thread CPU ${(cpu() - c).toFixed(0)} ms (after the first search)`);
  }
}
const { QUERIES, AGENT_QUERIES, WARMUP_QUERIES } = await import(`${dists[0]}/bench/queries.js`);
const queries = [...QUERIES, ...AGENT_QUERIES].slice(0, Number(process.env.NQ ?? 40));
const search = (ws, query, mode = 'hybrid') => ws.search({ query, paths: [tree], topK: 11, nLines: 3, mode });
const modes = (process.env.MODES ?? 'hybrid').split(',');
const nTops = Number(process.env.TOPS ?? 1);
const related = (ws, file, line) => ws.search({ query: '', like: { path: file, line }, paths: [tree], topK: 11, nLines: 3, mode: 'hybrid' });
const key = (r) => r.results.map((h) => `${h.filename}:${h.start}-${h.end}:${h.match_line}:${h.distance}`).join('|');
for (const ws of wss) await search(ws, WARMUP_QUERIES[0]);
if (process.env.WARM !== '0') await warmed();
if (process.env.KEEP === '1') {
  // As the engine that built the index has them: every prose document kept and counted (publish.ts keepIfProse).
  for (const d of dists) {
    const t = performance.now();
    const n = await keepProse(d, dir, tree);
    console.error(`kept ${n} documents, read and counted in ${(performance.now() - t).toFixed(0)} ms`);
  }
}
/** The bytes and documents each build's prose sweep holds (rank/prose-sweep.ts sweepHeld, where it has one). */
async function sweeps(when) {
  for (const d of dists) {
    const { sweepHeld } = await import(`${d}/src/rank/prose-sweep.js`).catch(() => ({}));
    if (sweepHeld) { const h = sweepHeld(); console.error(`${d}: sweep ${when}: ${(h.bytes / 2 ** 20).toFixed(1)} MB, ${h.documents} documents`); }
  }
}
for (const ws of wss) for (const q of WARMUP_QUERIES) await search(ws, q);
await sweeps('before the timed round');
const rounds = Number(process.env.ROUNDS ?? 2);
const only = process.env.ONLY;
const T = { search: wss.map(() => ({ wall: [], cpu: [] })), related: wss.map(() => ({ wall: [], cpu: [] })) };
const differ = { search: new Set(), related: new Set() };
async function call(kind, fn, label) {
  const keys = [];
  let first;
  for (let i = 0; i < wss.length; i++) {
    const c = cpu(); const t = performance.now();
    const res = await fn(wss[i]);
    const wall = performance.now() - t; const cc = cpu() - c;
    if (measuring) { T[kind][i].wall.push(wall); T[kind][i].cpu.push(cc); }
    keys.push(key(res)); if (i === 0) first = res;
  }
  if (keys.some((k) => k !== keys[0])) differ[kind].add(label);
  return first;
}
let measuring = false;
const session = process.env.PROF ? new inspector.Session() : null;
const post = (m, p) => new Promise((ok, no) => session.post(m, p ?? {}, (e, r) => (e ? no(e) : ok(r))));
if (session) { session.connect(); await post('Profiler.enable'); await post('Profiler.setSamplingInterval', { interval: 200 }); }
const startProf = async () => { if (session && measuring) await post('Profiler.start'); };
const stopProf = async (name) => { if (session && measuring) { const { profile } = await post('Profiler.stop'); writeFileSync(`${process.env.PROF}-${name}.cpuprofile`, JSON.stringify(profile)); } };
for (let r = 0; r < rounds; r++) {
  if (r === rounds - 1 && process.env.SETTLE !== '0') await new Promise((done) => setTimeout(done, Number(process.env.SETTLE ?? 10000)));
  measuring = r === rounds - 1;
  const tops = [];
  await startProf();
  for (const q of queries) {
    for (const mode of modes) {
      const res = await call('search', (ws) => search(ws, q, mode), `${mode}: ${q}`);
      if (mode === 'hybrid') tops.push(...res.results.slice(0, nTops));
    }
  }
  await stopProf('search');
  if (only === 'search') continue;
  await startProf();
  for (const top of tops) await call('related', (ws) => related(ws, top.filename, top.match_line + 1), `${top.filename}:${top.match_line + 1}`);
  await stopProf('related');
}
const at = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const f = (xs) => `n ${xs.length} p50 ${at(xs, 0.5).toFixed(1)} p95 ${at(xs, 0.95).toFixed(1)} max ${Math.max(...xs).toFixed(1)} sum ${xs.reduce((a, b) => a + b, 0).toFixed(0)}`;
for (const kind of ['search', 'related']) {
  T[kind].forEach((t, i) => { if (t.wall.length) console.log(`${kind} ${dists[i]}: wall ${f(t.wall)} | cpu ${f(t.cpu)}`); });
  console.log(`${kind}: ${differ[kind].size} differ`); for (const q of differ[kind]) console.log(`  differs: ${q}`);
}
await sweeps('after it');
console.log(`load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
for (const ws of wss) await ws.close();
for (const s of searchers) await s.close();
process.exit(0);
