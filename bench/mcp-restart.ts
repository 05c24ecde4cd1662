// An agent's session over an index built yesterday (issue 30, branch start42): the SDK's stdio client spawns
// the built `simgrep mcp` on the bench tree with a SIMGREP_HOME that already holds the tree's index (a copy of
// INDEX, a workspace directory), so the resident engine starts over a complete index and builds nothing. It
// measures the first answer, the first 10 searches' round trips (the agent's questions), then the harness's 40
// warm ones (mcp-agent.ts's), each with the engine's CPU in the call (/proc: its main thread's schedstat, and
// all its threads'); last, what the engine's log says of made-up searches, and a hash of the 50 answers. One run per invocation, a line of
// JSON on stdout; alternate builds with --cli. Writes nothing in bench/ but its home under bench/.tmp.
// npm run build && node dist/bench/mcp-restart.js --index DIR [--cli CHECKOUT] [--think MS] [--tree DIR]
//   --index DIR     a workspace directory of the bench tree (e.g. one the mcp-agent harness built: its home's
//                   workspaces/<name>), copied into this run's home (a search may write to it)
//   --cli CHECKOUT  whose dist/src/cli/main.js to spawn (default: this checkout)
//   --think MS      wait this long after connecting before the first search (an agent reading its prompt)
//   --log FILE      keep the engine's log there (with SIMGREP_DEBUG_TIMING=1: every search's stages)
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_BENCH_MODEL_DIR, REPO_ROOT } from './bench-model.js';
import { runHome, spawnBenchMcp } from './mcp-client.js';
import { AGENT_QUERIES, QUERIES } from './queries.js';

const argv = process.argv.slice(2);
const arg = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const index = arg('--index');
if (!index) throw new Error('usage: node dist/bench/mcp-restart.js --index DIR [--cli CHECKOUT] [--think MS] [--tree DIR]');
const cli = path.join(path.resolve(arg('--cli') ?? REPO_ROOT), 'dist/src/cli/main.js');
const thinkMs = Number(arg('--think') ?? 0);
const tree = path.resolve(arg('--tree') ?? path.join(REPO_ROOT, 'bench/corpus/tree-1m'));
const FIRST = 10;
const TOP_K = 10;
const log = (m: string) => process.stderr.write(`[bench:mcp-restart] ${m}\n`);

/** CPU ms so far of the engine: its main thread (schedstat, ns) and all its threads. */
function cpuOf(pid: number): { main: number; all: number } {
  let all = 0;
  let main = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const ms = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
      all += ms;
      if (Number(tid) === pid) main = ms;
    } catch { /* the thread ended */ }
  }
  return { main, all };
}

/** The engine the front started: the process other than the front whose environment names this run's home. */
function findEngine(home: string, frontPid: number | null): number | null {
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p) || Number(p) === frontPid || Number(p) === process.pid) continue;
    try { if (readFileSync(`/proc/${p}/environ`, 'utf8').includes(`SIMGREP_HOME=${home}\0`)) return Number(p); } catch { /* not ours */ }
  }
  return null;
}

type Answer = { index: string; matches: unknown[] };
type ToolResult = { isError?: boolean; structuredContent?: Answer };
type Call = { query: string; ms: number; main: number; all: number; index: string; matches: string };

