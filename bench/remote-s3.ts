// The bench's S3 side: s3rver (npm) in a child process on 127.0.0.1 over a directory kept between
// runs (bench/corpus/.s3rver), seeding a corpus into it once, the server's own CPU time, and the
// raw GET floor (every object fetched with no search at all: what the server alone costs).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

export const S3_KEYS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
export const BENCH_BUCKET = 'simgrep-bench';

export interface BenchS3 { endpoint: string; proc: ChildProcess; cpuS(): number; stop(): Promise<void> }

export async function startS3(repoRoot: string, dir: string): Promise<BenchS3> {
  mkdirSync(dir, { recursive: true });
  const main = path.join(repoRoot, 'test', 'helpers', 's3rver-main.cjs');
  const proc = spawn(process.execPath, ['--openssl-legacy-provider', main, dir, BENCH_BUCKET], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    proc.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /\{"port":(\d+)\}/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    proc.on('exit', (code) => reject(new Error(`s3rver exited (${code})`)));
  });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    proc,
    cpuS: () => procCpuS(proc.pid!),
    async stop() {
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await exited;
    },
  };
}

/** user + system CPU seconds of a process so far, from /proc (0 where /proc is absent). */
function procCpuS(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** Files of a corpus (a file or a tree, hidden entries skipped as the CLI does), relative, sorted. */
export function corpusFiles(abs: string, rel = ''): string[] {
  if (!statSync(abs).isDirectory()) return [rel || path.basename(abs)];
  const out: string[] = [];
  for (const name of readdirSync(abs).sort()) {
    if (name.startsWith('.')) continue;
    out.push(...corpusFiles(path.join(abs, name), rel ? `${rel}/${name}` : name));
  }
  return out;
}

let client: S3Client | null = null;

/** One signed PUT or GET through the AWS SDK (the client simgrep itself uses); resolves with the bytes read. */
async function send(s3: BenchS3, method: 'PUT' | 'GET', key: string, body?: Buffer): Promise<number> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  client ??= new S3Client({ region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: S3_KEYS, requestChecksumCalculation: 'WHEN_REQUIRED' });
  if (method === 'PUT') {
    await client.send(new PutObjectCommand({ Bucket: BENCH_BUCKET, Key: key, Body: body }));
    return 0;
  }
  const out = await client.send(new GetObjectCommand({ Bucket: BENCH_BUCKET, Key: key }));
  return (await out.Body!.transformToByteArray()).length;
}

async function pool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < items.length) await work(items[next++]);
  }));
}

/** Uploads a tree under `prefix` (ending with '/'), or a file as the key `prefix`, once; a marker remembers it. */
export async function seedOnce(s3: BenchS3, dir: string, localAbs: string, prefix: string, log: (m: string) => void): Promise<void> {
  const files = corpusFiles(localAbs);
  const isDir = statSync(localAbs).isDirectory();
  const fileAbs = (f: string) => (isDir ? path.join(localAbs, f) : localAbs);
  const marker = path.join(dir, `seeded-${prefix.replace(/\W+/g, '_')}.json`);
  const stamp = JSON.stringify({ files: files.length, bytes: files.reduce((n, f) => n + statSync(fileAbs(f)).size, 0) });
  if (existsSync(marker) && readFileSync(marker, 'utf8') === stamp) return;
  log(`seeding ${files.length} objects under s3://${BENCH_BUCKET}/${prefix}`);
  await pool(files, 16, async (f) => {
    const body = readFileSync(fileAbs(f));
    await send(s3, 'PUT', isDir ? `${prefix}${f}` : prefix, body);
  });
  writeFileSync(marker, stamp);
}

/** Seconds to GET every object of the corpus, 8 at a time, reading and discarding the bodies. */
export async function rawGetFloorS(s3: BenchS3, keys: string[]): Promise<number> {
  const started = performance.now();
  await pool(keys, 8, async (k) => { await send(s3, 'GET', k); });
  return (performance.now() - started) / 1000;
}
