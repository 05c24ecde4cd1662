// Warm searches of two or more builds side by side in one process over one workspace index (issues 30, 31):
// the bench queries, alternating between the builds so each sees the same load; the last round is timed
// (after SETTLE ms, so documents' line terms counted in the background are done), and each query's answers
// (file, lines, match line, distance) are compared across the builds.
// Usage: [ROUNDS=2] [SETTLE=20000] node bench/prose/warm-side.mjs INDEX_DIR TREE MODEL DIST [DIST ...]
// (DIST: a built checkout's dist/; INDEX_DIR: $SIMGREP_HOME/workspaces/NAME covering TREE, or a copy).
import os from 'node:os';

const [dir, tree, model, ...dists] = process.argv.slice(2);
const wss = [];
for (const d of dists) {
  const { createWorkspace } = await import(`${d}/src/library.js`);
  wss.push(createWorkspace({ dir, model, concurrency: 2, resident: true }));
}
const { QUERIES, AGENT_QUERIES, WARMUP_QUERIES } = await import(`${dists[0]}/bench/queries.js`);
const queries = [...QUERIES, ...AGENT_QUERIES];
const search = (ws, query) => ws.search({ query, paths: [tree], topK: 11, nLines: 3 });
const key = (r) => r.results.map((h) => `${h.filename}:${h.start}-${h.end}:${h.match_line}:${h.distance}`).join('|');
for (const ws of wss) for (const q of WARMUP_QUERIES) await search(ws, q);
const rounds = Number(process.env.ROUNDS ?? 2);
const times = wss.map(() => []);
const differ = new Set();
for (let r = 0; r < rounds; r++) {
  if (r === rounds - 1 && process.env.SETTLE !== '0') await new Promise((done) => setTimeout(done, Number(process.env.SETTLE ?? 20000)));
  for (const q of queries) {
    const keys = [];
    for (let i = 0; i < wss.length; i++) {
      const t = performance.now();
      const res = await search(wss[i], q);
      if (r === rounds - 1) times[i].push(performance.now() - t);
      keys.push(key(res));
    }
    if (keys.some((k) => k !== keys[0])) differ.add(q);
  }
}
const at = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
times.forEach((t, i) => console.log(`${dists[i]}: p50 ${at(t, 0.5).toFixed(0)} ms, p95 ${at(t, 0.95).toFixed(0)} ms, max ${Math.max(...t).toFixed(0)} ms`));
console.log(`${differ.size} of ${queries.length} queries answered differently; load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
for (const q of differ) console.log(`  differs: ${q}`);
for (const ws of wss) await ws.close();
process.exit(0);
