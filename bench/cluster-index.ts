// Cluster index bench: a seeded tree served from s3rver, indexed from scratch by one process
// (`simgrep index s3://…`) and by `simgrep worker` processes through a local redis-server
// (`simgrep index --cluster …`), round-robin, each build into a fresh index directory; every build
// must hold the same files and chunks. Writes bench/cluster-index-results.json and the cluster-index
// section of bench/RESULTS.md.
// npm run build && nice -n 10 node dist/bench/cluster-index.js [--quick] [--repeats N] [--lines N]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildBenchModel, REPO_ROOT } from './bench-model.js';
import { countCorpus } from './count.js';
import { generateTree } from './corpus.js';
import { measure, median, type RunResult } from './measure.js';
import { BENCH_BUCKET, S3_KEYS, seedOnce, startS3 } from './remote-s3.js';
import { benchArgs, writeResultsSection } from './results.js';
import { startRedis } from '../test/helpers/redis-server.js';
import { CLI, MODEL, startWorkers, stopWorkers } from './cluster-workers.js';

const { quick, repeats } = benchArgs();
const REPEATS = repeats(3);
const linesAt = process.argv.indexOf('--lines');
const LINES = linesAt >= 0 ? Number(process.argv[linesAt + 1]) : quick ? 50_000 : 200_000;
const log = (m: string): void => { process.stderr.write(`[bench:cluster-index] ${m}\n`); };

interface Config { id: string; label: string; workers: number; threads: number; args: string[] }

/** Files and chunks of a built index (every build must have the same). */
async function counts(dir: string, env: NodeJS.ProcessEnv): Promise<string> {
  const out = await new Promise<string>((resolve) => {
    const p = spawn(process.execPath, [CLI, 'workspace', 'status', '--index-dir', dir, '--json'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'ignore'] });
    let s = '';
    p.stdout!.setEncoding('utf8').on('data', (d: string) => { s += d; });
    p.on('close', () => resolve(s));
  });
  const j = JSON.parse(out) as { files: number; lines: number; chunks: number };
  return `${j.files} files, ${j.lines} lines, ${j.chunks} chunks`;
}

