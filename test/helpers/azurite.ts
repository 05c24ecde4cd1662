// A real Azure Blob endpoint for tests: Azurite (npm) on 127.0.0.1, a free port, in memory, with
// telemetry off (it would otherwise try to reach the internet); Shared Key signed PUTs to seed it.
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { signSharedKey } from '../../src/sources/remote/azure-auth.js';
import { encodeRfc3986 } from '../../src/sources/remote/sigv4.js';

/** Azurite's published development account. */
export const DEV_ACCOUNT = 'devstoreaccount1';
export const DEV_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

export interface Azurite {
  /** Blob endpoint, ending with the account: http://127.0.0.1:PORT/devstoreaccount1 */
  blobEndpoint: string;
  connectionString: string;
  proc: ChildProcess;
  stop(): Promise<void>;
}

export async function startAzurite(): Promise<Azurite> {
  const main = path.join(path.dirname(createRequire(import.meta.url).resolve('azurite/package.json')), 'dist', 'src', 'blob', 'main.js');
  const proc = spawn(process.execPath, [main, '--blobHost', '127.0.0.1', '--blobPort', '0', '--inMemoryPersistence', '--disableTelemetry', '--silent'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    proc.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /listens on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    proc.stderr!.setEncoding('utf8').on('data', (d: string) => { out += d; });
    proc.on('exit', (code) => reject(new Error(`azurite exited (${code}) before listening: ${out}`)));
    setTimeout(() => reject(new Error(`azurite did not start in 30 s: ${out}`)), 30_000).unref();
  });
  const blobEndpoint = `http://127.0.0.1:${port}/${DEV_ACCOUNT}`;
  return {
    blobEndpoint,
    connectionString: `DefaultEndpointsProtocol=http;AccountName=${DEV_ACCOUNT};AccountKey=${DEV_KEY};BlobEndpoint=${blobEndpoint};`,
    proc,
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await exited;
    },
  };
}

function put(url: URL, headers: Record<string, string>, body: Buffer): Promise<void> {
  const all = { ...headers, 'content-length': String(body.length) };
  const signed = { ...all, ...signSharedKey({ method: 'PUT', url, headers: all }, DEV_ACCOUNT, DEV_KEY) };
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'PUT', headers: signed }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d) => { text += d; });
      res.on('end', () => ((res.statusCode ?? 0) < 300 ? resolve() : reject(new Error(`PUT ${url.pathname}: HTTP ${res.statusCode} ${text}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

export async function seedContainer(blobEndpoint: string, container: string, blobs: Record<string, string | Buffer>): Promise<void> {
  await put(new URL(`${blobEndpoint}/${container}?restype=container`), {}, Buffer.alloc(0));
  const queue = Object.entries(blobs);
  await Promise.all(Array.from({ length: 8 }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      await put(new URL(`${blobEndpoint}/${container}/${encodeRfc3986(next[0], true)}`), { 'x-ms-blob-type': 'BlockBlob' }, Buffer.from(next[1]));
    }
  }));
}
