// What a cap on a long query's terms (RANK_DEFAULTS.maxQueryTerms, rank/query-terms.ts) costs and changes,
// in one process over one workspace index (issue 30, branch terms30): find_related on the bench queries'
// top hits and on seeded random lines of code files, and whole files pasted as the query (over the index,
// and over src/ by a scan), each call run once per cap, the caps' order rotating call by call so each
// sees the same load and caches. Per cap: the main thread's CPU (/proc schedstat) and the process's CPU
// (all threads) per find_related call, overlap@10 with the first cap's answers, and how often a pasted
// file ranks itself first. KEEP=1: every prose document kept and counted first, as in the engine.
// Usage: [KEEP=1] [PRERUN=0] [NREL=120] [NFILES=50] node bench/query-length/term-cap.mjs INDEX_DIR TREE MODEL DIST CAP[:GRAMTERMS][,...]
import os from 'node:os';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { keepProse, seeded, filesUnder } from '../side-builds.mjs';
const [dir, tree, model, dist, capList] = process.argv.slice(2);
// CAP or CAP:GRAMTERMS: RANK_DEFAULTS.maxQueryTerms, and maxGramTerms (a query with more terms has no
// grams; Infinity: every query keeps them, as before branch terms30).
const caps = capList.split(',');
const setCap = (c) => { const [t, g] = c.split(':'); RANK_DEFAULTS.maxQueryTerms = Number(t); if (g !== undefined) RANK_DEFAULTS.maxGramTerms = Number(g); };
const distUrl = path.resolve(dist);
const { createWorkspace, createSearcher } = await import(`${distUrl}/src/library.js`);
const { RANK_DEFAULTS } = await import(`${distUrl}/src/rank/plan.js`);
const { QUERIES, AGENT_QUERIES, WARMUP_QUERIES } = await import(`${distUrl}/bench/queries.js`);
const cpu = () => Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
const cpuAll = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const searcher = createSearcher({ model, concurrency: 2 });
const ws = createWorkspace({ dir, model, concurrency: 2, resident: true, searcher });
const TOP = 10;
const search = (query) => ws.search({ query, paths: [tree], topK: TOP, nLines: 3, mode: 'hybrid' });
const related = (file, line) => ws.search({ query: '', like: { path: file, line }, paths: [tree], topK: TOP, nLines: 3, mode: 'hybrid' });
const keys = (r) => r.results.map((h) => `${h.filename}:${h.start}`);
// A seeded generator, so every run picks the same lines and files.
const { rand, pick } = seeded(30);
const files = filesUnder;

await search(WARMUP_QUERIES[0]);
if (process.env.KEEP === '1') {
  await keepProse(distUrl, dir, tree);
}
for (const q of WARMUP_QUERIES) await search(q);

const code = files(tree, ['.ts', '.py', '.go', '.rs', '.js', '.java']);
const targets = [];
for (const q of [...QUERIES, ...AGENT_QUERIES]) { const r = await search(q); if (r.results[0]) targets.push([r.results[0].filename, r.results[0].match_line + 1]); }
for (const f of pick(code, Number(process.env.NREL ?? 120) - targets.length)) {
  const n = readFileSync(f, 'utf8').split('\n').length;
  targets.push([f, 1 + Math.floor(rand() * Math.max(1, n - 1))]);
}
const stats = caps.map(() => ({ main: [], all: [], wall: [], overlap: [], same: 0, selfFirst: { tree: 0, src: 0 }, srcOverlap: [], treeOverlap: [] }));
let turn = 0;
/** Runs fn once per cap, the caps' order rotating call by call; returns each cap's answer keys. */
async function perCap(fn, timed) {
  const out = new Array(caps.length);
  for (let j = 0; j < caps.length; j++) {
    const i = (j + turn) % caps.length;
    setCap(caps[i]);
    const c = cpu(); const a = cpuAll(); const t = performance.now();
    const r = await fn();
    if (timed) { stats[i].main.push(cpu() - c); stats[i].all.push(cpuAll() - a); stats[i].wall.push(performance.now() - t); }
    out[i] = r;
  }
  turn++;
  return out;
}
const overlap = (a, b) => { const s = new Set(b); return a.length + b.length === 0 ? 1 : a.filter((k) => s.has(k)).length / Math.max(a.length, b.length); };
setCap(caps[0]);
// PRERUN=0: each chunk's first call is timed (as an agent's find_related meets it); else each is run once first.
if (process.env.PRERUN !== '0') for (const [f, line] of targets) await related(f, line);
for (const [f, line] of targets) {
  const rs = (await perCap(() => related(f, line), true)).map(keys);
  rs.forEach((k, i) => { stats[i].overlap.push(overlap(k, rs[0])); if (k.join('|') === rs[0].join('|')) stats[i].same++; });
}
const pasteTree = pick(code, Number(process.env.NFILES ?? 50));
for (const f of pasteTree) {
  const rs = await perCap(() => search(readFileSync(f, 'utf8')), false);
  rs.forEach((r, i) => { if (r.results[0]?.filename === f) stats[i].selfFirst.tree++; stats[i].treeOverlap.push(overlap(keys(r), keys(rs[0]))); });
}
const srcRoot = path.resolve('src');
const pasteSrc = pick(files(srcRoot, ['.ts']), Number(process.env.NFILES ?? 50));
for (const f of pasteSrc) {
  const rs = await perCap(() => searcher.search({ query: readFileSync(f, 'utf8'), paths: [srcRoot], topK: TOP, mode: 'hybrid' }), false);
  rs.forEach((r, i) => { if (path.resolve(r.results[0]?.filename ?? '') === f) stats[i].selfFirst.src++; stats[i].srcOverlap.push(overlap(keys(r), keys(rs[0]))); });
}
const at = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(`${targets.length} find_related calls, ${pasteTree.length} pasted files of the tree, ${pasteSrc.length} of src/; caps ${caps.join(', ')}; overlap@${TOP} against cap ${caps[0]}`);
caps.forEach((c, i) => {
  const s = stats[i];
  console.log(`cap ${c}: find_related main-thread CPU p50 ${at(s.main, 0.5).toFixed(1)} p95 ${at(s.main, 0.95).toFixed(1)} ms | all threads p50 ${at(s.all, 0.5).toFixed(1)} | wall p50 ${at(s.wall, 0.5).toFixed(1)} ms`
    + ` | overlap@${TOP} mean ${mean(s.overlap).toFixed(3)}, identical ${s.same}/${targets.length}`
    + ` | pasted files first: tree ${s.selfFirst.tree}/${pasteTree.length} (overlap ${mean(s.treeOverlap).toFixed(3)}), src ${s.selfFirst.src}/${pasteSrc.length} (overlap ${mean(s.srcOverlap).toFixed(3)})`);
});
console.log(`load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
await ws.close(); await searcher.close();
process.exit(0);