async function main(): Promise<void> {
  // Its own home: runs at once (another build's, the other order) each keep theirs.
  const home = runHome(path.join(REPO_ROOT, 'bench/.tmp/mcp-restart-home'));
  cpSync(index!, path.join(home, 'workspaces', path.basename(index!)), { recursive: true });
  // The engine's socket and log: a short private directory (a socket path has ~100 characters at most).
  const runDir = mkdtempSync(path.join(os.tmpdir(), 'simgrep-restart-'));
  mkdirSync(runDir, { recursive: true, mode: 0o700 });
  const env = { SIMGREP_HOME: home, SIMGREP_RUNTIME_DIR: runDir, SIMGREP_CACHE_DIR: path.join(REPO_ROOT, 'bench/.tmp/cache') };
  const { client, transport, stderr } = spawnBenchMcp({ tree, env, name: 'simgrep-bench-restart', profDir: null, cli });
  const load = os.loadavg()[0];
  let engine: number | null = null;
  try {
    const t0 = performance.now();
    await client.connect(transport);
    await client.listTools();
    const connectMs = performance.now() - t0;
    for (const end = Date.now() + 10_000; engine === null && Date.now() < end; await new Promise((r) => setTimeout(r, 10))) engine = findEngine(home, transport.pid);
    if (engine === null) throw new Error(`no engine found for ${home}\n${stderr()}`);
    if (thinkMs > 0) await new Promise((r) => setTimeout(r, thinkMs));
    const atFirst = cpuOf(engine);
    const ask = async (query: string): Promise<Call> => {
      const before = cpuOf(engine!);
      const t = performance.now();
      const r = await client.callTool({ name: 'search', arguments: { query, k: TOP_K } }, undefined, { timeout: 10 * 60_000 }) as ToolResult;
      const ms = performance.now() - t;
      const after = cpuOf(engine!);
      if (r.isError || !r.structuredContent) throw new Error(`search failed: ${JSON.stringify(r).slice(0, 500)}\n${stderr()}`);
      return { query, ms, main: after.main - before.main, all: after.all - before.all, index: r.structuredContent.index, matches: JSON.stringify(r.structuredContent.matches) };
    };
    const first: Call[] = [];
    for (const q of AGENT_QUERIES.slice(0, FIRST)) first.push(await ask(q));
    if (first.some((c) => c.index !== 'fresh')) throw new Error(`an answer said index ${first.find((c) => c.index !== 'fresh')!.index}: is the index the tree's, built with the bench model?`);
    const warm: Call[] = [];
    for (const q of [...QUERIES, ...AGENT_QUERIES]) warm.push(await ask(q));
    const total = cpuOf(engine);
    const logFile = readdirSync(runDir, { recursive: true }).map(String).find((f) => f.endsWith('.log'));
    if (logFile && arg('--log')) copyFileSync(path.join(runDir, logFile), arg('--log')!);
    const madeUp = logFile ? readFileSync(path.join(runDir, logFile), 'utf8').split('\n').filter((l) => /made-up/.test(l)) : [];
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
    const f = (x: number) => Math.round(x * 10) / 10;
    const result = {
      date: new Date().toISOString(), cli, load, loadAfter: os.loadavg()[0], thinkMs,
      connectMs: f(connectMs), firstMs: f(first[0].ms), firstFromSpawnMs: f(connectMs + thinkMs + first[0].ms),
      // The engine's CPU before the first call: its start, the model, and what it ran on its own.
      beforeFirstCpu: { main: f(atFirst.main), all: f(atFirst.all) },
      first: first.map((c) => ({ ms: f(c.ms), main: f(c.main), all: f(c.all) })),
      firstSum: { ms: f(sum(first.map((c) => c.ms))), main: f(sum(first.map((c) => c.main))), all: f(sum(first.map((c) => c.all))) },
      warm: { p50Ms: f(pct(warm.map((c) => c.ms), 0.5)), p95Ms: f(pct(warm.map((c) => c.ms), 0.95)), sumMs: f(sum(warm.map((c) => c.ms))), mainP50: f(pct(warm.map((c) => c.main), 0.5)), mainSum: f(sum(warm.map((c) => c.main))), allSum: f(sum(warm.map((c) => c.all))) },
      engineCpuTotal: { main: f(total.main), all: f(total.all) },
      madeUp,
      // The 50 answers' matches, hashed: the same in every build and run when no answer changed.
      answersMd5: createHash('md5').update([...first, ...warm].map((c) => c.matches).join('\n')).digest('hex'),
    };
    process.stdout.write(JSON.stringify(result) + '\n');
    log(`load ${load.toFixed(1)}: first answer ${result.firstMs} ms (${result.firstFromSpawnMs} from spawn); first ${FIRST}: ${result.firstSum.ms} ms, engine main CPU ${result.firstSum.main} ms; `
      + `then 40: p50 ${result.warm.p50Ms} p95 ${result.warm.p95Ms} ms, main CPU p50 ${result.warm.mainP50} sum ${result.warm.mainSum}; before the first call main ${result.beforeFirstCpu.main} all ${result.beforeFirstCpu.all} ms`);
  } finally {
    await client.close().catch(() => {});
    if (engine !== null) {
      try { process.kill(engine, 'SIGTERM'); } catch { /* gone */ }
      for (let i = 0; i < 200; i++) {
        try { process.kill(engine, 0); } catch { break; }
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    rmSync(runDir, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => { process.stderr.write(`[bench:mcp-restart] ${(e as Error)?.stack ?? String(e)}\n`); process.exitCode = 2; });
