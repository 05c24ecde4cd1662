// Cluster bench: the 1M-line tree served from s3rver, searched by one process and by `simgrep worker`
// processes through a local redis-server, side by side and round-robin; plus the fixed cost of a
// cluster query (one tiny object, warm workers, in this process) and the cost of a shard. Writes
// bench/cluster-results.json and the cluster section of bench/RESULTS.md.
// npm run build && node dist/bench/cluster.js [--quick] [--repeats N]
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
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

const QUERIES = ['where do we retry failed uploads', 'parse the config file and validate settings', 'close the database connection on timeout'];
const TARGET_RATIO = 0.85;
const TARGET_FIXED_MS = 100;
const { quick, repeats } = benchArgs();
const REPEATS = repeats(3);
const log = (m: string): void => { process.stderr.write(`[bench:cluster] ${m}\n`); };

interface Config { id: string; label: string; workers: number; threads: number; args: string[] }
interface Row extends Config { runs: RunResult[]; wallS: number; linesPerSec: number; command: string }

/**
 * The fixed cost of a cluster query: one tiny object, workers warm, timed inside this process (no node
 * start-up); and the cost of a shard: one directory of the tree as one shard, then as one shard per file.
 */
async function fixedCost(url: string, uri: string, dirUri: string): Promise<{ clusterMs: number[]; localMs: number[]; oneShardMs: number[]; shardPerFileMs: number[]; files: number }> {
  const { createSearcher } = await import('../src/index.js');
  const searcher = createSearcher({ model: path.join(REPO_ROOT, MODEL), concurrency: 2 });
  const clusterMs: number[] = [];
  const localMs: number[] = [];
  try {
    for (let i = 0; i < 25; i++) {
      const q = QUERIES[i % QUERIES.length];
      let t = performance.now();
      const c = await searcher.search({ query: q, paths: [uri], cluster: url });
      if (i >= 5) clusterMs.push(performance.now() - t);
      t = performance.now();
      const l = await searcher.search({ query: q, paths: [uri] });
      if (i >= 5) localMs.push(performance.now() - t);
      if (JSON.stringify(c.results) !== JSON.stringify(l.results)) throw new Error(`cluster and local answers differ for "${q}"`);
    }
    const oneShardMs: number[] = [];
    const shardPerFileMs: number[] = [];
    let files = 0;
    for (let i = 0; i < 16; i++) {
      const q = QUERIES[i % QUERIES.length];
      for (const [shardBytes, into] of (i % 2 ? [[1 << 30, oneShardMs], [1, shardPerFileMs]] : [[1, shardPerFileMs], [1 << 30, oneShardMs]]) as [number, number[]][]) {
        const t = performance.now();
        const r = await searcher.search({ query: q, paths: [dirUri], cluster: { url, shardBytes } });
        if (i >= 2) into.push(performance.now() - t);
        files = r.stats.files;
      }
    }
    return { clusterMs, localMs, oneShardMs, shardPerFileMs, files };
  } finally { await searcher.close(); }
}

