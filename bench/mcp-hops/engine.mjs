// A stand-in for `simgrep serve --mcp ROOT` whose searches cost nothing (bench/mcp-hops/run.mjs): the real
// engine (src/mcp/engine.ts), MCP server (server.ts) and tool runner (tools.ts: confinement, the covering
// workspace looked up in SIMGREP_HOME, the answer's budget and text), over a workspace whose `search`
// returns hunks cut from the tree's files (11 per call, as the harness's k 10 asks, 7 lines each as
// n_lines 3 gives), the same for the same query. So a round trip through it is the MCP layer and the
// hops alone. Usage: node [--import probe.mjs] engine.mjs DIST ROOT MODEL (listens where a front of DIST's
// CLI with `mcp ROOT --model MODEL -J 2` looks).
import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
const [dist, rootArg, model] = process.argv.slice(2);
const { serveEngine } = await import(`${dist}/src/mcp/engine.js`);
const { createToolRunner } = await import(`${dist}/src/mcp/tools.js`);
const { realRoot } = await import(`${dist}/src/mcp/scope.js`);
const { engineSocketPath } = await import(`${dist}/src/mcp/engine-key.js`);
const { identityOf } = await import(`${dist}/src/server/identity.js`);
const { findCovering } = await import(`${dist}/src/workspace/registry.js`);
const { simgrepVersion } = await import(`${dist}/src/version.js`);

const root = realRoot(rootArg);
const files = [];
(function walk(d) {
  for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (files.length >= 4000) return;
    const p = path.join(d, e.name);
    if (e.isDirectory()) walk(p); else if (/\.(ts|js|py|go|rs|java|c)$/.test(e.name)) files.push(p);
  }
})(root.real);
const texts = new Map();
const linesOf = (f) => { let l = texts.get(f); if (!l) { l = readFileSync(f, 'utf8').split('\n'); texts.set(f, l); } return l; };

function resultsFor(query, k) {
  const h = createHash('sha1').update(query).digest();
  const out = [];
  for (let i = 0; i < k; i++) {
    const f = files[h.readUInt16BE(i % 18) * (i + 1) % files.length];
    const lines = linesOf(f);
    const match = (h[(i + 3) % 20] * 7 + i) % Math.max(1, lines.length);
    const start = Math.max(0, match - 3);
    const hunk = lines.slice(start, match + 4);
    const distance = 0.4 + i * 0.05;
    out.push({ filename: f, lines: hunk, start, end: start + hunk.length, match_line: match, distance, matches: [{ line: match, distance }] });
  }
  return out;
}

const ws = {
  name: 'stub',
  async search(o) {
    const q = o.query || `${o.like.path}:${o.like.line}`;
    return { results: resultsFor(q, o.topK), stats: { files: 9037, index: { chunks: 25142 } } };
  },
  async status() { return { name: 'stub', files: 9037, chunks: 25142, lines: 1_000_000, model, updated: null, roots: [root.real] }; },
};
const engine = {
  searcher: ws,
  workspace: () => ws,
  // The real lookup of the covering workspace (the home's workspace.json files), then the stand-in.
  covering(paths, filter) { return findCovering(paths, undefined, filter) ? ws : null; },
};
const identity = identityOf({ model });
const program = realpathSync(`${dist}/src/cli/main.js`);
const socket = engineSocketPath({ root: root.real, identity, concurrency: 2, program });
const running = await serveEngine({
  runner: createToolRunner(engine, root), root: root.real, identity, socket, version: simgrepVersion(),
  idleMs: 0, orphanMs: 0, onEvent: (m) => process.stderr.write(`stub engine: ${m}\n`),
});
process.stderr.write(`stub engine: listening on ${socket}\n`);
process.on('SIGTERM', () => { void running.stop().then(() => process.exit(0)); });
await running.stopped;
