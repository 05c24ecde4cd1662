// Workspace-index bench: build throughput against a one-shot scan of the same tree, warm query
// latency from the library, cold CLI latency, incremental re-index after one touched file and after
// 100 deleted files, size on disk, peak RSS. Writes bench/index-results.json and the index section of
// bench/RESULTS.md.   npm run build && node dist/bench/index.js [--quick]
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BENCH_MODEL_DIM, buildBenchModel, REPO_ROOT } from './bench-model.js';
import { countCorpus } from './count.js';
import { generateTree } from './corpus.js';
import { measure, type RunResult } from './measure.js';
import { QUERIES } from './queries.js';
import { writeResultsSection } from './results.js';
import { oneShotOf } from './quality/results.js';
import { createWorkspace } from '../src/workspace/workspace.js';
import { diskUsage } from '../src/workspace/workspace-files.js';

const CLI = path.join(REPO_ROOT, 'dist/src/cli/main.js');
const MODEL = path.join(REPO_ROOT, 'bench/.tmp/potion-8m-shape');
const quick = process.argv.includes('--quick');
const log = (m: string) => process.stderr.write(`[bench:index] ${m}\n`);
const env = { ...process.env, SIMGREP_CACHE_DIR: path.join(REPO_ROOT, 'bench/.tmp/cache'), SIMGREP_HOME: path.join(REPO_ROOT, 'bench/.tmp/home') };
const run = (args: string[]): Promise<RunResult> => measure(process.execPath, [CLI, ...args], { cwd: REPO_ROOT, timeoutMs: 30 * 60_000, env });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];


