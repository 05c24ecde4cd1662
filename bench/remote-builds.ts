// Two builds of simgrep, side by side, on the S3 case the product lives on: 2,000 small objects in
// s3rver on loopback, the builds alternated round by round; medians of wall time and client CPU.
// npm run build && node dist/bench/remote-builds.js OTHER_REPO_DIR [ROUNDS]   (OTHER_REPO_DIR built too)
import path from 'node:path';
import { buildBenchModel, REPO_ROOT } from './bench-model.js';
import { generateTree } from './corpus.js';
import { measure, median } from './measure.js';
import { BENCH_BUCKET, S3_KEYS, seedOnce, startS3 } from './remote-s3.js';

const [other, roundsArg] = process.argv.slice(2);
if (!other) throw new Error('usage: node dist/bench/remote-builds.js OTHER_REPO_DIR [ROUNDS]');
const rounds = Number(roundsArg ?? 5);
const log = (m: string): void => { process.stderr.write(`[bench:remote-builds] ${m}\n`); };

async function main(): Promise<void> {
  const model = buildBenchModel(path.join(REPO_ROOT, 'bench/.tmp/potion-8m-shape'));
  const corpus = path.join(REPO_ROOT, 'bench/corpus/tree-2k');
  const stats = generateTree({ out: corpus, lines: 221_000 });
  const dir = path.join(REPO_ROOT, 'bench/corpus/.s3rver');
  const s3 = await startS3(REPO_ROOT, dir);
  const builds = [['this', REPO_ROOT], ['other', path.resolve(other)]] as const;
  const got = new Map<string, { wallS: number; cpuS: number; serverCpuS: number; out: string }[]>(builds.map(([name]) => [name, []]));
  try {
    await seedOnce(s3, dir, corpus, 'tree-2k/', log);
    const env = { ...process.env, AWS_ACCESS_KEY_ID: S3_KEYS.accessKeyId, AWS_SECRET_ACCESS_KEY: S3_KEYS.secretAccessKey, AWS_ENDPOINT_URL: s3.endpoint, AWS_PROFILE: '', AWS_REGION: 'us-east-1' };
    for (let round = 0; round < rounds; round++) {
      for (const [name, root] of round % 2 ? [...builds].reverse() : builds) {
        const cpu0 = s3.cpuS();
        const r = await measure(process.execPath, [path.join(root, 'dist/src/cli/main.js'), 'where do we retry failed uploads', `s3://${BENCH_BUCKET}/tree-2k/`, '--model', model, '--embedder', 'static', '-J', '2'], { cwd: root, timeoutMs: 10 * 60_000, env });
        if (r.exitCode !== 0) throw new Error(`${name} exited ${r.exitCode}: ${r.stderrTail}`);
        const row = { wallS: r.wallMs / 1000, cpuS: r.cpuS, serverCpuS: s3.cpuS() - cpu0, out: String(r.stdoutBytes) };
        got.get(name)!.push(row);
        log(`round ${round + 1} ${name}: wall ${row.wallS.toFixed(2)} s, client CPU ${row.cpuS.toFixed(2)} s, server CPU ${row.serverCpuS.toFixed(2)} s`);
      }
    }
  } finally {
    await s3.stop();
  }
  process.stdout.write(`${stats.files} objects, ${stats.lines} lines; medians of ${rounds}:\n`);
  for (const [name, root] of builds) {
    const rows = got.get(name)!;
    process.stdout.write(`${name} (${root}): wall ${median(rows.map((x) => x.wallS)).toFixed(2)} s, client CPU ${median(rows.map((x) => x.cpuS)).toFixed(2)} s, server CPU ${median(rows.map((x) => x.serverCpuS)).toFixed(2)} s, stdout bytes ${[...new Set(rows.map((x) => x.out))].join('/')}\n`);
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`[bench:remote-builds] ${(e as Error)?.stack ?? String(e)}\n`);
  process.exitCode = 2;
});
