// Bench harness: generates missing corpora and the bench model, runs the built CLI (and ripgrep) as
// child processes side by side, and writes bench/RESULTS.md and bench/results.json.
// npm run build && node dist/bench/run.js [--quick] [--repeats N]
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BENCH_MODEL_DIM, BENCH_MODEL_ROWS, buildBenchModel, REPO_ROOT } from './bench-model.js';
import { countCorpus } from './count.js';
import { generateBigFile, generateTree } from './corpus.js';
import { measure, RSS_METHOD, type RunResult } from './measure.js';
import { renderReport } from './report.js';
import { deriveChecks, summarize, writeMainReport, type BenchResults, type CorpusInfo, type Row } from './results.js';

const QUERIES = ['where do we retry failed uploads', 'parse the config file and validate settings', 'close the database connection on timeout'];
const CLI = 'dist/src/cli/main.js';
const MODEL = 'bench/.tmp/potion-8m-shape';
const TIMEOUT_MS = 20 * 60 * 1000;

const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const repeatsArg = argv.indexOf('--repeats');
const REPEATS = repeatsArg >= 0 ? Number(argv[repeatsArg + 1]) : 3;
const LATENCY_REPEATS = 5;
/** -J 1 and -J 2 run back to back this many times: this host's speed drifts, so ratios are taken per pair. */
const SCALING_REPEATS = 7;
const log = (msg: string): void => { process.stderr.write(`[bench] ${msg}\n`); };

function corpus(name: string, rel: string): CorpusInfo {
  log(`counting ${rel}`);
  return { name, path: rel, ...countCorpus(path.join(REPO_ROOT, rel)) };
}

/** A deterministic ~100-line file from the tree: the first (sorted walk) with 80-120 lines. */
function smallFile(dir: string): string {
  for (const name of readdirSync(path.join(REPO_ROOT, dir)).sort()) {
    const rel = path.join(dir, name);
    if (statSync(path.join(REPO_ROOT, rel)).isDirectory()) {
      const found = smallFile(rel);
      if (found) return found;
    } else if (/\.(ts|py|go)$/.test(name)) {
      const lines = countCorpus(path.join(REPO_ROOT, rel)).lines;
      if (lines >= 80 && lines <= 120) return rel;
    }
  }
  return '';
}

interface Config {
  id: string; section: Row['section']; label: string; cmd: string; args: (query: string) => string[]; corpus: CorpusInfo;
  env?: Record<string, string>;
  /** -J of a simgrep row: its busiest that many threads besides the main one are the workers. */
  workers?: number;
}

/** The bench's own tokenizer cache (warmed by the first run), so runs do not depend on ~/.cache. */
const TOKENIZER_CACHE = { SIMGREP_CACHE_DIR: path.join(REPO_ROOT, 'bench', '.tmp', 'cache') };

const simgrep = (id: string, section: Row['section'], label: string, c: CorpusInfo, extra: string[], env: Record<string, string> = TOKENIZER_CACHE): Config => {
  const j = extra.indexOf('-J');
  return { id, section, label, cmd: process.execPath, args: (q) => [CLI, q, c.path, ...extra], corpus: c, env, workers: j >= 0 ? Number(extra[j + 1]) : undefined };
};
/** The same run with the whole process held to one core: what one core does, for the scaling section. */
const oneCore = (c: Config, id: string, label: string): Config =>
  ({ ...c, id, label, cmd: 'taskset', args: (q) => ['-c', '0', process.execPath, ...c.args(q)] });
/** The machine's own scaling (bench/cpu-scaling.ts), run in the same round-robin as the rows it explains. */
const calibration = (threads: number, c: CorpusInfo): Config =>
  ({ id: `cpu-${threads}`, section: 'scaling', label: `pure-JS compute loop, ${threads} thread${threads > 1 ? 's' : ''}`, cmd: process.execPath, args: () => ['dist/bench/cpu-scaling.js', String(threads)], corpus: c });
const ripgrep = (id: string, c: CorpusInfo): Config =>
  ({ id, section: id === 'rg-tree' ? 'throughput' : 'bigfile', label: 'ripgrep `rg --no-mmap -c retry`', cmd: 'rg', args: () => ['--no-mmap', '-c', 'retry', c.path], corpus: c });

const quote = (a: string): string => (/^[\w./=-]+$/.test(a) ? a : `"${a}"`);
const display = (c: Config): string =>
  [...(c.env?.SIMGREP_CACHE_DIR === 'off' ? ['SIMGREP_CACHE_DIR=off'] : []), c.cmd, ...c.args(QUERIES[0])]
    .map((a) => (a === process.execPath ? 'node' : a)).map(quote).join(' ');