async function main(): Promise<void> {
  const lines = quick ? 200_000 : 1_000_000;
  const source = path.join(REPO_ROOT, `bench/corpus/tree-${quick ? '200k' : '1m'}`);
  buildBenchModel(MODEL);
  generateTree({ out: source, lines });
  // The bench edits files: work on a copy.
  const tree = path.join(REPO_ROOT, 'bench/.tmp/index-tree');
  const idx = path.join(REPO_ROOT, 'bench/.tmp/index-ws');
  rmSync(tree, { recursive: true, force: true });
  rmSync(idx, { recursive: true, force: true });
  cpSync(source, tree, { recursive: true });
  const counts = countCorpus(tree);
  const m = ['--model', MODEL, '-J', '2'];

  log('one-shot scan of the tree (reference)');
  const scans: RunResult[] = [];
  for (let i = 0; i < 3; i++) scans.push(await run([QUERIES[i], tree, ...m, '--no-index']));
  log('building the index');
  const build = await run(['index', tree, '--index-dir', idx, ...m]);
  if (build.exitCode !== 0) throw new Error(`index failed: ${build.stderrTail}`);
  const sizeOnDisk = diskUsage(idx);

  log('warm queries (library, model loaded)');
  const ws = createWorkspace({ dir: idx, model: MODEL, concurrency: 2 });
  await ws.search({ query: 'warm up', paths: [tree] });
  const warm: number[] = [];
  for (let rep = 0; rep < 3; rep++) {
    for (const query of QUERIES) {
      const t = performance.now();
      await ws.search({ query, paths: [tree] });
      warm.push(performance.now() - t);
    }
  }
  await ws.close();

  log('cold CLI queries');
  const cold: RunResult[] = [];
  for (let i = 0; i < 7; i++) cold.push(await run([QUERIES[i], tree, '--index-dir', idx, ...m]));

  const files = readdirSync(tree, { recursive: true }).map(String).filter((f) => /\.(ts|py|go|md)$/.test(f)).sort();
  appendFileSync(path.join(tree, files[7]), '\n// retry the upload once more\n');
  log('cold CLI queries after touching one file (read for the answer, not saved)');
  const afterEdit: RunResult[] = [];
  for (let i = 0; i < 5; i++) afterEdit.push(await run([QUERIES[i], tree, '--index-dir', idx, ...m]));
  log('re-index after touching one file (5 times, another file each time)');
  const touched: RunResult[] = [await run(['index', tree, '--index-dir', idx, ...m])];
  for (let i = 1; i < 5; i++) {
    appendFileSync(path.join(tree, files[60 + i]), `\n// retry the upload from the CLI, take ${i}\n`);
    touched.push(await run(['index', tree, '--index-dir', idx, ...m]));
  }
  log('re-index after deleting 100 files');
  for (const f of files.slice(100, 200)) rmSync(path.join(tree, f));
  const deleted = await run(['index', tree, '--index-dir', idx, ...m]);
  const unchanged = await run(['index', tree, '--index-dir', idx, ...m]);

  // The same commands while `simgrep serve` keeps the workspace loaded (a fresh client process each).
  log('cold CLI queries and a re-index through simgrep serve');
  const server = await startServer(['serve', '--index-dir', idx, ...m, '--idle-timeout', '0']);
  const served: RunResult[] = [];
  for (let i = 0; i < 7; i++) served.push(await run([QUERIES[i], tree, '--index-dir', idx, ...m]));
  const servedTouched: RunResult[] = [];
  for (let i = 0; i < 5; i++) {
    appendFileSync(path.join(tree, files[30 + i]), `\n// retry the upload through the server, take ${i}\n`);
    servedTouched.push(await run(['index', tree, '--index-dir', idx, ...m]));
  }
  server.kill('SIGINT');
  await new Promise((r) => server.once('close', r));

  // The same update from a long-lived process (an agent's or an editor's): store open, model loaded.
  log('re-index after touching one file, from the library');
  const lib = createWorkspace({ dir: idx, model: MODEL, concurrency: 2 });
  await lib.index([tree]);
  const libraryTouched: number[] = [];
  for (let i = 0; i < 5; i++) {
    appendFileSync(path.join(tree, files[8 + i]), `\n// retry the upload, take ${i}\n`);
    const t = performance.now();
    await lib.index([tree]);
    libraryTouched.push(performance.now() - t);
  }
  await lib.close();

  const scanMs = median(scans.map((r) => r.wallMs));
  const results = {
    date: new Date().toISOString(),
    mode: quick ? 'quick' : 'full',
    machine: { nproc: os.availableParallelism(), node: process.version, load: os.loadavg() },
    corpus: { path: path.relative(REPO_ROOT, source), ...counts },
    modelDim: BENCH_MODEL_DIM,
    scan: { medianMs: scanMs, linesPerS: counts.lines / (scanMs / 1000), peakRssMb: Math.max(...scans.map((r) => r.peakRssKb)) / 1024, cpuS: median(scans.map((r) => r.cpuS)) },
    build: { ms: build.wallMs, linesPerS: counts.lines / (build.wallMs / 1000), peakRssMb: build.peakRssKb / 1024, cpuS: build.cpuS },
    sizeOnDisk: { bytes: sizeOnDisk, ratio: sizeOnDisk / counts.bytes },
    warm: { p50Ms: pct(warm, 0.5), p95Ms: pct(warm, 0.95), n: warm.length },
    cold: { medianMs: median(cold.map((r) => r.wallMs)), peakRssMb: Math.max(...cold.map((r) => r.peakRssKb)) / 1024, afterEditMedianMs: median(afterEdit.map((r) => r.wallMs)) },
    reindex: { oneTouchedMs: median(touched.map((r) => r.wallMs)), firstTouchedMs: touched[0].wallMs, hundredDeletedMs: deleted.wallMs, nothingChangedMs: unchanged.wallMs, libraryOneTouchedMs: median(libraryTouched) },
    served: { coldMedianMs: median(served.map((r) => r.wallMs)), clientPeakRssMb: Math.max(...served.map((r) => r.peakRssKb)) / 1024, oneTouchedMs: median(servedTouched.map((r) => r.wallMs)) },
  };
  writeFileSync(path.join(REPO_ROOT, 'bench/index-results.json'), JSON.stringify(results, null, 2) + '\n');
  writeSection(results);
  log(JSON.stringify(results, null, 2));
}

/** Starts `simgrep ARGS` (serve) and resolves once it listens. */
function startServer(args: string[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: REPO_ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (d: string) => { err += d; if (err.includes(' served by pid ')) resolve(child); });
    child.once('close', (code) => reject(new Error(`simgrep serve exited (${code}): ${err}`)));
  });
}

