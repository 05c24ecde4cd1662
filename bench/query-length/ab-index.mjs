// Two builds side by side in one process over the same workspace index (issue 30): warm find_related
// round trips and a 100,000-character query beside a short one, alternating between the builds so
// both see the same load. Each build opens its own copy of the index (a workspace may write its dir).
// Usage: node bench/query-length/ab-index.mjs A_ROOT A_INDEX_DIR B_ROOT B_INDEX_DIR TREE MODEL [REPS]
// (ROOT: a built checkout; INDEX_DIR: a copy of $SIMGREP_HOME/workspaces/NAME that covers TREE; the
// long query is the first 100,000 characters of B_ROOT's src/*.ts and src/*/*.ts, as bench/mcp-agent.ts makes it).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const [aRoot, aDir, bRoot, bDir, tree, model, repsArg] = process.argv.slice(2);
const reps = Number(repsArg ?? 5);
const builds = { a: { root: aRoot, dir: aDir }, b: { root: bRoot, dir: bDir } };
const ws = {};
for (const [name, b] of Object.entries(builds)) {
  const { createWorkspace } = await import(path.join(path.resolve(b.root), 'dist/src/library.js'));
  ws[name] = createWorkspace({ dir: b.dir, model, concurrency: 2, resident: true });
}
const { QUERIES, AGENT_QUERIES, WARMUP_QUERIES } = await import(path.join(path.resolve(bRoot), 'dist/bench/queries.js'));
const src = path.join(bRoot, 'src');
const files = [src, ...readdirSync(src, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => path.join(src, d.name))]
  .flatMap((dir) => readdirSync(dir).filter((f) => f.endsWith('.ts')).sort().map((f) => path.join(dir, f)));
let long = '';
for (const f of files) { long += readFileSync(f, 'utf8'); if (long.length >= 100_000) break; }
long = long.slice(0, 100_000);

const timed = async (fn) => { const t = performance.now(); const value = await fn(); return { ms: performance.now() - t, value }; };
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const search = (w, query) => w.search({ query, paths: [tree], topK: 10 });
const like = (w, at) => w.search({ query: '', like: at, paths: [tree], topK: 10 });
for (const w of Object.values(ws)) for (const q of WARMUP_QUERIES) await search(w, q);
// find_related on the top hit of 20 questions (build a's answers, so both pivot from the same places).
const hits = [];
for (const q of [...QUERIES.slice(0, 10), ...AGENT_QUERIES.slice(0, 10)]) {
  const top = (await search(ws.a, q)).results[0];
  if (top) hits.push({ path: top.filename, line: top.match_line + 1 });
}
const out = { a: { related: [], short: [], long: [] }, b: { related: [], short: [], long: [] } };
for (const h of hits.slice(0, 2)) for (const w of Object.values(ws)) await like(w, h);
for (const h of hits) for (const name of ['a', 'b']) out[name].related.push((await timed(() => like(ws[name], h))).ms);
for (const w of Object.values(ws)) await search(w, long);
for (let i = 0; i < reps; i++) {
  for (const name of ['a', 'b']) {
    out[name].short.push((await timed(() => search(ws[name], 'retry failed uploads'))).ms);
    out[name].long.push((await timed(() => search(ws[name], long))).ms);
  }
}
for (const [name, r] of Object.entries(out)) {
  console.log(`${name} (${builds[name].root}): find_related p50 ${median(r.related).toFixed(0)} ms (n ${r.related.length}); `
    + `short ${median(r.short).toFixed(0)} ms, ${long.length}-character query ${median(r.long).toFixed(0)} ms: +${(median(r.long) - median(r.short)).toFixed(0)} ms (medians of ${reps})`);
}
for (const w of Object.values(ws)) await w.close();
process.exit(0);
