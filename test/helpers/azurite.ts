// A real Azure Blob endpoint for tests: Azurite (npm) on 127.0.0.1, a free port, in memory, with
// telemetry off (it would otherwise try to reach the internet); uploads through @azure/storage-blob to seed it.
// --skipApiVersionCheck: the SDK speaks a newer service version than Azurite 3.35 (the last release
// that runs on Node 20) knows; the requests simgrep sends are the same in both.
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { BlobServiceClient } from '@azure/storage-blob';

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

/** Plain http by default; with a certificate, https and (oauth) bearer tokens, which Azurite takes only over https. */
export async function startAzurite(o: { cert?: string; key?: string; oauth?: boolean } = {}): Promise<Azurite> {
  const main = path.join(path.dirname(createRequire(import.meta.url).resolve('azurite/package.json')), 'dist', 'src', 'blob', 'main.js');
  const tls = o.cert && o.key ? ['--cert', o.cert, '--key', o.key, ...(o.oauth ? ['--oauth', 'basic'] : [])] : [];
  const proc = spawn(process.execPath, [main, '--blobHost', '127.0.0.1', '--blobPort', '0', '--inMemoryPersistence', '--disableTelemetry', '--silent', '--skipApiVersionCheck', ...tls], { stdio: ['ignore', 'pipe', 'pipe'] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    proc.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /listens on https?:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    proc.stderr!.setEncoding('utf8').on('data', (d: string) => { out += d; });
    proc.on('exit', (code) => reject(new Error(`azurite exited (${code}) before listening: ${out}`)));
    setTimeout(() => reject(new Error(`azurite did not start in 30 s: ${out}`)), 30_000).unref();
  });
  const blobEndpoint = `${tls.length ? 'https' : 'http'}://127.0.0.1:${port}/${DEV_ACCOUNT}`;
  return {
    blobEndpoint,
    connectionString: devConnectionString(blobEndpoint),
    proc,
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await exited;
    },
  };
}

export async function seedContainer(blobEndpoint: string, container: string, blobs: Record<string, string | Buffer>, connectionString = devConnectionString(blobEndpoint)): Promise<void> {
  const client = BlobServiceClient.fromConnectionString(connectionString).getContainerClient(container);
  await client.createIfNotExists();
  const queue = Object.entries(blobs);
  await Promise.all(Array.from({ length: 8 }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const body = Buffer.from(next[1]);
      await client.getBlockBlobClient(next[0]).upload(body, body.length);
    }
  }));
}

export function devConnectionString(blobEndpoint: string): string {
  return `DefaultEndpointsProtocol=${new URL(blobEndpoint).protocol.slice(0, -1)};AccountName=${DEV_ACCOUNT};AccountKey=${DEV_KEY};BlobEndpoint=${blobEndpoint};`;
}
