// A stand-in for `simgrep serve --mcp ROOT` whose searches cost nothing (bench/mcp-hops/run.mjs): the real
// engine (src/mcp/engine.ts), MCP server (server.ts) and tool runner (tools.ts: confinement, the covering
// workspace looked up in SIMGREP_HOME, the answer's budget and text), over a workspace whose `search`
// returns hunks cut from the tree's files (11 per call, as the harness's k 10 asks, 7 lines each as
// n_lines 3 gives), the same for the same query. So a round trip through it is the MCP layer and the
// hops alone. Usage: node [--import probe.mjs] engine.mjs DIST ROOT MODEL (listens where a front of DIST's
// CLI with `mcp ROOT --model MODEL -J 2` looks).
import { realpathSync } from 'node:fs';
import { stubWorkspace } from './stub-search.mjs';
const [dist, rootArg, model] = process.argv.slice(2);
const { serveEngine } = await import(`${dist}/src/mcp/engine.js`);
const { createToolRunner } = await import(`${dist}/src/mcp/tools.js`);
const { realRoot } = await import(`${dist}/src/mcp/scope.js`);
const { engineSocketPath } = await import(`${dist}/src/mcp/engine-key.js`);
const { identityOf } = await import(`${dist}/src/server/identity.js`);
const { findCovering } = await import(`${dist}/src/workspace/registry.js`);
const { simgrepVersion } = await import(`${dist}/src/version.js`);

const root = realRoot(rootArg);
const ws = stubWorkspace(root.real, model);
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
