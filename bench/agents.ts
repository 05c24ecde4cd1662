// Agent-surface latency (issue 11): an action call on a warm engine and the MCP `search` round trip,
// both over the same indexed 1M-line tree, beside the library's own Workspace.search. Writes
// bench/agents-results.json and the agents section of bench/RESULTS.md.
// npm run build && nice -n 10 node dist/bench/agents.js [--quick] [--cpu-prof-dir DIR (profiles the MCP server)]
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BENCH_MODEL_DIM, buildBenchModel, REPO_ROOT } from './bench-model.js';
import { countCorpus } from './count.js';
import { generateTree } from './corpus.js';
import { measure } from './measure.js';
import { spawnBenchMcp } from './mcp-client.js';
import { AGENT_QUERIES, QUERIES, WARMUP_QUERIES } from './queries.js';
import { writeResultsSection } from './results.js';

const CLI = path.join(REPO_ROOT, 'dist/src/cli/main.js');
const MODEL = path.join(REPO_ROOT, 'bench/.tmp/potion-8m-shape');
// Its own home: the workspace it builds is named (as `simgrep index PATH` names it), so the MCP
// server finds it as the workspace covering its root and never builds one of its own.
const BENCH_ENV = { SIMGREP_HOME: path.join(REPO_ROOT, 'bench/.tmp/agents-home'), SIMGREP_CACHE_DIR: path.join(REPO_ROOT, 'bench/.tmp/cache') };
const TARGET_ACTION_P50_MS = 30;
const TARGET_MCP_P50_MS = 50;
const TOP_K = 10;
const MEASURED = [...QUERIES, ...AGENT_QUERIES];

const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const profDir = argv.includes('--cpu-prof-dir') ? path.resolve(argv[argv.indexOf('--cpu-prof-dir') + 1] ?? 'bench/.tmp/prof') : null;
const log = (m: string) => process.stderr.write(`[bench:agents] ${m}\n`);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const summary = (xs: number[]) => ({ p50Ms: pct(xs, 0.5), p95Ms: pct(xs, 0.95), minMs: Math.min(...xs), maxMs: Math.max(...xs), n: xs.length, ms: xs });

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t = performance.now();
  const value = await fn();
  return { ms: performance.now() - t, value };
}

type Result = Record<string, unknown>;
/** A measured call that did not answer from the warm index is a broken measurement, not a slow one. */
function check(what: string, r: Result, query: string): void {
  if (r.success !== true) throw new Error(`${what} failed for "${query}": ${JSON.stringify(r)}`);
  if ((r.results as unknown[]).length === 0) throw new Error(`${what} found nothing for "${query}"`);
  if (r.refreshed !== undefined && r.refreshed !== 0) throw new Error(`${what} re-indexed ${String(r.refreshed)} files for "${query}": the tree changed under the bench`);
}

async function main(): Promise<void> {
  Object.assign(process.env, BENCH_ENV);
  const lines = quick ? 200_000 : 1_000_000;
  const tree = path.join(REPO_ROOT, `bench/corpus/tree-${quick ? '200k' : '1m'}`);
  buildBenchModel(MODEL);
  generateTree({ out: tree, lines });
  const counts = countCorpus(tree);
  const engineFlags = ['--model', MODEL, '-J', '2'];

  // Built (or found up to date) by the CLI, as a user would before pointing an agent at the tree.
  log(`indexing ${path.relative(REPO_ROOT, tree)} with the CLI (SIMGREP_HOME=${path.relative(REPO_ROOT, BENCH_ENV.SIMGREP_HOME)})`);
  const build = await measure(process.execPath, [CLI, 'index', tree, ...engineFlags], { cwd: REPO_ROOT, timeoutMs: 30 * 60_000, env: { ...process.env, ...BENCH_ENV } });
  if (build.exitCode !== 0) throw new Error(`simgrep index failed: ${build.stderrTail}`);

  const action = await measureActions(tree);
  const mcp = await measureMcp(tree, action.workspace);

  const results = {
    date: new Date().toISOString(),
    mode: quick ? 'quick' : 'full',
    command: `npm run build && nice -n 10 node dist/bench/agents.js${quick ? ' --quick' : ''}${profDir ? ` --cpu-prof-dir ${path.relative(REPO_ROOT, profDir)}` : ''}`,
    machine: { nproc: os.availableParallelism(), node: process.version, load: os.loadavg() },
    corpus: { path: path.relative(REPO_ROOT, tree), ...counts },
    modelDim: BENCH_MODEL_DIM,
    topK: TOP_K,
    index: { cliMs: build.wallMs, summary: build.stderrTail.trim().split('\n').find((l) => l.includes('files checked')) ?? '' },
    ...action,
    mcp,
  };
  writeFileSync(path.join(REPO_ROOT, 'bench/agents-results.json'), JSON.stringify(results, null, 2) + '\n');
  writeSection(results);
  const brief = (s: { p50Ms: number; p95Ms: number }) => `p50 ${s.p50Ms.toFixed(1)} ms, p95 ${s.p95Ms.toFixed(1)} ms`;
  log(`library ${brief(action.library)}; search.workspace_search ${brief(action.workspaceSearch)}; search.semantic ${brief(action.semantic)}; MCP search ${brief(mcp.search)}`);
}