function writeSection(r: any): void {
  const f = (x: number, d = 0) => x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  const ok = (b: boolean) => (b ? 'PASS' : 'FAIL');
  const md = [
    '<!-- index:begin (written by node dist/bench/index.js) -->',
    '## Workspace index',
    '',
    `Command: \`npm run build && node dist/bench/index.js${r.mode === 'quick' ? ' --quick' : ''}\` (${r.date.slice(0, 16)}, ${r.machine.nproc} cores, Node ${r.machine.node}). `
      + `Corpus: ${r.corpus.path} (${f(r.corpus.files)} files, ${f(r.corpus.lines)} lines, ${f(r.corpus.bytes / 1048576, 1)} MB), bench model (dim ${r.modelDim}), -J 2, hybrid mode.`,
    '',
    '| target | measured | |',
    '|---|---|---|',
    `| warm query p50 <= 20 ms, p95 <= 50 ms (library, ${r.warm.n} queries) | p50 ${f(r.warm.p50Ms, 1)} ms, p95 ${f(r.warm.p95Ms, 1)} ms | ${ok(r.warm.p50Ms <= 20 && r.warm.p95Ms <= 50)} |`,
    `| cold CLI query <= 300 ms | ${f(r.cold.medianMs)} ms (median of 7 processes); with \`simgrep serve\` running: ${f(r.served.coldMedianMs)} ms (client peak RSS ${f(r.served.clientPeakRssMb)} MB) | alone ${ok(r.cold.medianMs <= 300)}, served ${ok(r.served.coldMedianMs <= 300)} |`,
    ...(r.cold.afterEditMedianMs === undefined ? [] : [`| (no target) cold CLI query after touching one file | ${f(r.cold.afterEditMedianMs)} ms (median of 5; the file is read for the answer, not saved) | |`]),
    `| build >= one-shot throughput | build ${f(r.build.linesPerS)} lines/s (${f(r.build.ms / 1000, 1)} s) vs scan ${f(r.scan.linesPerS)} lines/s; CPU time (all threads): build ${f(r.build.cpuS, 1)} s, scan ${f(r.scan.cpuS, 1)} s | ${ok(r.build.linesPerS >= r.scan.linesPerS)} |`,
    `| re-index after touching one file <= 300 ms | CLI: ${f(r.reindex.oneTouchedMs)} ms (median of 5, another file each time${r.reindex.firstTouchedMs === undefined ? '' : `; the first after the build: ${f(r.reindex.firstTouchedMs)} ms`}; process start and LanceDB's load included; nothing changed: ${f(r.reindex.nothingChangedMs)} ms); library, store open and model loaded: ${f(r.reindex.libraryOneTouchedMs)} ms (median of 5); CLI with \`simgrep serve\` running: ${f(r.served.oneTouchedMs)} ms (median of 5) | CLI ${ok(r.reindex.oneTouchedMs <= 300)}, library ${ok(r.reindex.libraryOneTouchedMs <= 300)}, served ${ok(r.served.oneTouchedMs <= 300)} |`,
    `| re-index after deleting 100 files <= 1 s | ${f(r.reindex.hundredDeletedMs)} ms | ${ok(r.reindex.hundredDeletedMs <= 1000)} |`,
    `| index size <= 2x source bytes | ${f(r.sizeOnDisk.bytes / 1048576, 1)} MB = ${f(r.sizeOnDisk.ratio, 2)}x | ${ok(r.sizeOnDisk.ratio <= 2)} |`,
    `| peak RSS while indexing <= one-shot + 200 MB | ${f(r.build.peakRssMb)} MB vs one-shot ${f(r.scan.peakRssMb)} MB | ${ok(r.build.peakRssMb <= r.scan.peakRssMb + 200)} |`,
    '',
    `Answers from the index equal the one-shot scan by construction and by test (test/integration/index/equivalence.test.ts, test/e2e/index-cli.test.ts)${qualityThroughIndex()}. \`--mode line\` is always answered by a scan.`,
    '<!-- index:end -->',
    '',
  ].join('\n');
  writeResultsSection(path.join(REPO_ROOT, 'bench/RESULTS.md'), 'index', md);
}

/** What the last quality run with --index (bench/quality/results.json) says about indexed answers. */
function qualityThroughIndex(): string {
  const file = path.join(REPO_ROOT, 'bench/quality/results.json');
  if (!existsSync(file)) return '';
  const q = JSON.parse(readFileSync(file, 'utf8')) as { build: { commit: string }; sets: { id: string; identical: string[][]; queries: unknown[]; methods: { id: string }[] }[] };
  const indexed = q.sets.flatMap((s) => s.methods.flatMap((m) => { const base = oneShotOf(m.id); return base ? [{ set: s, id: m.id, base }] : []; }));
  if (indexed.length === 0) return '';
  const same = indexed.filter(({ set, id, base }) => set.identical.some((g) => g.includes(id) && g.includes(base)));
  const modes = [...new Set(indexed.map((x) => x.base.replace(/^simgrep-/, '')))].join(', ');
  const queries = q.sets.reduce((n, s) => n + s.queries.length, 0);
  return same.length === indexed.length
    ? `, and on both quality dev sets: \`node dist/bench/quality/run.js --index\` (bench/QUALITY.md, build ${q.build.commit}) gave the one-shot ranked lists from the index on every one of ${queries} queries in the ${modes} modes, so bench/QUALITY.md holds for indexed search`
    : `; **the last \`node dist/bench/quality/run.js --index\` (build ${q.build.commit}) found indexed lists that differ from the one-shot ones** (bench/QUALITY.md)`;
}

main().catch((e: unknown) => { process.stderr.write(`[bench:index] ${(e as Error)?.stack ?? String(e)}\n`); process.exitCode = 2; });