async function main(): Promise<void> {
  const started = Date.now();
  const loadStart = os.loadavg();
  if (!existsSync(path.join(REPO_ROOT, CLI))) throw new Error(`${CLI} is missing: run npm run build first`);
  buildBenchModel(path.join(REPO_ROOT, MODEL));
  const name = `tree-${LINES / 1000}k`;
  const treeRel = `bench/corpus/${name}`;
  generateTree({ out: path.join(REPO_ROOT, treeRel), lines: LINES });
  const corpus = countCorpus(path.join(REPO_ROOT, treeRel));
  const s3dir = path.join(REPO_ROOT, 'bench', 'corpus', '.s3rver');
  const s3 = await startS3(REPO_ROOT, s3dir);
  const redis = await startRedis();
  const s3env = { AWS_ACCESS_KEY_ID: S3_KEYS.accessKeyId, AWS_SECRET_ACCESS_KEY: S3_KEYS.secretAccessKey, AWS_ENDPOINT_URL: s3.endpoint, AWS_REGION: 'us-east-1' };
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'simgrep-bench-cluster-index-'));
  const env = { ...process.env, ...s3env, SIMGREP_HOME: path.join(tmp, 'home'), SIMGREP_CACHE_DIR: path.join(tmp, 'cache') };
  const uri = `s3://${BENCH_BUCKET}/${name}/`;
  const model = ['--model', MODEL, '--embedder', 'static'];
  const configs: Config[] = [
    { id: 'single', label: 'one process, -J 2 (no cluster)', workers: 0, threads: 2, args: [...model, '-J', '2'] },
    { id: 'w1j2', label: '1 worker process -J 2, default shards (16 MiB)', workers: 1, threads: 2, args: [...model, '--cluster', redis.url] },
    { id: 'w1j2-1m', label: '1 worker process -J 2, --shard-size 1M', workers: 1, threads: 2, args: [...model, '--cluster', redis.url, '--shard-size', '1M'] },
    { id: 'w2j1-1m', label: '2 worker processes -J 1, --shard-size 1M', workers: 2, threads: 1, args: [...model, '--cluster', redis.url, '--shard-size', '1M'] },
  ];
  const runs = new Map<string, RunResult[]>(configs.map((c) => [c.id, []]));
  const built = new Set<string>();
  try {
    await seedOnce(s3, s3dir, path.join(REPO_ROOT, treeRel), `${name}/`, log);
    for (let rep = 0; rep < REPEATS; rep++) {
      for (const c of configs) {
        const ws = c.workers ? await startWorkers(redis.url, c.workers, c.threads, env, [`s3://${BENCH_BUCKET}/`, tmp]) : [];
        const dir = path.join(tmp, `${c.id}-${rep}`);
        try {
          const r = await measure(process.execPath, [CLI, 'index', uri, '--index-dir', dir, ...c.args], { cwd: REPO_ROOT, timeoutMs: 20 * 60_000, env });
          if (r.exitCode !== 0) throw new Error(`${c.id}: exit ${r.exitCode}: ${r.stderrTail}`);
          runs.get(c.id)!.push(r);
          built.add(await counts(dir, env));
          log(`${c.id} #${rep + 1}: ${(r.wallMs / 1000).toFixed(2)} s`);
        } finally {
          await stopWorkers(ws);
          rmSync(dir, { recursive: true, force: true });
        }
      }
    }
  } finally {
    await redis.stop();
    await s3.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
  if (built.size !== 1) throw new Error(`the builds differ: ${[...built].join(' / ')}`);
  const rows = configs.map((c) => {
    const wallS = median(runs.get(c.id)!.map((r) => r.wallMs)) / 1000;
    return { ...c, runs: runs.get(c.id)!, wallS, linesPerSec: corpus.lines / wallS, command: `node ${CLI} index ${uri} --index-dir DIR ${c.args.join(' ').replace(redis.url, 'redis://127.0.0.1:PORT')}` };
  });
  const results = {
    date: new Date().toISOString(), mode: quick ? 'quick' : 'full', repeats: REPEATS, durationS: (Date.now() - started) / 1000,
    command: `npm run build && nice -n 10 node dist/bench/cluster-index.js${quick ? ' --quick' : ''}${linesAt >= 0 ? ` --lines ${LINES}` : ''}`,
    machine: { cpu: os.cpus()[0]?.model ?? 'unknown', nproc: os.availableParallelism(), node: process.version, loadStart, loadEnd: os.loadavg() },
    corpus: { path: treeRel, ...corpus }, built: [...built][0], rows,
  };
  writeFileSync(path.join(REPO_ROOT, 'bench', 'cluster-index-results.json'), JSON.stringify(results, null, 2) + '\n');
  writeSection(results);
  log(`wrote bench/cluster-index-results.json and the cluster-index section of bench/RESULTS.md in ${Math.round(results.durationS)} s`);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function writeSection(r: any): void {
  const f = (x: number, d = 0) => x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  const single = r.rows.find((x: { id: string }) => x.id === 'single');
  const md = [
    '<!-- cluster-index:begin (written by node dist/bench/cluster-index.js) -->',
    '## Cluster index builds (BullMQ on a local redis-server)',
    '',
    `Command: \`${r.command}\` (${r.date.slice(0, 16)}, ${r.machine.nproc} cores, load ${f(r.machine.loadStart[0], 2)} at start, ${f(r.machine.loadEnd[0], 2)} at end, Node ${r.machine.node}; ${r.repeats} round(s), configs round-robin, median wall time). `
      + `Corpus: ${r.corpus.path} (${f(r.corpus.files)} files, ${f(r.corpus.lines)} lines, ${f(r.corpus.bytes / 1048576, 1)} MB) served from s3rver on 127.0.0.1; bench model, static embedder; each build from scratch into a new local index directory; `
      + `every build holds the same ${r.built}. Workers are started (model loaded) before each timed run; s3rver, Redis, the coordinator and the workers share the 2 cores.`,
    '',
    '| config | wall s | lines/s | vs one process |',
    '|---|---|---|---|',
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    ...r.rows.map((x: any) => `| ${x.label} | ${f(x.wallS, 2)} | ${f(x.linesPerSec)} | ${f((x.linesPerSec / single.linesPerSec) * 100)}% |`),
    '',
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    '```sh', ...r.rows.map((x: any) => x.command), '```',
    '<!-- cluster-index:end -->',
    '',
  ].join('\n');
  writeResultsSection(path.join(REPO_ROOT, 'bench/RESULTS.md'), 'cluster-index', md);
}

main().catch((e: unknown) => { process.stderr.write(`[bench:cluster-index] ${(e as Error)?.stack ?? String(e)}\n`); process.exitCode = 2; });
