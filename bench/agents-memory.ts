// Resident memory of several coding agents on one machine (issue 30): 1 and then 4 `simgrep mcp`
// processes over one tree (a copy of this repo's src/**/*.ts), each driven by the MCP SDK's client
// through a few searches once the index is built; the RSS (VmRSS from /proc) of the fronts and the
// resident engine they share is summed, beside the same runs with --no-server (every process loads
// its own model and index). Target: 4 agents <= 1.3x one agent. Linux only (reads /proc).
// Writes the mcp-agents-memory section of bench/RESULTS.md. With --tree DIR (e.g. the 1M-line bench tree,
// bench/corpus/tree-1m): that tree as it is, the shared engine's runs only (four --no-server processes
// would each build the whole index), into the section mcp-agents-memory-tree.
// npm run build && node dist/bench/agents-memory.js [--tree DIR]
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { REPO_ROOT } from './bench-model.js';
import { writeResultsSection } from './results.js';

const CLI = path.join(REPO_ROOT, 'dist/src/cli/main.js');
const WORK = path.join(REPO_ROOT, 'bench/.tmp/agents-memory');
const treeArg = process.argv.indexOf('--tree');
const GIVEN_TREE = treeArg > 0 ? path.resolve(process.argv[treeArg + 1] ?? '') : null;
const TREE = GIVEN_TREE ?? path.join(WORK, 'tree');
const QUERIES = ['retry failed uploads with backoff', 'parse the command line flags', 'socket owner and mode checks', 'build the snapshot from the store', 'tokenize a word into pieces'];
const TARGET_RATIO = 1.3;
const log = (m: string) => process.stderr.write(`[bench:agents-memory] ${m}\n`);

type ToolResult = { isError?: boolean; structuredContent?: Record<string, unknown>; _meta?: Record<string, unknown> };

interface Mem { rssKb: number; pssKb: number; anonKb: number }

/** VmRSS (every page the process maps, shared ones counted in each process) and PSS (shared pages split among their sharers). */
function memOf(pid: number): Mem {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  let pss = 0;
  try { pss = Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0); } catch { /* no smaps_rollup (old kernel) */ }
  return { rssKb: Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0), pssKb: pss, anonKb: Number(/RssAnon:\s+(\d+) kB/.exec(status)?.[1] ?? 0) };
}
const sum = (ms: Mem[]): Mem => ({ rssKb: ms.reduce((a, m) => a + m.rssKb, 0), pssKb: ms.reduce((a, m) => a + m.pssKb, 0), anonKb: ms.reduce((a, m) => a + m.anonKb, 0) });

function copyTsFiles(from: string, to: string): number {
  let n = 0;
  for (const e of readdirSync(from)) {
    const src = path.join(from, e);
    if (statSync(src).isDirectory()) n += copyTsFiles(src, path.join(to, e));
    else if (e.endsWith('.ts')) { mkdirSync(to, { recursive: true }); cpSync(src, path.join(to, e)); n++; }
  }
  return n;
}

interface Run { agents: number; server: boolean; fronts: Mem[]; engine: Mem; total: Mem }

