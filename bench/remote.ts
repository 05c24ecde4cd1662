// Remote-source bench: the same corpora searched from the local disk and from a local S3 server
// (s3rver on loopback), side by side, round-robin, and the raw GET floor of that server. Writes
// bench/REMOTE.md and bench/remote-results.json.
// npm run build && node dist/bench/remote.js [--quick] [--repeats N]
import { existsSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildBenchModel, REPO_ROOT } from './bench-model.js';
import { countCorpus } from './count.js';
import { generateBigFile, generateTree } from './corpus.js';
import { measure, median, RSS_METHOD, type RunResult } from './measure.js';
import { benchArgs, fmt, kbToMb } from './results.js';
import { BENCH_BUCKET, corpusFiles, rawGetFloorS, S3_KEYS, seedOnce, startS3, type BenchS3 } from './remote-s3.js';

const CLI = 'dist/src/cli/main.js';
const MODEL = 'bench/.tmp/potion-8m-shape';
const QUERIES = ['where do we retry failed uploads', 'parse the config file and validate settings', 'close the database connection on timeout'];
const TARGET_RATIO = 0.7;
const { quick, repeats } = benchArgs();
const REPEATS = repeats(3);
const log = (m: string): void => { process.stderr.write(`[bench:remote] ${m}\n`); };

interface Corpus { name: string; rel: string; files: number; lines: number; bytes: number }
interface Row { corpus: string; where: 'local disk' | 's3 (loopback)'; command: string; runs: RunResult[]; serverCpuS: number[]; wallS: number; linesPerSec: number; mbPerSec: number; rssMb: number; error?: string }

async function benchCorpus(s3: BenchS3, c: Corpus): Promise<{ rows: Row[]; floorS: number }> {
  const isDir = statSync(path.join(REPO_ROOT, c.rel)).isDirectory();
  const uri = `s3://${BENCH_BUCKET}/${c.name}${isDir ? '/' : ''}`;
  const common = ['--model', MODEL, '--embedder', 'static', '-J', '2'];
  const env = { ...process.env, AWS_ACCESS_KEY_ID: S3_KEYS.accessKeyId, AWS_SECRET_ACCESS_KEY: S3_KEYS.secretAccessKey, AWS_ENDPOINT_URL: s3.endpoint, AWS_PROFILE: '', AWS_REGION: 'us-east-1' };
  const configs = [
    { where: 'local disk' as const, target: c.rel, env: process.env },
    { where: 's3 (loopback)' as const, target: uri, env },
  ];
  const runs = configs.map(() => [] as RunResult[]);
  const serverCpu = configs.map(() => [] as number[]);
  for (let rep = 0; rep < REPEATS; rep++) {
    for (const [i, cfg] of configs.entries()) {
      const cpu0 = s3.cpuS();
      const r = await measure(process.execPath, [CLI, QUERIES[rep % QUERIES.length], cfg.target, ...common], { cwd: REPO_ROOT, timeoutMs: 20 * 60_000, env: cfg.env });
      serverCpu[i].push(s3.cpuS() - cpu0);
      log(`${c.name} ${cfg.where} #${rep + 1}: ${(r.wallMs / 1000).toFixed(2)} s, ${r.peakRssKb} kB, exit ${r.exitCode}`);
      runs[i].push(r);
    }
  }
  const keys = corpusFiles(path.join(REPO_ROOT, c.rel)).map((f) => (isDir ? `${c.name}/${f}` : c.name));
  const floorS = await rawGetFloorS(s3, keys);
  const rows = configs.map((cfg, i): Row => {
    const wallS = median(runs[i].map((r) => r.wallMs)) / 1000;
    const bad = runs[i].find((r) => r.exitCode !== 0); // both configs must find the query's lines
    return {
      corpus: c.name, where: cfg.where, command: `node ${CLI} "${QUERIES[0]}" ${cfg.target} ${common.join(' ')}`, runs: runs[i], serverCpuS: serverCpu[i],
      wallS, linesPerSec: c.lines / wallS, mbPerSec: c.bytes / 1e6 / wallS, rssMb: kbToMb(median(runs[i].map((r) => r.peakRssKb))),
      ...(bad && { error: `exit ${bad.exitCode}: ${bad.stderrTail.trim().split('\n').slice(-2).join(' | ')}` }),
    };
  });
  return { rows, floorS };
}