/**
 * In this process, one action engine (as `simgrep run` has): the library's Workspace.search, the
 * workspace_search action and search.semantic over the same workspace object, interleaved per query
 * with the order alternating, so the machine's drift hits all three alike.
 */
async function measureActions(tree: string) {
  const { createActionEngine, createActions } = await import('../src/index.js');
  const engine = createActionEngine({ model: MODEL, concurrency: 2 });
  const actions = createActions(engine);
  try {
    log('action engine: search.workspace_index (finds the CLI-built workspace up to date; loads the model and the snapshot)');
    const opened = await timed(() => actions['search.workspace_index']({}, { paths: [tree] }));
    const o = opened.value;
    if (o.success !== true || o.indexed !== 0) throw new Error(`the workspace is not warm: ${JSON.stringify(o)}`);
    const name = String(o.workspace);
    const ws = engine.workspace({ name });
    const roots = (await ws.status()).roots;

    const calls = {
      library: (query: string) => ws.search({ query, paths: roots, topK: TOP_K, nLines: 3 }).then((r) => ({ success: true, results: r.results, refreshed: r.stats.index?.refreshed })),
      workspaceSearch: (query: string) => actions['search.workspace_search']({}, { name, query, top_k: TOP_K }),
      semantic: (query: string) => actions['search.semantic']({}, { query, paths: [tree], top_k: TOP_K }),
    } satisfies Record<string, (q: string) => Promise<Result>>;
    const kinds = Object.keys(calls) as (keyof typeof calls)[];
    const first: Record<string, number> = {};
    log(`warm-up: ${WARMUP_QUERIES.length} queries per surface`);
    for (const [i, query] of WARMUP_QUERIES.entries()) {
      for (const k of kinds) {
        const { ms, value } = await timed(() => calls[k](query));
        check(k, value, query);
        if (i === 0) first[k] = ms;
      }
    }
    log(`measuring: ${MEASURED.length} queries per surface`);
    const ms: Record<string, number[]> = { library: [], workspaceSearch: [], semantic: [] };
    for (const [i, query] of MEASURED.entries()) {
      for (const k of i % 2 === 0 ? kinds : [...kinds].reverse()) {
        const r = await timed(() => calls[k](query));
        check(k, r.value, query);
        ms[k].push(r.ms);
      }
    }
    const stats = await actions['search.workspace_stats']({}, { name });
    return {
      workspace: { name, files: stats.files as number, chunks: stats.chunks as number, lines: stats.lines as number, openMs: opened.ms },
      firstCallMs: first,
      library: summary(ms.library),
      workspaceSearch: summary(ms.workspaceSearch),
      semantic: summary(ms.semantic),
    };
  } finally {
    await engine.close();
  }
}

/** The SDK's own client spawns the built CLI's MCP server on the tree, as an agent's client would. */
async function measureMcp(tree: string, ws: { name: string }) {
  const { client, transport, stderr } = spawnBenchMcp({ tree, env: BENCH_ENV, name: 'simgrep-bench', profDir });
  type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, unknown> };
  const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }, undefined, { timeout: 10 * 60_000 }) as Promise<ToolResult>;
  const search = async (query: string) => {
    const r = await call('search', { query, k: TOP_K });
    const s = r.structuredContent;
    if (r.isError || !s || (s.count as number) === 0) throw new Error(`MCP search failed for "${query}": ${JSON.stringify(r).slice(0, 500)}\n${stderr()}`);
    return r;
  };
  try {
    log('MCP: spawning simgrep mcp over stdio');
    const connect = await timed(() => client.connect(transport));
    await client.listTools(); // as a client does first (and the SDK then checks structured output against the schemas)
    const status = (await call('status', {})).structuredContent!;
    // Warm means answered by the workspace the CLI built, not one the server builds on first use.
    if (status.indexed !== true || status.workspace !== ws.name) throw new Error(`the MCP server does not see the built workspace ${ws.name}: ${JSON.stringify(status)}`);
    log(`MCP: warm-up, ${WARMUP_QUERIES.length} searches`);
    const firstSearch = await timed(() => search(WARMUP_QUERIES[0]));
    for (const q of WARMUP_QUERIES.slice(1)) await search(q);
    log(`MCP: measuring ${MEASURED.length} searches`);
    const ms: number[] = [];
    for (const query of MEASURED) ms.push((await timed(() => search(query))).ms);
    return { connectMs: connect.ms, firstSearchMs: firstSearch.ms, status, search: summary(ms), cpuProfileDir: profDir ? path.relative(REPO_ROOT, profDir) : null };
  } finally {
    await client.close();
  }
}

