// Where a warm MCP round trip's time goes outside the search (issue 30, branch front30): the SDK's stdio
// client (as bench/mcp-agent.ts) -> a `simgrep mcp` front (DIST's CLI) -> an engine -> back, each process
// stamping its reads and writes with the shared monotonic clock and its CPU time (probe.mjs). The engine is
// the stand-in of engine.mjs (the real engine, MCP server and tool runner over hunks cut from the tree: the
// search costs nothing), so what is measured is the MCP layers and the hops. Per stage: wall p50 and the
// CPU of the process it runs in (mean per call), over N calls after W warm-up calls of the bench's queries
// (and a 100,000-character one with LONG=1). The tool results (less _meta) of the first COMPARE calls
// (default: one per query) are compared across the DISTs; BUDGETS=1 varies max_tokens and show_preview. Several DISTs alternate (fresh processes for each, ROUNDS
// times) so each sees the same load.
// Usage: [N=200] [W=40] [ROUNDS=2] [LONG=0] [BUDGETS=0] [COMPARE=0] [PROF=DIR] [REAL_HOME=DIR [SETTLE=20000]] node bench/mcp-hops/run.mjs TREE MODEL DIST [DIST...]
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const [tree, model, ...dists] = process.argv.slice(2).map((p) => path.resolve(p));
const N = Number(process.env.N ?? 200), W = Number(process.env.W ?? 40), ROUNDS = Number(process.env.ROUNDS ?? 2);
const LONG = process.env.LONG === '1';
// REAL_HOME=DIR: no stand-in: the front starts the real engine (`simgrep serve --mcp`) over the workspaces
// of that home (a copy of a built index of TREE, e.g. cp -r /tmp/idx27 DIR/workspaces/); its first search
// opens the index, then SETTLE ms (default 20,000) for its background warm-up before the warm-up calls.
const REAL_HOME = process.env.REAL_HOME ? path.resolve(process.env.REAL_HOME) : null;
const SETTLE = Number(process.env.SETTLE ?? 20_000);
const PROF = process.env.PROF ? path.resolve(process.env.PROF) : null;
const probe = path.join(here, 'probe.mjs');
const repo = path.resolve(here, '../..');
const { QUERIES, AGENT_QUERIES } = await import(`${repo}/dist/bench/queries.js`);
const { Client } = await import(`${repo}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js`);
const { StdioClientTransport } = await import(`${repo}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.js`);
const stampsDir = mkdtempSync(path.join(os.tmpdir(), 'mcp-hops-'));
process.env.HOPS_DIR = stampsDir; process.env.HOPS_ROLE = 'client';
const { stamps, stamp } = await import(probe);

function longQuery(n) {
  let text = '';
  for (const d of ['src/mcp', 'src/rank', 'src/workspace/search']) for (const f of readdirSync(path.join(repo, d)).filter((x) => x.endsWith('.ts')).sort()) { if (text.length < n) text += readFileSync(path.join(repo, d, f), 'utf8'); }
  return text.slice(0, n);
}
const queries = LONG ? [longQuery(100_000)] : [...QUERIES, ...AGENT_QUERIES];