/** Runs the configs round-robin, `repeats` times, so load spikes hit every config alike. */
async function runGroup(configs: Config[], repeats: number): Promise<Row[]> {
  const runs = new Map<string, RunResult[]>(configs.map((c) => [c.id, []]));
  for (let rep = 0; rep < repeats; rep++) {
    for (const c of configs) {
      const r = await measure(c.cmd, c.args(QUERIES[rep % QUERIES.length]), { cwd: REPO_ROOT, timeoutMs: TIMEOUT_MS, env: { ...process.env, ...c.env } });
      log(`${c.label} on ${c.corpus.name} #${rep + 1}: ${(r.wallMs / 1000).toFixed(2)} s, ${r.peakRssKb} kB, exit ${r.exitCode}`);
      runs.get(c.id)!.push(r);
    }
  }
  return configs.map((c) => summarize({ id: c.id, section: c.section, label: c.label, command: display(c), corpus: c.corpus.name, workers: c.workers, runs: runs.get(c.id)! }, c.corpus));
}

function commandExists(cmd: string): boolean {
  try { execFileSync(cmd, ['--version'], { stdio: 'ignore' }); return true; } catch { return false; }
}

function ripgrepVersion(): string | null {
  try { return execFileSync('rg', ['--version'], { encoding: 'utf8' }).split('\n')[0]; } catch { return null; }
}

function machine(loadStart: number[], rg: string): BenchResults['machine'] {
  const cpu = /model name\s*:\s*(.+)/.exec(existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'utf8') : '')?.[1] ?? os.cpus()[0]?.model ?? 'unknown';
  return { nproc: os.availableParallelism(), cpu, memGb: os.totalmem() / 1e9, node: process.version, os: `${os.type()} ${os.release()}`, loadStart, loadEnd: os.loadavg(), rg };
}

/** A hash of the built CLI's .js files: if it changes mid-run, another build replaced the CLI under us. */
function distStamp(): string {
  const hash = createHash('sha256');
  const walk = (dir: string): void => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.js')) hash.update(p).update(readFileSync(p));
    }
  };
  for (const d of ['src', 'workers']) walk(path.join(REPO_ROOT, 'dist', d));
  return hash.digest('hex');
}

function gitCommit(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src', 'workers'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
    return dirty ? `${head} + uncommitted changes in src/ or workers/` : head;
  } catch {
    return 'unknown';
  }
}