function report(corpora: Corpus[], results: { rows: Row[]; floorS: number }[], loadStart: number[], durationS: number): string {
  const out = [
    '# simgrep remote-source benchmark', '',
    '<!-- Written by bench/remote.ts; do not edit by hand. Re-run the harness to update. -->', '',
    `- Date: ${new Date().toISOString()} (${quick ? 'quick' : 'full'} mode, ${REPEATS} repeat(s), ${Math.round(durationS)} s in all)`,
    `- Machine: ${os.cpus()[0]?.model ?? 'unknown'}, nproc ${os.availableParallelism()}, Node ${process.version}; load average at start ${loadStart.map((x) => x.toFixed(2)).join(' / ')}, at end ${os.loadavg().map((x) => x.toFixed(2)).join(' / ')}`,
    `- S3 server: s3rver (npm) on 127.0.0.1, its filesystem store in bench/corpus/.s3rver on the same disk as the local corpora; it shares the machine's cores with simgrep.`,
    `- Each row: median of ${REPEATS}; configs alternate run by run so load spikes hit both alike. Peak RSS: ${RSS_METHOD}. Model: ${MODEL}, static embedder, -J 2.`,
    '', 'Reproduce:', '', '```sh', 'npm run build', `node dist/bench/remote.js${quick ? ' --quick' : ''}   # seeds the S3 server once, then writes bench/REMOTE.md`, '```', '',
    `## S3 on loopback vs local disk (target: S3 >= ${TARGET_RATIO * 100}% of local-disk lines/s)`, '',
    '| Corpus | Files | Source | Wall s | Lines/s | MB/s | Peak RSS MB | S3 server CPU s | S3 / local | Target |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const [i, c] of corpora.entries()) {
    const [loc, s3] = results[i].rows;
    const ratio = s3.linesPerSec / loc.linesPerSec;
    for (const r of [loc, s3]) {
      const isS3 = r === s3;
      out.push(`| ${c.name} | ${fmt(c.files)} | ${r.where}${r.error ? ` (**${r.error}**)` : ''} | ${fmt(r.wallS, 2)} | ${fmt(r.linesPerSec)} | ${fmt(r.mbPerSec, 1)} | ${fmt(r.rssMb, 1)} | ${isS3 ? fmt(median(r.serverCpuS), 1) : '-'} | ${isS3 ? `${fmt(ratio * 100)}%` : '-'} | ${isS3 ? (ratio >= TARGET_RATIO ? 'PASS' : 'FAIL') : '-'} |`);
    }
  }
  out.push('', '## What the S3 server alone costs', '',
    'Raw GET floor: every object of the corpus fetched (8 at a time, bodies read and dropped) with no search at all. When it is close to the S3 row\'s wall time, the server is the bottleneck, not simgrep.', '',
    '| Corpus | Objects | Raw GET floor s | Local-disk search s | S3 search s |', '|---|---|---|---|---|');
  for (const [i, c] of corpora.entries()) {
    const [loc, s3] = results[i].rows;
    out.push(`| ${c.name} | ${fmt(c.files)} | ${fmt(results[i].floorS, 2)} | ${fmt(loc.wallS, 2)} | ${fmt(s3.wallS, 2)} |`);
  }
  out.push('', 'Commands (from the repo root; repeats rotate the queries; the S3 rows get AWS_ACCESS_KEY_ID=S3RVER, AWS_SECRET_ACCESS_KEY=S3RVER, AWS_ENDPOINT_URL=<s3rver>):', '', '```sh');
  for (const r of results.flatMap((x) => x.rows)) out.push(r.command);
  out.push('```', '');
  return out.join('\n');
}

async function main(): Promise<void> {
  const started = Date.now();
  const loadStart = os.loadavg();
  if (!existsSync(path.join(REPO_ROOT, CLI))) throw new Error(`${CLI} is missing: run npm run build first`);
  buildBenchModel(path.join(REPO_ROOT, MODEL));
  generateTree({ out: path.join(REPO_ROOT, 'bench/corpus/tree-1m'), lines: 1_000_000 });
  generateBigFile({ out: path.join(REPO_ROOT, 'bench/corpus/big-200m.txt'), bytes: 200 * 1024 * 1024 });
  const corpora: Corpus[] = [['tree-1m', 'bench/corpus/tree-1m'], ['big-200m.txt', 'bench/corpus/big-200m.txt']].map(([name, rel]) => {
    log(`counting ${rel}`);
    return { name, rel, ...countCorpus(path.join(REPO_ROOT, rel)) };
  });
  const dir = path.join(REPO_ROOT, 'bench', 'corpus', '.s3rver');
  const s3 = await startS3(REPO_ROOT, dir);
  const results: { rows: Row[]; floorS: number }[] = [];
  try {
    for (const c of corpora) await seedOnce(s3, dir, path.join(REPO_ROOT, c.rel), statSync(path.join(REPO_ROOT, c.rel)).isDirectory() ? `${c.name}/` : c.name, log);
    for (const c of corpora) results.push(await benchCorpus(s3, c));
  } finally {
    await s3.stop();
  }
  const durationS = (Date.now() - started) / 1000;
  writeFileSync(path.join(REPO_ROOT, 'bench', 'remote-results.json'), JSON.stringify({ date: new Date().toISOString(), quick, repeats: REPEATS, corpora, results }, null, 2) + '\n');
  writeFileSync(path.join(REPO_ROOT, 'bench', 'REMOTE.md'), report(corpora, results, loadStart, durationS));
  for (const [i, c] of corpora.entries()) {
    const [loc, s3row] = results[i].rows;
    log(`${c.name}: local ${fmt(loc.linesPerSec)} lines/s, s3 ${fmt(s3row.linesPerSec)} lines/s (${fmt((s3row.linesPerSec / loc.linesPerSec) * 100)}%)`);
  }
  log(`wrote bench/REMOTE.md in ${Math.round(durationS)} s`);
}

main().catch((e: unknown) => {
  process.stderr.write(`[bench:remote] ${(e as Error)?.stack ?? String(e)}\n`);
  process.exitCode = 2;
});