async function once(dist, tag) {
  const home = REAL_HOME ?? mkdtempSync(path.join(os.tmpdir(), 'mcp-hops-home-'));
  const run = mkdtempSync(path.join(os.tmpdir(), 'mcp-hops-run-'));
  if (!REAL_HOME) {
    const wsDir = path.join(home, 'workspaces', 'stub');
    mkdirSync(wsDir, { recursive: true });
    writeFileSync(path.join(wsDir, 'workspace.json'), JSON.stringify({ name: 'stub', roots: [realpathSync(tree)], model }));
  }
  const env = { ...process.env, SIMGREP_HOME: home, SIMGREP_RUNTIME_DIR: run };
  const prof = (role) => (PROF ? ['--cpu-prof', '--cpu-prof-dir', path.join(PROF, `${tag}-${role}`)] : []);
  let engine = null;
  let elog = '';
  if (!REAL_HOME) {
    engine = spawn(process.execPath, [...prof('engine'), '--import', probe, path.join(here, 'engine.mjs'), dist, tree, model], { env: { ...env, HOPS_ROLE: `engine-${tag}` }, stdio: ['ignore', 'inherit', 'pipe'] });
    await new Promise((resolve, reject) => {
      engine.stderr.on('data', (d) => { elog += d; if (elog.includes('listening on')) resolve(); });
      engine.once('exit', (c) => reject(new Error(`engine exited ${c}: ${elog}`)));
    });
  }
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...prof('front'), '--import', probe, path.join(dist, 'src/cli/main.js'), 'mcp', tree, '--model', model, '-J', '2'],
    env: { ...env, HOPS_ROLE: `front-${tag}` }, stderr: 'pipe',
  });
  let flog = ''; transport.stderr?.on('data', (d) => { flog += d; });
  const client = new Client({ name: 'mcp-hops', version: '0' });
  await client.connect(transport);
  await client.listTools();
  const onmessage = transport.onmessage;
  transport.onmessage = (m) => { stamp('client-msg'); onmessage(m); };
  const calls = [];
  const answers = [];
  let enginePid = null;
  if (REAL_HOME) {
    // The real engine: its first search opens the index; its background warm-up then runs for a while.
    const t = performance.now();
    const r = await client.callTool({ name: 'search', arguments: { query: 'open the index', k: 10 } });
    enginePid = r._meta?.['simgrep/engine']?.pid;
    if (r.structuredContent?.index !== 'fresh') throw new Error(`the first search said ${r.structuredContent?.index}: ${JSON.stringify(r).slice(0, 300)}`);
    console.error(`${tag}: first search ${(performance.now() - t).toFixed(0)} ms (engine pid ${enginePid}); settling ${SETTLE} ms`);
    await new Promise((res) => setTimeout(res, SETTLE));
  }
  for (let i = 0; i < W + N; i++) {
    const q = queries[i % queries.length];
    const args = i % 4 === 3 && !LONG ? { file_path: 'how-to-delete-default-pr-1/mod-6/file-364.ts', line: 1 + (i % 40), k: 10 } : { query: q, k: 10 };
    // BUDGETS=1: budgets that turn matches compact and leave some out, and locations only, in turn.
    if (process.env.BUDGETS === '1') Object.assign(args, [{}, { max_tokens: 200 }, { max_tokens: 900 }, { max_tokens: 2000 }, { show_preview: false }, { files_with_matches: true, max_tokens: 300 }][i % 6]);
    const tool = 'query' in args ? 'search' : 'find_related';
    const t0 = Number(process.hrtime.bigint()) / 1e6;
    stamp('call');
    const r = await client.callTool({ name: tool, arguments: args });
    stamp('done');
    const t1 = Number(process.hrtime.bigint()) / 1e6;
    if (r.isError) throw new Error(`${tool}: ${JSON.stringify(r).slice(0, 400)}\n${flog}\n${elog}`);
    if (i >= W) calls.push([t0, t1]);
    if (i < Math.max(queries.length, Number(process.env.COMPARE ?? 0))) { const { _meta, ...rest } = r; answers.push(JSON.stringify(rest)); }
  }
  await client.close();
  if (engine) {
    engine.kill('SIGTERM');
    await new Promise((r) => engine.once('exit', r));
  } else if (enginePid) {
    process.kill(enginePid, 'SIGTERM');
    for (let i = 0; i < 200; i++) { try { process.kill(enginePid, 0); } catch { break; } await new Promise((r) => setTimeout(r, 50)); }
  }
  await new Promise((r) => setTimeout(r, 200));
  rmSync(run, { recursive: true, force: true });
  const read = (prefix) => {
    const f = readdirSync(stampsDir).find((x) => x.startsWith(`${prefix}-${tag}-`));
    if (!f) throw new Error(`no stamps of ${prefix}`);
    const s = JSON.parse(readFileSync(path.join(stampsDir, f), 'utf8'));
    rmSync(path.join(stampsDir, f));
    return s;
  };
  const front = read('front'), eng = read('engine');
  const client0 = stamps.splice(0);
  if (!REAL_HOME) rmSync(home, { recursive: true, force: true });
  return { calls, front, eng, client: client0, answers };
}

/** The first stamp of `kind` at or after time t (and before `until`). */
function first(s, kind, t, until = Infinity) {
  for (const x of s) if (x[0] >= t && x[0] <= until && x[2] === kind) return x;
  return null;
}
function last(s, kind, t, until) {
  let found = null;
  for (const x of s) if (x[0] >= t && x[0] <= until && x[2] === kind) found = x;
  return found;
}
const STAGES = ['client: request out', 'hop client -> front', 'front: request', 'hop front -> engine', 'engine', 'hop engine -> front', 'front: answer', 'hop front -> client', 'client: answer in', 'round trip'];

