// The first answer from nothing over MCP (issue 30), two or more builds alternating (branch first30e): the
// SDK's stdio client spawns each build's `simgrep mcp` on the bench tree with an empty SIMGREP_HOME (the
// tokenizer cache kept, as the harness keeps it), connects, lists the tools and asks the harness's first
// question. Per run: the call's wall time (and from the spawn), the engine's CPU per thread at the answer
// from /proc (main, the two busiest others = the pool's workers, the rest = V8's and libuv's threads), and
// how much of the call each was runnable (its /proc state sampled every 10 ms: R against S), which says
// whether a thread waited or wanted a core; last, whether every run of every build gave the same matches.
// Usage: [PAIRS=3] [Q=question] [AUTOGROUP_NICE=-15] node bench/first-side.mjs TREE MODEL ROOT[@J] [ROOT[@J]...]
// AUTOGROUP_NICE (root, a kernel with sched_autogroup): the engine, detached into a session and so a
// scheduling group of its own, gets that group nice, as this process's group should (echo N >
// /proc/self/autogroup): on a shared machine, a busy one's runs then come close to an idle one's.
// (ROOT: a checkout with dist/ built; @J: the engine's worker threads, -J, 2 unless given)
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [tree, model, ...roots] = process.argv.slice(2);
if (!model || roots.length === 0) throw new Error('usage: node bench/first-side.mjs TREE MODEL ROOT [ROOT...]');
const pairs = Number(process.env.PAIRS ?? 3);
const question = process.env.Q ?? 'where is the request handler registered';
const cacheDir = path.resolve(path.dirname(new URL(import.meta.url).pathname), '.tmp/cache');

/** Each thread of a process: its state letter and CPU seconds (user + system). */
function threads(pid) {
  const out = [];
  let tids = [];
  try { tids = readdirSync(`/proc/${pid}/task`); } catch { return out; }
  for (const tid of tids) {
    try {
      const s = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
      out.push({ tid: Number(tid), state: f[0], cpuS: (Number(f[11]) + Number(f[12])) / 100 });
    } catch { /* the thread ended */ }
  }
  return out;
}

/** The engine the front started: the process other than the front whose environment names this run's home. */
function findEngine(home, frontPid) {
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p) || Number(p) === frontPid) continue;
    try { if (readFileSync(`/proc/${p}/environ`, 'utf8').includes(`SIMGREP_HOME=${home}\0`)) return Number(p); } catch { /* not ours */ }
  }
  return null;
}

async function once(spec) {
  const [root, threadCount = '2'] = spec.split('@');
  const home = mkdtempSync(path.join(os.tmpdir(), 'simgrep-first-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(root, 'dist/src/cli/main.js'), 'mcp', tree, '--model', model, '-J', threadCount],
    env: { ...process.env, SIMGREP_HOME: home, SIMGREP_CACHE_DIR: cacheDir },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'first-side', version: '0' });
  const t0 = performance.now();
  let engine = null;
  let calling = false;
  const states = [];
  const timer = setInterval(() => {
    if (engine === null) {
      engine = findEngine(home, transport.pid);
      if (engine !== null && process.env.AUTOGROUP_NICE) writeFileSync(`/proc/${engine}/autogroup`, process.env.AUTOGROUP_NICE);
    }
    if (engine !== null && calling) states.push(threads(engine));
  }, 10);
  try {
    await client.connect(transport);
    await client.listTools();
    const connectMs = performance.now() - t0;
    const load = os.loadavg()[0];
    calling = true;
    const r = await client.callTool({ name: 'search', arguments: { query: question, k: 10 } }, undefined, { timeout: 600_000 });
    const callMs = performance.now() - t0 - connectMs;
    calling = false;
    const pid = r._meta?.['simgrep/engine']?.pid ?? engine;
    const last = threads(pid);
    try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
    if (r.isError) throw new Error(`search failed: ${JSON.stringify(r).slice(0, 400)}`);
    const others = last.filter((t) => t.tid !== pid).sort((a, b) => b.cpuS - a.cpuS);
    const group = (tid) => (tid === pid ? 'main' : tid === others[0]?.tid || tid === others[1]?.tid ? 'workers' : 'rest');
    const cpu = { main: 0, workers: 0, rest: 0 };
    for (const t of last) cpu[group(t.tid)] += t.cpuS;
    const runnable = { main: 0, workers: 0, rest: 0 };
    for (const row of states) for (const t of row) if (t.state === 'R') runnable[group(t.tid)]++;
    const n = Math.max(1, states.length);
    return {
      callMs, fromSpawnMs: connectMs + callMs, connectMs, load, cpu,
      // Threads runnable on average during the call: main at most 1, the workers at most 2.
      runnable: { main: runnable.main / n, workers: runnable.workers / n, rest: runnable.rest / n },
      answer: JSON.stringify((r.structuredContent?.matches ?? []).map((m) => [m.path, m.match_line, m.distance, m.content])),
    };
  } finally {
    clearInterval(timer);
    await client.close().catch(() => {});
    rmSync(home, { recursive: true, force: true });
  }
}

const rows = roots.map(() => []);
const label = (spec) => { const [root, j] = spec.split('@'); return path.basename(root) + (j ? `@${j}` : ''); };
for (let p = 0; p < pairs; p++) {
  for (const [i, root] of roots.entries()) {
    const r = await once(root);
    rows[i].push(r);
    const f = (x) => x.toFixed(2);
    console.log(`${label(root).padEnd(14)} call ${r.callMs.toFixed(0)} ms (from spawn ${r.fromSpawnMs.toFixed(0)}, connect ${r.connectMs.toFixed(0)}) load ${r.load.toFixed(1)}`
      + `  engine CPU ${f(r.cpu.main + r.cpu.workers + r.cpu.rest)} s: main ${f(r.cpu.main)} workers ${f(r.cpu.workers)} rest ${f(r.cpu.rest)}`
      + `  runnable main ${f(r.runnable.main)} workers ${f(r.runnable.workers)} rest ${f(r.runnable.rest)}`);
  }
}
const med = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
for (const [i, root] of roots.entries()) {
  const xs = rows[i];
  console.log(`${label(root)}: call median ${med(xs.map((r) => r.callMs)).toFixed(0)} ms, engine CPU median ${med(xs.map((r) => r.cpu.main + r.cpu.workers + r.cpu.rest)).toFixed(2)} s`);
}
const answers = new Set(rows.flat().map((r) => r.answer));
console.log(answers.size === 1 ? `the same matches in all ${rows.flat().length} runs` : `DIFFERENT matches: ${answers.size} distinct answers`);