async function run(agents: number, server: boolean): Promise<Run> {
  const tag = `${agents}-${server ? 'engine' : 'no-server'}`;
  const env = { ...process.env as Record<string, string>, HF_HUB_OFFLINE: '1', SIMGREP_HOME: path.join(WORK, `home-${tag}`), SIMGREP_CACHE_DIR: path.join(WORK, `cache-${tag}`), SIMGREP_RUNTIME_DIR: path.join(WORK, `run-${tag}`) };
  const clients: { client: Client; transport: StdioClientTransport }[] = [];
  for (let i = 0; i < agents; i++) {
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', TREE, ...(server ? [] : ['--no-server'])], env, stderr: 'ignore' });
    const client = new Client({ name: `bench-agent-${i}`, version: '0.0.0' });
    await client.connect(transport);
    clients.push({ client, transport });
  }
  // Memory is measured here, not latency: a call answered from a scan while the index builds may take
  // longer than the SDK's 60 s default on a loaded machine.
  const call = (c: Client, query: string) => c.callTool({ name: 'search', arguments: { query, top_k: 5 } }, undefined, { timeout: 300_000 }) as Promise<ToolResult>;
  // Every agent searches at once, until its answers come from the built index; then a few more each.
  let enginePid: number | null = null;
  try {
  await Promise.all(clients.map(async ({ client }, i) => {
    for (let t = 0; ; t++) {
      const r = await call(client, QUERIES[i % QUERIES.length]);
      if (r.isError) throw new Error(`search failed: ${JSON.stringify(r)}`);
      enginePid ??= ((r._meta?.['simgrep/engine'] as { pid?: number } | undefined)?.pid) ?? null;
      if (r.structuredContent?.index === 'fresh') break;
      if (t > 600) throw new Error('the index was not built in 5 minutes');
      await new Promise((res) => setTimeout(res, 500));
    }
    for (const q of QUERIES) await call(client, q);
  }));
  const fronts = clients.map(({ transport }) => memOf(transport.pid!));
  const engine = enginePid ? memOf(enginePid) : { rssKb: 0, pssKb: 0, anonKb: 0 };
  const total = sum([...fronts, engine]);
  log(`${tag}: RSS fronts ${fronts.map((m) => Math.round(m.rssKb / 1024)).join(' + ')} MB, engine ${Math.round(engine.rssKb / 1024)} MB (pid ${enginePid ?? '-'}), total ${Math.round(total.rssKb / 1024)} MB; PSS total ${Math.round(total.pssKb / 1024)} MB`);
  return { agents, server, fronts, engine, total };
  } finally {
    // Also when a call failed: no front or engine of this run is left running.
    for (const { client } of clients) await client.close().catch(() => {});
    // The engine would stop 30 s after its last front; this run's engine is stopped now (its pid, nothing else).
    if (enginePid) { try { process.kill(enginePid, 'SIGTERM'); } catch { /* gone */ } }
  }
}

/** Regular files under a directory (the tree's size in the report). */
function countFiles(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) n += e.isDirectory() ? countFiles(path.join(dir, e.name)) : e.isFile() ? 1 : 0;
  return n;
}