function writeSection(r: any): void {
  const f = (x: number, d = 0) => x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  const ok = (b: boolean) => (b ? 'PASS' : 'FAIL');
  const lat = (s: { p50Ms: number; p95Ms: number; minMs: number; maxMs: number }) => `p50 ${f(s.p50Ms, 1)} ms, p95 ${f(s.p95Ms, 1)} ms (min ${f(s.minMs, 1)}, max ${f(s.maxMs, 1)})`;
  const x = (a: number, b: number) => `${f(a / b, 2)}x`;
  const md = [
    '<!-- agents:begin (written by node dist/bench/agents.js) -->',
    '## Agent surfaces: actions and MCP',
    '',
    `Command: \`${r.command}\` (${r.date.slice(0, 16)}, ${r.machine.nproc} cores, load ${f(r.machine.load[0], 1)}, Node ${r.machine.node}). `
      + `Corpus: ${r.corpus.path} (${f(r.corpus.files)} files, ${f(r.corpus.lines)} lines, ${f(r.corpus.bytes / 1048576, 1)} MB), bench model (dim ${r.modelDim}), -J 2, hybrid mode, top ${r.topK}, 3 context lines.`,
    '',
    `The workspace (${r.workspace.name}: ${f(r.workspace.files)} files, ${f(r.workspace.chunks)} chunks) is built or refreshed first by \`simgrep index\` under bench/.tmp/agents-home `
      + `(this run: ${f(r.index.cliMs / 1000, 1)} s, "${r.index.summary.replace(/^simgrep: workspace [^:]+: /, '')}"). Every measured call is warm: the model and the snapshot are loaded, `
      + `${r.library.n} distinct queries follow ${WARMUP_QUERIES.length} warm-up queries per surface, and each call is checked to answer from the index with nothing re-indexed. `
      + 'In-process calls share one action engine and one workspace object, interleaved per query. The MCP server is the built CLI '
      + `(\`simgrep mcp <tree>\`) spawned by the SDK's stdio client; its \`status\` tool reports the CLI-built workspace ${r.mcp.status.workspace} as the one covering its root, so it builds nothing.`,
    '',
    '| surface | measured | target | |',
    '|---|---|---|---|',
    `| library \`Workspace.search\` (reference) | ${lat(r.library)} | - | - |`,
    `| action \`search.workspace_search\` {name, query, top_k} | ${lat(r.workspaceSearch)}; ${x(r.workspaceSearch.p50Ms, r.library.p50Ms)} the library | p50 <= ${TARGET_ACTION_P50_MS} ms | ${ok(r.workspaceSearch.p50Ms <= TARGET_ACTION_P50_MS)} |`,
    `| action \`search.semantic\` {query, paths: [tree]} (covering workspace) | ${lat(r.semantic)}; ${x(r.semantic.p50Ms, r.library.p50Ms)} the library | (p50 <= ${TARGET_ACTION_P50_MS} ms) | ${ok(r.semantic.p50Ms <= TARGET_ACTION_P50_MS)} |`,
    `| MCP \`search\` round trip {query, k} | ${lat(r.mcp.search)}; ${x(r.mcp.search.p50Ms, r.workspaceSearch.p50Ms)} the action | p50 <= ${TARGET_MCP_P50_MS} ms | ${ok(r.mcp.search.p50Ms <= TARGET_MCP_P50_MS)} |`,
    '',
    `Not in the figures: the first action after opening (search.workspace_index, which loads the model and snapshot and checks ${f(r.workspace.files)} files: ${f(r.workspace.openMs)} ms) `
      + `and the MCP server's start (spawn + connect ${f(r.mcp.connectMs)} ms; first search, which loads the model and the snapshot in the server, ${f(r.mcp.firstSearchMs)} ms). `
      + 'Where the time goes: `SIMGREP_DEBUG_TIMING=1` prints the library\'s phases per search; `--cpu-prof-dir DIR` writes the MCP server\'s CPU profile.',
    '<!-- agents:end -->',
    '',
  ].join('\n');
  writeResultsSection(path.join(REPO_ROOT, 'bench/RESULTS.md'), 'agents', md);
}

main().catch((e: unknown) => { process.stderr.write(`[bench:agents] ${(e as Error)?.stack ?? String(e)}\n`); process.exitCode = 2; });