async function main(): Promise<void> {
  const started = Date.now();
  const loadStart = os.loadavg();
  if (!existsSync(path.join(REPO_ROOT, CLI))) throw new Error(`${CLI} is missing: run npm run build first`);
  buildBenchModel(path.join(REPO_ROOT, MODEL));
  const treeRel = 'bench/corpus/tree-1m';
  generateTree({ out: path.join(REPO_ROOT, treeRel), lines: 1_000_000 });
  const corpus = countCorpus(path.join(REPO_ROOT, treeRel));
  const s3dir = path.join(REPO_ROOT, 'bench', 'corpus', '.s3rver');
  const s3 = await startS3(REPO_ROOT, s3dir);
  const redis = await startRedis();
  const env = { ...process.env, AWS_ACCESS_KEY_ID: S3_KEYS.accessKeyId, AWS_SECRET_ACCESS_KEY: S3_KEYS.secretAccessKey, AWS_ENDPOINT_URL: s3.endpoint, AWS_PROFILE: '', AWS_REGION: 'us-east-1' };
  Object.assign(process.env, { AWS_ACCESS_KEY_ID: S3_KEYS.accessKeyId, AWS_SECRET_ACCESS_KEY: S3_KEYS.secretAccessKey, AWS_ENDPOINT_URL: s3.endpoint, AWS_PROFILE: '', AWS_REGION: 'us-east-1' });
  const uri = `s3://${BENCH_BUCKET}/tree-1m/`;
  const model = ['--model', MODEL, '--embedder', 'static'];
  const configs: Config[] = [
    { id: 'single', label: 'one process, -J 2 (no cluster)', workers: 0, threads: 2, args: [...model, '-J', '2'] },
    { id: 'w1j2', label: '1 worker process -J 2, default shards (16 MiB)', workers: 1, threads: 2, args: [...model, '--cluster', redis.url] },
    { id: 'w1j2-1m', label: '1 worker process -J 2, --shard-size 1M', workers: 1, threads: 2, args: [...model, '--cluster', redis.url, '--shard-size', '1M'] },
    { id: 'w1j1', label: '1 worker process -J 1', workers: 1, threads: 1, args: [...model, '--cluster', redis.url] },
    { id: 'w2j1', label: '2 worker processes -J 1', workers: 2, threads: 1, args: [...model, '--cluster', redis.url] },
  ];
  const runs = new Map<string, RunResult[]>(configs.map((c) => [c.id, []]));
  const cpu = new Map<number, number[]>([[1, []], [2, []]]);
  let fixed: Awaited<ReturnType<typeof fixedCost>> = { clusterMs: [], localMs: [], oneShardMs: [], shardPerFileMs: [], files: 0 };
  try {
    await seedOnce(s3, s3dir, path.join(REPO_ROOT, treeRel), 'tree-1m/', log);
    await seedOnce(s3, s3dir, path.join(REPO_ROOT, 'README.md'), 'tiny/README.md', log);
    for (let rep = 0; rep < REPEATS; rep++) {
      for (const c of configs) {
        const ws = c.workers ? await startWorkers(redis.url, c.workers, c.threads, env, [`s3://${BENCH_BUCKET}/`]) : [];
        try {
          const r = await measure(process.execPath, [CLI, QUERIES[rep % QUERIES.length], uri, ...c.args], { cwd: REPO_ROOT, timeoutMs: 20 * 60_000, env });
          if (r.exitCode !== 0) throw new Error(`${c.id}: exit ${r.exitCode}: ${r.stderrTail}`);
          runs.get(c.id)!.push(r);
          log(`${c.id} #${rep + 1}: ${(r.wallMs / 1000).toFixed(2)} s`);
        } finally { await stopWorkers(ws); }
      }
      for (const t of [1, 2]) {
        const r = await measure(process.execPath, ['dist/bench/cpu-scaling.js', String(t)], { cwd: REPO_ROOT, timeoutMs: 5 * 60_000 });
        cpu.get(t)!.push(r.wallMs);
      }
    }
    const ws = await startWorkers(redis.url, 1, 2, env, [`s3://${BENCH_BUCKET}/`]);
    const dir = readdirSync(path.join(REPO_ROOT, treeRel)).sort()[0];
    try { fixed = await fixedCost(redis.url, `s3://${BENCH_BUCKET}/tiny/README.md`, `s3://${BENCH_BUCKET}/tree-1m/${dir}/mod-0/`); } finally { await stopWorkers(ws); }
  } finally {
    await redis.stop();
    await s3.stop();
  }
  const rows: Row[] = configs.map((c) => {
    const wallS = median(runs.get(c.id)!.map((r) => r.wallMs)) / 1000;
    return { ...c, runs: runs.get(c.id)!, wallS, linesPerSec: corpus.lines / wallS, command: `node ${CLI} "${QUERIES[0]}" ${uri} ${c.args.join(' ').replace(redis.url, 'redis://127.0.0.1:PORT')}` };
  });
  const results = {
    date: new Date().toISOString(), mode: quick ? 'quick' : 'full', repeats: REPEATS, durationS: (Date.now() - started) / 1000,
    command: `npm run build && node dist/bench/cluster.js${quick ? ' --quick' : ''}`,
    machine: { cpu: os.cpus()[0]?.model ?? 'unknown', nproc: os.availableParallelism(), node: process.version, loadStart, loadEnd: os.loadavg() },
    corpus: { path: treeRel, ...corpus }, rows,
    cpuScaling: { oneMs: median(cpu.get(1)!), twoMs: median(cpu.get(2)!) },
    fixed: { clusterMedianMs: median(fixed.clusterMs), localMedianMs: median(fixed.localMs), clusterMs: fixed.clusterMs, localMs: fixed.localMs },
    shard: {
      files: fixed.files, oneShardMedianMs: median(fixed.oneShardMs), shardPerFileMedianMs: median(fixed.shardPerFileMs),
      perShardMs: (median(fixed.shardPerFileMs) - median(fixed.oneShardMs)) / Math.max(1, fixed.files - 1),
    },
  };
  writeFileSync(path.join(REPO_ROOT, 'bench', 'cluster-results.json'), JSON.stringify(results, null, 2) + '\n');
  writeSection(results);
  log(`wrote bench/cluster-results.json and the cluster section of bench/RESULTS.md in ${Math.round(results.durationS)} s`);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function writeSection(r: any): void {
  const f = (x: number, d = 0) => x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  const row = (id: string) => r.rows.find((x: Row) => x.id === id) as Row;
  const single = row('single');
  const one = row('w1j2');
  const small = row('w1j2-1m');
  const j1 = row('w1j1');
  const j2 = row('w2j1');
  const ratio = one.linesPerSec / single.linesPerSec;
  const shardsDefault = Math.ceil(r.corpus.bytes / (16 << 20));
  const perShardMs = r.shard.perShardMs;
  const ceiling = (2 * r.cpuScaling.oneMs) / r.cpuScaling.twoMs;
  const md = [
    '<!-- cluster:begin (written by node dist/bench/cluster.js) -->',
    '## Cluster search (BullMQ on a local redis-server)',
    '',
    `Command: \`${r.command}\` (${r.date.slice(0, 16)}, ${r.machine.nproc} cores, load ${f(r.machine.loadStart[0], 2)} at start, ${f(r.machine.loadEnd[0], 2)} at end, Node ${r.machine.node}; ${r.repeats} round(s), configs round-robin, median wall time). `
      + `Corpus: ${r.corpus.path} (${f(r.corpus.files)} files, ${f(r.corpus.lines)} lines, ${f(r.corpus.bytes / 1048576, 1)} MB) served from s3rver on 127.0.0.1 as s3://${BENCH_BUCKET}/tree-1m/; bench model, static embedder, hybrid mode. `
      + 'Worker processes are started (model loaded) before each timed run, as long-running workers are; the single process loads its model inside its run. s3rver, Redis, the coordinator and the workers share the 2 cores.',
    '',
    '| config | wall s | lines/s | vs one process | target |',
    '|---|---|---|---|---|',
    ...r.rows.map((x: Row) => `| ${x.label} | ${f(x.wallS, 2)} | ${f(x.linesPerSec)} | ${f((x.linesPerSec / single.linesPerSec) * 100)}% | ${x.id === 'w1j2' ? `>= ${TARGET_RATIO * 100}%: ${ratio >= TARGET_RATIO ? 'PASS' : 'FAIL'}` : '-'} |`),
    '',
    `- Fixed cost of a cluster query (library, in this process, warm worker; one 1-object search: connect, enqueue, one shard, merge, clean up): median ${f(r.fixed.clusterMedianMs, 1)} ms over ${r.fixed.clusterMs.length} queries `
      + `(the same search on this machine: ${f(r.fixed.localMedianMs, 1)} ms); target <= ${TARGET_FIXED_MS} ms: ${r.fixed.clusterMedianMs <= TARGET_FIXED_MS ? 'PASS' : 'FAIL'}.`,
    `- Cost of a shard (library, warm worker -J 2; one directory of ${r.shard.files} objects searched as one shard, then as ${r.shard.files} shards, alternating, 14 pairs): `
      + `${f(r.shard.oneShardMedianMs, 1)} ms against ${f(r.shard.shardPerFileMedianMs, 1)} ms, so ${f(perShardMs, 1)} ms per extra shard; the ${shardsDefault} default (16 MiB) shards of tree-1m cost ${f(perShardMs * shardsDefault, 0)} ms of the ${f(one.wallS, 1)} s run `
      + `(the --shard-size 1M row: ${f(small.wallS, 2)} s for ${Math.ceil(r.corpus.bytes / (1 << 20))} shards).`,
    `- Scaling: 2 worker processes (-J 1 each) against 1 (-J 1): ${f(j2.linesPerSec / j1.linesPerSec, 2)}x; the machine's own two-core ceiling (bench/cpu-scaling.ts, 2 x wall(1) / wall(2)) measured in the same rounds: ${f(ceiling, 2)}x.`,
    '',
    'Commands (from the repo root; AWS_ACCESS_KEY_ID=S3RVER AWS_SECRET_ACCESS_KEY=S3RVER AWS_ENDPOINT_URL=<s3rver>; workers: `node dist/src/cli/main.js worker --cluster redis://127.0.0.1:PORT -J N --model bench/.tmp/potion-8m-shape --embedder static`):',
    '', '```sh', ...r.rows.map((x: Row) => x.command), '```',
    '<!-- cluster:end -->',
    '',
  ].join('\n');
  writeResultsSection(path.join(REPO_ROOT, 'bench/RESULTS.md'), 'cluster', md);
}

main().catch((e: unknown) => { process.stderr.write(`[bench:cluster] ${(e as Error)?.stack ?? String(e)}\n`); process.exitCode = 2; });
