// How long a workspace's status takes (branch left35), two or more builds alternating (A B B A ...):
//   idle:  node bench/status-side.mjs idle INDEX_DIR MODEL ROOT [ROOT...]
//          a fresh process per run opens the index (createWorkspace({ dir })) and asks status() 6 times: the
//          first (cold: meta, snapshot file, the files' checks) and the median of the other 5; its CPU too.
//   build: node bench/status-side.mjs build TREE MODEL ROOT [ROOT...]
//          the SDK's stdio client spawns `simgrep mcp TREE` with an empty SIMGREP_HOME, asks one search (the
//          engine then builds the index in the background) and asks the status tool every 250 ms until the
//          build is done (or BUILD_S seconds, 120 unless given): each call's round trip while it built.
// ROOT: a checkout with dist/ built. PAIRS (2 unless given) rounds of A B B A. The load is printed beside each run.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [mode, target, model, ...roots] = process.argv.slice(2);
if (!['idle', 'build'].includes(mode) || !model || roots.length === 0) throw new Error('usage: node bench/status-side.mjs idle|build INDEX_DIR|TREE MODEL ROOT [ROOT...]');
const pairs = Number(process.env.PAIRS ?? 2);
const buildS = Number(process.env.BUILD_S ?? 120);
const cacheDir = path.resolve(path.dirname(new URL(import.meta.url).pathname), '.tmp/cache');
const load = () => os.loadavg()[0].toFixed(1);
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length === 0 ? NaN : s[(s.length - 1) >> 1]; };
const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor(p * s.length))]; };

/** One process: status() 6 times, as JSON { ms: [...], cpuMs, status }. */
const IDLE_CHILD = `
const [lib, dir, model] = process.argv.slice(1);
const { createWorkspace } = await import(lib);
const ws = createWorkspace({ dir, model, concurrency: 0 });
const ms = []; let s;
const c0 = process.cpuUsage();
for (let i = 0; i < 6; i++) { const t = performance.now(); s = await ws.status(); ms.push(performance.now() - t); }
const c = process.cpuUsage(c0);
await ws.close();
process.stdout.write(JSON.stringify({ ms, cpuMs: (c.user + c.system) / 1000, status: { files: s.files, gone: s.gone, chunks: s.chunks, lines: s.lines, bytes: s.bytes, binary: s.binary } }));
`;

function idleOnce(root) {
  const lib = path.join(path.resolve(root), 'dist/src/index.js');
  const l = load();
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', IDLE_CHILD, lib, target, model], { env: { ...process.env, SIMGREP_HOME: mkdtempSync(path.join(os.tmpdir(), 'left35-status-')) }, encoding: 'utf8' });
  const r = JSON.parse(out);
  console.log(`${root}\tload ${l}\tfirst ${r.ms[0].toFixed(1)} ms\twarm p50 ${median(r.ms.slice(1)).toFixed(1)} ms\tcpu ${r.cpuMs.toFixed(0)} ms (6 calls)\t${JSON.stringify(r.status)}`);
  return r;
}

/** The processes whose environment names this run's home (the engine a front started). */
function enginesOf(home) {
  return readdirSync('/proc').filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid).filter((p) => {
    try { return readFileSync(`/proc/${p}/environ`, 'utf8').includes(`SIMGREP_HOME=${home}\0`); } catch { return false; }
  }).map(Number);
}

async function buildOnce(root) {
  const home = mkdtempSync(path.join(os.tmpdir(), 'left35-status-home-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(root, 'dist/src/cli/main.js'), 'mcp', target, '--model', model, '-J', '2'],
    env: { ...process.env, SIMGREP_HOME: home, SIMGREP_CACHE_DIR: cacheDir },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'status-side', version: '0' });
  const l = load();
  let enginePid = null;
  try {
    await client.connect(transport);
    const r = await client.callTool({ name: 'search', arguments: { query: 'where is the request handler registered', k: 5 } }, undefined, { timeout: 600_000 });
    enginePid = r._meta?.['simgrep/engine']?.pid ?? null;
    const during = [];
    let files = [];
    const t0 = performance.now();
    let last = null;
    while (performance.now() - t0 < buildS * 1000) {
      const t = performance.now();
      const s = await client.callTool({ name: 'status', arguments: {} }, undefined, { timeout: 600_000 });
      const ms = performance.now() - t;
      last = s.structuredContent;
      if (!last.building) break;
      during.push(ms);
      files.push(last.files);
      await new Promise((r) => setTimeout(r, 250));
    }
    const after = [];
    if (!last?.building) {
      for (let i = 0; i < 5; i++) { const t = performance.now(); last = (await client.callTool({ name: 'status', arguments: {} })).structuredContent; after.push(performance.now() - t); }
    }
    const f = (x) => (Number.isNaN(x) ? '-' : x.toFixed(0));
    console.log(`${root}\tload ${l}->${load()}\tduring the build: ${during.length} calls, p50 ${f(median(during))} ms, p95 ${f(pct(during, 0.95))} ms, max ${f(Math.max(...during))} ms (files seen ${files[0] ?? '-'}..${files.at(-1) ?? '-'})\tafter: p50 ${f(median(after))} ms\t${JSON.stringify({ files: last?.files, gone: last?.gone, building: last?.building ?? false })}`);
  } finally {
    await client.close().catch(() => undefined);
    // The engine the front started (detached): named in the answer's _meta, else found by this run's home.
    for (const pid of enginePid ? [enginePid] : enginesOf(home)) { try { process.kill(pid); } catch { /* gone */ } }
    await new Promise((r) => setTimeout(r, 500));
    rmSync(home, { recursive: true, force: true });
  }
}

const order = [];
for (let p = 0; p < pairs; p++) order.push(...(p % 2 === 0 ? roots : [...roots].reverse()), ...(p % 2 === 0 ? [...roots].reverse() : roots));
for (const root of order) {
  if (mode === 'idle') idleOnce(root); else await buildOnce(root);
}
