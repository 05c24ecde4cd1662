// The engine's side of a warm MCP call, two or more builds side by side in one process (issue 30, branch
// front30): each build's MCP server (createMcpServer over createToolRunner, the very code `simgrep serve
// --mcp` runs for a front) on its stdio transport over in-memory streams, over the stand-in search of
// stub-search.mjs, answering the same JSON-RPC lines, the builds alternating call by call; per call the CPU
// time (process.cpuUsage: one thread here) and wall time from the request line written to the answer line
// read. The answers (less _meta) are compared byte for byte. BUDGETS=1 varies max_tokens and show_preview;
// LONG=1 sends a 100,000-character query.
// Usage: [N=1000] [BUDGETS=0] [LONG=0] node bench/mcp-hops/engine-side.mjs TREE MODEL DIST [DIST...]
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { stubWorkspace } from './stub-search.mjs';

const [tree, model, ...dists] = process.argv.slice(2).map((p) => path.resolve(p));
const N = Number(process.env.N ?? 1000);
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const home = mkdtempSync(path.join(os.tmpdir(), 'engine-side-'));
mkdirSync(path.join(home, 'workspaces', 'stub'), { recursive: true });
writeFileSync(path.join(home, 'workspaces', 'stub', 'workspace.json'), JSON.stringify({ name: 'stub', roots: [realpathSync(tree)], model }));
process.env.SIMGREP_HOME = home;
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const { QUERIES, AGENT_QUERIES } = await import(`${repo}/dist/bench/queries.js`);
let long = '';
for (const d of ['src/mcp', 'src/rank', 'src/workspace/search']) for (const f of readdirSync(path.join(repo, d)).filter((x) => x.endsWith('.ts')).sort()) if (long.length < 100_000) long += readFileSync(path.join(repo, d, f), 'utf8');
long = long.slice(0, 100_000);
const queries = process.env.LONG === '1' ? [long] : [...QUERIES, ...AGENT_QUERIES];

const servers = [];
for (const dist of dists) {
  const { createMcpServer } = await import(`${dist}/src/mcp/server.js`);
  const { StdioTransport } = await import(`${dist}/src/mcp/stdio-transport.js`);
  const { createToolRunner } = await import(`${dist}/src/mcp/tools.js`);
  const { realRoot } = await import(`${dist}/src/mcp/scope.js`);
  const { findCovering } = await import(`${dist}/src/workspace/registry.js`);
  const root = realRoot(tree);
  const ws = stubWorkspace(root.real, model);
  const engine = { searcher: ws, workspace: () => ws, covering: (paths, filter) => (findCovering(paths, undefined, filter) ? ws : null) };
  const input = new PassThrough();
  const output = new PassThrough();
  const server = createMcpServer({ tools: createToolRunner(engine, root), version: '0' });
  await server.connect(new StdioTransport(input, output));
  let buf = '';
  let waiting = null;
  output.setEncoding('utf8');
  output.on('data', (c) => { buf += c; const nl = buf.indexOf('\n'); if (nl >= 0 && waiting) { const line = buf.slice(0, nl); buf = buf.slice(nl + 1); const w = waiting; waiting = null; w(line); } });
  const ask = (msg) => new Promise((resolve) => { waiting = resolve; input.write(`${JSON.stringify(msg)}\n`); });
  await ask({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'side', version: '0' } } });
  input.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  servers.push({ dist, ask, cpu: [], wall: [], answers: [] });
}

const budgets = [{}, { max_tokens: 200 }, { max_tokens: 900 }, { max_tokens: 2000 }, { show_preview: false }, { files_with_matches: true, max_tokens: 300 }];
for (let i = 0; i < N + 50; i++) {
  const q = queries[i % queries.length];
  const args = i % 4 === 3 && process.env.LONG !== '1' ? { file_path: 'how-to-delete-default-pr-1/mod-6/file-364.ts', line: 1 + (i % 40), k: 10 } : { query: q, k: 10 };
  if (process.env.BUDGETS === '1') Object.assign(args, budgets[i % budgets.length]);
  const msg = { method: 'tools/call', params: { name: 'query' in args ? 'search' : 'find_related', arguments: args }, jsonrpc: '2.0', id: i + 1 };
  const order = i % 2 === 0 ? servers : [...servers].reverse();
  for (const s of order) {
    const c = cpu(); const t = performance.now();
    const line = await s.ask(msg);
    const dc = cpu() - c, dt = performance.now() - t;
    if (i >= 50) { s.cpu.push(dc); s.wall.push(dt); }
    if (i < 50 + queries.length) s.answers.push(line.replace(/,"_meta":\{[^}]*\}\}?/, ''));
  }
}
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(`${N} calls each after 50, alternating call by call (${process.env.LONG === '1' ? 'a 100,000-character query' : '3 searches : 1 find_related'}${process.env.BUDGETS === '1' ? ', budgets varied' : ''}); load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
for (const s of servers) console.log(`${s.dist}: main-thread CPU mean ${mean(s.cpu).toFixed(3)} p50 ${pct(s.cpu, 0.5).toFixed(3)} ms; wall p50 ${pct(s.wall, 0.5).toFixed(3)} p95 ${pct(s.wall, 0.95).toFixed(3)} ms`);
for (const s of servers.slice(1)) console.log(`answers of ${s.dist} vs ${servers[0].dist}: ${s.answers.filter((a, k) => a !== servers[0].answers[k]).length} of ${s.answers.length} differ`);
rmSync(home, { recursive: true, force: true });
process.exit(0);