async function main(): Promise<void> {
  rmSync(WORK, { recursive: true, force: true });
  if (GIVEN_TREE && !statSync(GIVEN_TREE, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`--tree ${GIVEN_TREE}: not a directory`);
  const files = GIVEN_TREE ? countFiles(GIVEN_TREE) : copyTsFiles(path.join(REPO_ROOT, 'src'), TREE);
  const treeText = GIVEN_TREE ? `${files} files (${path.relative(REPO_ROOT, GIVEN_TREE) || GIVEN_TREE})` : `${files} .ts files (a copy of src/)`;
  const load = os.loadavg()[0].toFixed(1);
  log(`tree: ${treeText}; load ${load} on ${os.cpus().length} cores`);
  const runs: Run[] = [];
  for (const server of GIVEN_TREE ? [true] : [true, false]) for (const agents of [1, 4]) runs.push(await run(agents, server));
  const mb = (kb: number) => (kb / 1024).toFixed(0);
  const find = (server: boolean, agents: number) => runs.find((r) => r.server === server && r.agents === agents);
  const [one, four, oneLocal, fourLocal] = [find(true, 1)!, find(true, 4)!, find(false, 1), find(false, 4)];
  const rssRatio = four.total.rssKb / one.total.rssKb;
  const pssRatio = four.total.pssKb / one.total.pssKb;
  const anonRatio = four.total.anonKb / one.total.anonKb;
  const verdict = (x: number) => `${x.toFixed(2)}x (${x <= TARGET_RATIO ? 'met' : 'missed'})`;
  const shown = [one, four, oneLocal, fourLocal].filter((r): r is Run => r !== undefined);
  const lines = [
    '| agents | how | each `simgrep mcp`: RSS (anonymous) MB | engine: RSS (anonymous) MB | total RSS (MB) | RSS vs 1 agent | total PSS (MB) | PSS vs 1 agent | total anonymous (MB) | anonymous vs 1 agent |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...shown.map((r) => {
      const base = r.server ? one : oneLocal!;
      return `| ${r.agents} | ${r.server ? 'shared engine (default)' : '--no-server'} | ${r.fronts.map((m) => `${mb(m.rssKb)} (${mb(m.anonKb)})`).join(', ')} | ${r.server ? `${mb(r.engine.rssKb)} (${mb(r.engine.anonKb)})` : '-'} | ${mb(r.total.rssKb)} | ${(r.total.rssKb / base.total.rssKb).toFixed(2)}x | ${mb(r.total.pssKb)} | ${(r.total.pssKb / base.total.pssKb).toFixed(2)}x | ${mb(r.total.anonKb)} | ${(r.total.anonKb / base.total.anonKb).toFixed(2)}x |`;
    }),
    '',
    `4 agents with the shared engine against one (target <= ${TARGET_RATIO}x): summed anonymous (private) memory ${verdict(anonRatio)}, summed RSS ${verdict(rssRatio)}, summed PSS ${verdict(pssRatio)}${oneLocal && fourLocal ? `; with --no-server ${(fourLocal.total.rssKb / oneLocal.total.rssKb).toFixed(2)}x RSS` : ''}. Tree: ${treeText}, default model, load ${load} on ${os.cpus().length} cores, Node ${process.version}.`,
  ];
  const section = GIVEN_TREE ? 'mcp-agents-memory-tree' : 'mcp-agents-memory';
  const md = [
    `<!-- ${section}:begin (written by node dist/bench/agents-memory.js${GIVEN_TREE ? ' --tree DIR' : ''}) -->`,
    GIVEN_TREE ? '## MCP agents memory on a given tree' : '## MCP agents memory',
    '',
    GIVEN_TREE
      ? `Command: \`npm run build && node dist/bench/agents-memory.js --tree ${path.relative(REPO_ROOT, GIVEN_TREE) || GIVEN_TREE}\` (${new Date().toISOString().slice(0, 16)}): as the section above, over that tree as it is, the shared engine's runs only.`
      : `Command: \`npm run build && node dist/bench/agents-memory.js\` (${new Date().toISOString().slice(0, 16)}; a shared machine under load, so the absolute figures are noisy, the ratios less so). 1 and then 4 \`simgrep mcp\` processes over one tree, each driven by the MCP SDK's client: every agent searches at once until its answer says \`index: fresh\` (the first ones come from scans while the resident engine builds the index), then 5 searches each; then the resident memory of the \`simgrep mcp\` processes and of the engine they share is summed from /proc (VmRSS; PSS from smaps_rollup, where pages shared between processes, such as Node's own code, are split among them). The same runs with \`--no-server\` (each process its own model and index) for comparison.`,
    '',
    ...lines,
    '',
    ...(GIVEN_TREE ? [] : ['What an extra agent costs is its private memory: each `simgrep mcp` is a pipe to the engine and loads neither the MCP SDK nor the model, so its anonymous memory is a few MB (a bare Node process has ~7), and the engine grows little with more sessions (their searches run one at a time). Most of a front\'s RSS is Node\'s own code, mapped from the same file by every Node process: VmRSS counts it once per process, so summed VmRSS cannot reach 1.3x on a small tree (three more bare Node processes are ~120 MB beside an engine of ~250 MB; on a bigger tree the engine dominates and the ratio falls); PSS splits it among all the Node processes on the machine, so it moves with whatever else runs there.']),
    `<!-- ${section}:end -->`,
    '',
  ].join('\n');
  writeResultsSection(path.join(REPO_ROOT, 'bench/RESULTS.md'), section, md);
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((e: unknown) => { log(String((e as Error)?.stack ?? e)); process.exit(1); });
