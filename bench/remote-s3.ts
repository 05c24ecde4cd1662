// The bench's S3 side: s3rver (npm) in a child process on 127.0.0.1 over a directory kept between
// runs (bench/corpus/.s3rver), seeding a corpus into it once, the server's own CPU time, and the
// raw GET floor (every object fetched with no search at all: what the server alone costs).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import path from 'node:path';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Sha256 } from '@smithy/core/checksum';
import { SignatureV4 } from '@smithy/signature-v4';

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

/** Seeds one object through the AWS SDK. */
async function put(s3: BenchS3, key: string, body: Buffer): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  client ??= new S3Client({ region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: S3_KEYS, requestChecksumCalculation: 'WHEN_REQUIRED' });
  await client.send(new PutObjectCommand({ Bucket: BENCH_BUCKET, Key: key, Body: body }));
}

const agent = new Agent({ keepAlive: true, maxSockets: 16 });
const signer = new SignatureV4({ credentials: S3_KEYS, region: 'us-east-1', service: 's3', sha256: Sha256, uriEscapePath: false });

/**
 * One GET on bare node:http, signed with @smithy/signature-v4 and nothing else of the SDK: the floor
 * measures the server, not a client. Resolves with the bytes read.
 */
async function rawGet(s3: BenchS3, key: string): Promise<number> {
  const url = new URL(`${s3.endpoint}/${BENCH_BUCKET}/${key.split('/').map(encodeURIComponent).join('/')}`);
  const signed = await signer.sign({ method: 'GET', protocol: 'http:', hostname: url.hostname, port: Number(url.port), path: url.pathname, query: {}, headers: { host: url.host, 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' } });
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: signed.headers, agent }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => { bytes += c.length; });
      res.on('end', () => ((res.statusCode ?? 0) < 300 ? resolve(bytes) : reject(new Error(`GET ${url.pathname}: HTTP ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end();
  });
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
    await put(s3, isDir ? `${prefix}${f}` : prefix, body);
  });
  writeFileSync(marker, stamp);
}

/** Seconds to GET every object of the corpus, 8 at a time, reading and discarding the bodies. */
export async function rawGetFloorS(s3: BenchS3, keys: string[]): Promise<number> {
  const started = performance.now();
  await pool(keys, 8, async (k) => { await rawGet(s3, k); });
  return (performance.now() - started) / 1000;
}
