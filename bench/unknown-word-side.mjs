// Warm searches whose query holds a word the model has no token for (knownShare < 1: the bench's questions
// with runes appended), two or more builds side by side in one process over one workspace index (branch
// left31: such a query's plan was a copy the prose source did not know, so it listed every document and
// bounded each again). The builds alternate per call; each call's main-thread CPU (/proc schedstat) is
// kept, and the whole answers (results, warnings, closest miss) compared as JSON. Every prose document is
// kept and counted first, as in the engine that built the index (side-builds.mjs keepProse).
// Usage: [NQ=20] node bench/unknown-word-side.mjs INDEX_DIR TREE MODEL DIST [DIST...]   (DIST: absolute)
import os from 'node:os';
import { readFileSync } from 'node:fs';
import { keepProse, openResident } from './side-builds.mjs';
const [dir, tree, model, ...dists] = process.argv.slice(2);
const { QUERIES } = await import(`${dists[0]}/bench/queries.js`);
const { wss, searchers } = await openResident(dists, dir, model);
const cpu = () => Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
const qs = QUERIES.slice(0, Number(process.env.NQ ?? 1e9)).map((q) => `${q} ᚠᚢᚦ`);
for (const ws of wss) await ws.search({ query: qs[0], paths: [tree], topK: 11 });
for (let i = 0; i < dists.length; i++) {
  const m = await import(`${dists[i]}/src/workspace/search/warm-chunks.js`);
  const alive = setInterval(() => {}, 1000); await m.chunksWarmed(searchers[i]); clearInterval(alive);
}
for (const d of dists) await keepProse(d, dir, tree);
const T = dists.map(() => []);
let differ = 0;
for (let k = 0; k < qs.length; k++) {
  const answers = [];
  const order = dists.map((_, i) => (i + k) % dists.length);
  for (const i of order) {
    const c = cpu();
    const r = await wss[i].search({ query: qs[k], paths: [tree], topK: 11, nLines: 3 });
    T[i].push(cpu() - c);
    answers[i] = JSON.stringify([r.results, r.warnings, r.closestMiss]);
  }
  if (answers.some((a) => a !== answers[0])) differ++;
}
const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
dists.forEach((d, i) => console.log(`${d}: main-thread CPU p50 ${med(T[i]).toFixed(1)} ms, sum ${T[i].reduce((a, b) => a + b, 0).toFixed(0)} ms over ${qs.length}`));
console.log(`${differ} of ${qs.length} answers differ; load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
process.exit(0);
