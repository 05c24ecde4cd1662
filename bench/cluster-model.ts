// Checks docs/SCALING.md's model at small scale: 1, 2 and 4 worker processes, each reading S3 through
// its own throttled link (as each machine has its own bandwidth), search a few MB; the model predicts
// wall = fixed + bytes / (workers x rate). Writes the cluster-model section of bench/RESULTS.md.
// npm run build && node dist/bench/cluster-model.js [--rate-kbps 500]
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildBenchModel, REPO_ROOT } from './bench-model.js';
import { countCorpus } from './count.js';
import { generateTree } from './corpus.js';
import { measure, median } from './measure.js';
import { BENCH_BUCKET, S3_KEYS, seedOnce, startS3 } from './remote-s3.js';
import { writeResultsSection } from './results.js';
import { startRedis } from '../test/helpers/redis-server.js';
import { CLI, MODEL } from './cluster-workers.js';

const QUERY = 'where do we retry failed uploads';
const argv = process.argv.slice(2);
const rateAt = argv.indexOf('--rate-kbps');
const RATE = (rateAt >= 0 ? Number(argv[rateAt + 1]) : 500) * 1000; // bytes/s per worker
const log = (m: string): void => { process.stderr.write(`[bench:cluster-model] ${m}\n`); };

/** A TCP proxy whose downstream bytes (S3's answers) all share one token bucket of `rate` bytes/s. */
function throttledProxy(targetPort: number, rate: number): Promise<{ endpoint: string; close(): void }> {
  let nextFree = 0;
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    const drop = () => { client.destroy(); upstream.destroy(); };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      const now = performance.now();
      nextFree = Math.max(now, nextFree) + (chunk.length / rate) * 1000;
      upstream.pause();
      setTimeout(() => { client.write(chunk); upstream.resume(); }, nextFree - now);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    endpoint: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    close: () => server.close(),
  })));
}

function startWorker(url: string, env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [CLI, 'worker', '--cluster', url, '-J', '1', '--model', MODEL, '--embedder', 'static', '--allow', `s3://${BENCH_BUCKET}/`], { cwd: REPO_ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    p.stderr!.setEncoding('utf8').on('data', (d: string) => { err += d; if (/listening for shards/.test(err)) resolve(p); });
    p.once('exit', (code) => reject(new Error(`worker exited (${code}): ${err}`)));
  });
}

async function main(): Promise<void> {
  buildBenchModel(path.join(REPO_ROOT, MODEL));
  const treeRel = 'bench/corpus/tree-1m';
  generateTree({ out: path.join(REPO_ROOT, treeRel), lines: 1_000_000 });
  const dirs = readdirSync(path.join(REPO_ROOT, treeRel)).filter((d) => statSync(path.join(REPO_ROOT, treeRel, d)).isDirectory()).sort().slice(1, 4);
  const counts = dirs.map((d) => countCorpus(path.join(REPO_ROOT, treeRel, d)));
  const bytes = counts.reduce((n, c) => n + c.bytes, 0);
  const files = counts.reduce((n, c) => n + c.files, 0);
  const s3dir = path.join(REPO_ROOT, 'bench', 'corpus', '.s3rver');
  const s3 = await startS3(REPO_ROOT, s3dir);
  const redis = await startRedis();
  const base = { ...process.env, AWS_ACCESS_KEY_ID: S3_KEYS.accessKeyId, AWS_SECRET_ACCESS_KEY: S3_KEYS.secretAccessKey, AWS_ENDPOINT_URL: s3.endpoint, AWS_PROFILE: '', AWS_REGION: 'us-east-1' };
  const uris = dirs.map((d) => `s3://${BENCH_BUCKET}/tree-1m/${d}/`);
  const args = [CLI, QUERY, ...uris, '--cluster', redis.url, '--shard-size', '128K', '--model', MODEL, '--embedder', 'static'];
  const rows: { workers: number; wallS: number[]; predictedS: number }[] = [];
  let fixedS = 0;
  try {
    await seedOnce(s3, s3dir, path.join(REPO_ROOT, treeRel), 'tree-1m/', log);
    for (const n of [1, 2, 4]) {
      const proxies = await Promise.all(Array.from({ length: n }, () => throttledProxy(Number(new URL(s3.endpoint).port), RATE)));
      const ws = await Promise.all(proxies.map((p) => startWorker(redis.url, { ...base, AWS_ENDPOINT_URL: p.endpoint })));
      const wallS: number[] = [];
      try {
        // Run 0 warms the workers up (their first shards compile the code), as long-running workers are.
        for (let i = 0; i < 4; i++) {
          const r = await measure(process.execPath, args, { cwd: REPO_ROOT, timeoutMs: 300_000, env: base });
          if (r.exitCode !== 0) throw new Error(`exit ${r.exitCode}: ${r.stderrTail}`);
          if (i > 0) wallS.push(r.wallMs / 1000);
          log(`${n} worker(s): ${(r.wallMs / 1000).toFixed(2)} s`);
        }
      } finally {
        for (const w of ws) w.kill('SIGTERM');
        for (const p of proxies) p.close();
      }
      // The fixed part (process start, listing, the last shard's search, merge) is calibrated on 1 worker.
      if (n === 1) fixedS = median(wallS) - bytes / RATE;
      rows.push({ workers: n, wallS, predictedS: fixedS + bytes / (n * RATE) });
    }
  } finally {
    await redis.stop();
    await s3.stop();
  }
  const f = (x: number, d = 2) => x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  const md = [
    '<!-- cluster-model:begin (written by node dist/bench/cluster-model.js) -->',
    '## Cluster scaling model, checked with throttled reads',
    '',
    `Command: \`npm run build && node dist/bench/cluster-model.js --rate-kbps ${RATE / 1000}\` (${new Date().toISOString().slice(0, 16)}, ${os.availableParallelism()} cores, load ${f(os.loadavg()[0])} at the end). `
      + `Corpus: ${dirs.length} directories of tree-1m on s3rver (${files} files, ${f(bytes / 1e6)} MB), 128 KiB shards; each worker process (-J 1) reads S3 through its own proxy throttled to ${RATE / 1000} kB/s, `
      + 'as each machine of a cluster has its own bandwidth. Model (docs/SCALING.md): wall = fixed + bytes / (workers x rate), the fixed part calibrated on the 1-worker row '
      + `(${f(fixedS)} s: process start, listing, the last shard's search, merge) and the 2- and 4-worker rows predicted from it.`,
    '',
    '| workers | measured wall s (3 runs after a warm-up run) | predicted s | median measured / predicted |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${r.workers} | ${r.wallS.map((x) => f(x)).join(', ')} | ${f(r.predictedS)} | ${f(median(r.wallS) / r.predictedS)} |`),
    '<!-- cluster-model:end -->',
    '',
  ].join('\n');
  writeResultsSection(path.join(REPO_ROOT, 'bench/RESULTS.md'), 'cluster-model', md);
  log('wrote the cluster-model section of bench/RESULTS.md');
}

main().catch((e: unknown) => { process.stderr.write(`[bench:cluster-model] ${(e as Error)?.stack ?? String(e)}\n`); process.exitCode = 2; });