function stages(run) {
  const rows = [];
  for (const [t0, t1] of run.calls) {
    const c1 = first(run.client, 'sock-out', t0, t1);
    const f0 = first(run.front, 'stdio-in', c1[0], t1);
    const f1 = first(run.front, 'sock-out', f0[0], t1);
    const e0 = first(run.eng, 'sock-in', f1[0], t1);
    const e1 = last(run.eng, 'sock-out', e0[0], t1);
    const f2 = first(run.front, 'sock-in', e1[0], t1);
    const f3 = last(run.front, 'stdio-out', f2[0], t1);
    const c2 = first(run.client, 'sock-in', f3[0], t1);
    const c3 = first(run.client, 'client-msg', c2[0], t1);
    const c4 = first(run.client, 'done', c3[0]);
    const cs = first(run.client, 'call', t0 - 1, t1);
    const pts = [cs, c1, f0, f1, e0, e1, f2, f3, c2, c4];
    const wall = pts.slice(1).map((p, i) => p[0] - pts[i][0]);
    wall.push(c4[0] - cs[0]);
    // CPU of the process a stage runs in (hops: none measured here).
    const cpu = [c1[1] - cs[1], NaN, f1[1] - f0[1], NaN, e1[1] - e0[1], NaN, f3[1] - f2[1], NaN, c4[1] - c2[1], NaN];
    rows.push({ wall, cpu, bytes: e1[3] });
  }
  return rows;
}
const pct = (xs, p) => { const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b); return s.length ? s[Math.min(s.length - 1, Math.floor(s.length * p))] : NaN; };
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const procCpu = (s, t0, t1) => { const a = first(s, s[0][2], 0) && s.find((x) => x[0] >= t0), b = [...s].reverse().find((x) => x[0] <= t1); return (b[1] - a[1]); };

const table = new Map(dists.map((d) => [d, []]));
const answersOf = new Map();
for (let round = 0; round < ROUNDS; round++) {
  for (const [i, d] of dists.entries()) {
    const run = await once(d, `${i}r${round}`);
    const rows = stages(run);
    const [t0, t1] = [run.calls[0][0], run.calls.at(-1)[1]];
    table.get(d).push({ rows, frontCpu: procCpu(run.front, t0, t1) / N, engineCpu: procCpu(run.eng, t0, t1) / N, load: os.loadavg()[0] });
    if (!answersOf.has(d)) answersOf.set(d, run.answers);
  }
}
const f = (x) => (Number.isNaN(x) ? '' : x.toFixed(3));
console.log(`N ${N} calls after ${W} warm-up (${LONG ? 'a 100,000-character query' : '3 searches : 1 find_related of the bench queries'}), ${ROUNDS} rounds alternating; load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
for (const [d, runs] of table) {
  console.log(`\n${d}`);
  console.log(`| stage | ${runs.map((_, r) => `wall p50 (r${r}) | CPU mean (r${r})`).join(' | ')} |`);
  for (const [k, name] of STAGES.entries()) {
    console.log(`| ${name} | ${runs.map((r) => `${f(pct(r.rows.map((x) => x.wall[k]), 0.5))} | ${f(mean(r.rows.map((x) => x.cpu[k])))}`).join(' | ')} |`);
  }
  console.log(`| round trip p95 | ${runs.map((r) => `${f(pct(r.rows.map((x) => x.wall[9]), 0.95))} |`).join(' | ')}`);
  console.log(`| front process CPU / call | ${runs.map((r) => `| ${f(r.frontCpu)}`).join(' | ')} |`);
  console.log(`| engine process CPU / call | ${runs.map((r) => `| ${f(r.engineCpu)}`).join(' | ')} |`);
  console.log(`answer bytes p50 ${pct(runs[0].rows.map((x) => x.bytes), 0.5)}; loads ${runs.map((r) => r.load.toFixed(1)).join(', ')}`);
}
const [a0, ...others] = [...answersOf.values()];
for (const [i, o] of others.entries()) console.log(`answers of ${dists[i + 1]} vs ${dists[0]}: ${o.filter((x, k) => x !== a0[k]).length} of ${a0.length} differ`);
rmSync(stampsDir, { recursive: true, force: true });