function pythonNote(): string {
  try {
    execFileSync('python3', ['-c', 'import model2vec, numpy'], { stdio: 'ignore' });
    return 'installed here but not run by this harness; figure from the issue';
  } catch {
    return 'not measured: model2vec is not installed here; figure from the issue';
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  const loadStart = os.loadavg();
  if (!existsSync(path.join(REPO_ROOT, CLI))) throw new Error(`${CLI} is missing: run npm run build first`);
  const commit = gitCommit();
  const rg = ripgrepVersion();
  if (!rg) log('ripgrep (rg) not found: the I/O-floor rows are skipped (apt-get install ripgrep)');
  const withRg = (configs: Config[]): Config[] => configs.filter((c) => rg || c.cmd !== 'rg');
  const stampStart = distStamp();
  const scale = quick ? 3 : 10;
  const bigBytes = quick ? 200 * 1024 * 1024 : 1024 ** 3;
  const names = { tree: 'bench/corpus/tree-1m', treeN: `bench/corpus/tree-${scale}m`, big: `bench/corpus/big-${quick ? '200m' : '1g'}.txt` };
  log(`mode ${quick ? 'quick' : 'full'}: generating what is missing`);
  buildBenchModel(path.join(REPO_ROOT, MODEL));
  generateTree({ out: path.join(REPO_ROOT, names.tree), lines: 1_000_000 });
  generateTree({ out: path.join(REPO_ROOT, names.treeN), lines: 1_000_000, scale });
  generateBigFile({ out: path.join(REPO_ROOT, names.big), bytes: bigBytes });
  const small = smallFile(names.tree);
  const [tree, treeN, big, smallOne] = [corpus('tree-1m', names.tree), corpus(`tree-${scale}m`, names.treeN),
    corpus(path.basename(names.big), names.big), corpus(path.basename(small), small)];
  const corpora = Object.fromEntries([tree, treeN, big, smallOne].map((c) => [c.name, c]));
  const m = ['--model', MODEL];
  const rows: Row[] = [];
  log('throughput on the 1M-line tree');
  rows.push(...await runGroup(withRg([
    simgrep('static-j1', 'throughput', 'simgrep static -J 1 (default hybrid mode)', tree, [...m, '--embedder', 'static', '-J', '1']),
    simgrep('static-j2', 'throughput', 'simgrep static -J 2 (default hybrid mode)', tree, [...m, '--embedder', 'static', '-J', '2']),
    simgrep('semantic-j2', 'throughput', 'simgrep static -J 2 --mode semantic', tree, [...m, '--embedder', 'static', '-J', '2', '--mode', 'semantic']),
    simgrep('line-j2', 'throughput', 'simgrep static -J 2 --mode line', tree, [...m, '--embedder', 'static', '-J', '2', '--mode', 'line']),
    simgrep('lexical-j2', 'throughput', 'simgrep -J 2 --mode lexical', tree, [...m, '-J', '2', '--mode', 'lexical']),
    simgrep('onnx-j2', 'throughput', 'simgrep onnx -J 2 (default hybrid mode)', tree, [...m, '--embedder', 'onnx', '-J', '2']),
    ripgrep('rg-tree', tree),
  ]), REPEATS));
  log('worker scaling: -J 1 and -J 2 back to back');
  const taskset = commandExists('taskset');
  if (!taskset) log('taskset not found: the one-core row is skipped (apt-get install util-linux)');
  const scaleJ1 = simgrep('scale-j1', 'scaling', 'simgrep static -J 1', tree, [...m, '--embedder', 'static', '-J', '1']);
  rows.push(...await runGroup([
    scaleJ1,
    simgrep('scale-j2', 'scaling', 'simgrep static -J 2', tree, [...m, '--embedder', 'static', '-J', '2']),
    ...(taskset ? [oneCore(scaleJ1, 'scale-core', 'simgrep static -J 1, whole process on one core (taskset -c 0)')] : []),
    calibration(1, tree),
    calibration(2, tree),
  ], SCALING_REPEATS));
  log(`peak RSS, 1x vs ${scale}x tree`);
  const base = rows.find((r) => r.id === 'static-j2')!;
  rows.push({ ...base, id: 'flat-1x', section: 'flatness' });
  rows.push(...await runGroup([simgrep('flat-nx', 'flatness', 'simgrep static -J 2', treeN, [...m, '--embedder', 'static', '-J', '2'])], REPEATS));
  log('one huge file');
  rows.push(...await runGroup(withRg([
    simgrep('big-static-j2', 'bigfile', 'simgrep static -J 2', big, [...m, '--embedder', 'static', '-J', '2']),
    ripgrep('rg-big', big),
  ]), REPEATS));
  log('one small file');
  rows.push(...await runGroup([
    simgrep('latency-default', 'latency', 'bundled default model (no --model)', smallOne, []),
    simgrep('latency-bench', 'latency', 'bench model (--model)', smallOne, m),
    // A first run on a new machine: the tokenizer is compiled from tokenizer.json every time.
    simgrep('latency-cold', 'latency', 'bundled default model, no tokenizer cache (a first run)', smallOne, [], { SIMGREP_CACHE_DIR: 'off' }),
  ], LATENCY_REPEATS));

  const results: BenchResults = {
    mode: quick ? 'quick' : 'full',
    date: new Date().toISOString(),
    durationS: (Date.now() - started) / 1000,
    build: { commit, distChangedDuringRun: distStamp() !== stampStart },
    machine: machine(loadStart, rg ?? 'ripgrep not found'),
    rssMethod: RSS_METHOD,
    queries: QUERIES,
    corpora,
    modelTableMb: (BENCH_MODEL_ROWS * BENCH_MODEL_DIM * 4) / 1e6,
    python: pythonNote(),
    rows,
    checks: [],
  };
  results.checks = deriveChecks(results);
  writeFileSync(path.join(REPO_ROOT, 'bench', 'results.json'), JSON.stringify(results, null, 2) + '\n');
  writeMainReport(path.join(REPO_ROOT, 'bench', 'RESULTS.md'), renderReport(results));
  log(`wrote bench/RESULTS.md and bench/results.json in ${Math.round(results.durationS)} s`);
  if (results.build.distChangedDuringRun) log('WARNING: dist/ was rebuilt during the run; rows may mix builds. Re-run on a quiet tree.');
  for (const c of results.checks) log(`${c.pass ? 'PASS' : 'FAIL'} ${c.target}: ${c.measured}`);
}

main().catch((e: unknown) => {
  process.stderr.write(`[bench] ${(e as Error)?.stack ?? String(e)}\n`);
  process.exitCode = 2;
});
