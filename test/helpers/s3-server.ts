// A real S3-compatible server for tests: s3rver in a child process on 127.0.0.1 (a free port), with
// PUTs through the AWS SDK to seed it (streamed bodies, so a 200 MB object never sits in memory).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

/** s3rver's built-in account. */
export const S3RVER_KEYS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface S3Server {
  endpoint: string;
  dir: string;
  proc: ChildProcess;
  /** Stops the server (SIGTERM) and removes its directory unless keepDir. */
  stop(o?: { keepDir?: boolean }): Promise<void>;
}

const MAIN = path.join(path.dirname(fileURLToPath(import.meta.url)), 's3rver-main.cjs');

/** Starts s3rver on a free port; `dir` may be shared with another instance to serve the same objects. */
export async function startS3rver(o: { dir?: string; buckets?: string[] } = {}): Promise<S3Server> {
  const dir = o.dir ?? await mkdtemp(path.join(tmpdir(), 'simgrep-s3-'));
  const proc = spawn(process.execPath, ['--openssl-legacy-provider', MAIN, dir, (o.buckets ?? []).join(',')], { stdio: ['ignore', 'pipe', 'pipe'] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    let err = '';
    proc.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /\{"port":(\d+)\}/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    proc.stderr!.setEncoding('utf8').on('data', (d: string) => { err += d; });
    proc.on('exit', (code) => reject(new Error(`s3rver exited (${code}) before listening: ${err}`)));
    setTimeout(() => reject(new Error(`s3rver did not start in 20 s: ${err}`)), 20_000).unref();
  });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    dir,
    proc,
    async stop({ keepDir = false } = {}) {
      if (proc.exitCode === null && proc.signalCode === null) {
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        await exited;
      }
      if (!keepDir && !o.dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

const clients = new Map<string, S3Client>();

/** PUTs one object; `body` may be a stream of exactly `size` bytes. */
export async function putObject(endpoint: string, bucket: string, key: string, body: Buffer | string | Readable, size?: number): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  let client = clients.get(endpoint);
  if (!client) clients.set(endpoint, client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: S3RVER_KEYS, requestChecksumCalculation: 'WHEN_REQUIRED' }));
  await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentLength: body instanceof Readable ? size : undefined }));
}

/** PUTs many small objects, a few at a time. */
export async function seedObjects(endpoint: string, bucket: string, objects: Record<string, string | Buffer>, concurrency = 16): Promise<void> {
  const queue = Object.entries(objects);
  await Promise.all(Array.from({ length: concurrency }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await putObject(endpoint, bucket, next[0], next[1]);
  }));
}

/**
 * The environment for a CLI that indexes or reads s3rver: its keys and endpoint, no credentials or
 * config files of the host, and no empty AWS_* values (LanceDB's object store reads them too, and an
 * empty endpoint is not a URL).
 */
export function s3rverCliEnv(home: string, endpoint: string): Record<string, string> {
  return {
    HOME: home, SIMGREP_HOME: path.join(home, 'home'), SIMGREP_CACHE_DIR: path.join(home, 'cache'),
    AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: S3RVER_KEYS.accessKeyId, AWS_SECRET_ACCESS_KEY: S3RVER_KEYS.secretAccessKey,
    AWS_ENDPOINT_URL: endpoint, AWS_SHARED_CREDENTIALS_FILE: path.join(home, 'none'), AWS_CONFIG_FILE: path.join(home, 'none'),
    SIMGREP_REMOTE_TIMEOUT_MS: '60000', SIMGREP_REMOTE_RETRIES: '1',
  };
}
