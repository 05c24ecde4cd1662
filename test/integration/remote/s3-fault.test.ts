// The S3 server dies mid-listing: the objects already read keep their results, the source gets a
// clear error naming the URI, local paths are still searched, the exit code is 2, nothing hangs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { MIRROR, remoteFixture, type RemoteFixture } from '../../helpers/remote-fixture.js';
import { seedObjects, startS3rver, type S3Server } from '../../helpers/s3-server.js';
import { startProxy, type Proxy } from '../../helpers/tcp-proxy.js';
import { makeTree } from '../../helpers/tree.js';

const OBJECTS = 1200;
const READS_BEFORE_DEATH = 200;

let s3: S3Server;
let fx: RemoteFixture;
let local: { dir: string; cleanup: () => Promise<void> };
let proxy: Proxy;

beforeAll(async () => {
  [s3, fx, local] = await Promise.all([startS3rver({ buckets: ['faulty'] }), remoteFixture(), makeTree(MIRROR)]);
  const objects: Record<string, string> = {};
  for (let i = 0; i < OBJECTS; i++) objects[`logs/part-${String(i).padStart(4, '0')}.log`] = `entry ${i} lorem ipsum\n`;
  objects['logs/part-0003.log'] = 'entry lorem\nwe retry the failed upload after a network timeout\n';
  await seedObjects(s3.endpoint, 'faulty', objects);
  // Hold the request for the second listing page until some objects were read, then kill the
  // server (SIGKILL) and cut every connection: from then on, resets and refused connections.
  let reads = 0;
  let enough = () => {};
  const readSome = new Promise<void>((resolve) => { enough = resolve; });
  proxy = await startProxy(Number(new URL(s3.endpoint).port), async (line, p) => {
    if (line.includes('continuation-token=')) {
      await readSome;
      s3.proc.kill('SIGKILL');
      p.cut();
    } else if (!line.includes('list-type=2') && ++reads === READS_BEFORE_DEATH) {
      enough();
    }
  });
}, 120_000);
afterAll(async () => { await Promise.all([proxy?.close(), s3?.stop(), fx?.cleanup(), local?.cleanup()]); });

describe('an S3 server that dies mid-listing', () => {
  it('gives a clear per-source error, keeps the other results, exits 2, and does not hang', async () => {
    const started = Date.now();
    const r = await runCli(['retry failed upload', 's3://faulty/logs/', 'src', '--model', fx.model, '--mode', 'line', '-n', '0', '--top-k', '3', '--jsonl'], {
      cwd: local.dir,
      env: { ...fx.s3Env(proxy.endpoint), SIMGREP_REMOTE_TIMEOUT_MS: '2000', SIMGREP_REMOTE_RETRIES: '2' },
    });
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(r.code).toBe(2);
    expect(r.stdout.trim().split('\n').map((l) => JSON.parse(l).filename).sort()).toEqual(['s3://faulty/logs/part-0003.log', 'src/net.ts']);
    const lines = r.stderr.trim().split('\n');
    // One line for the source, and at most one per object that was being read when the server died.
    const sourceLine = lines.find((l) => l.startsWith('simgrep: s3://faulty/logs/: '));
    expect(sourceLine).toMatch(/^simgrep: s3:\/\/faulty\/logs\/: (listing stopped|stopped) after \d+ objects.*: (cannot connect to http:\/\/127\.0\.0\.1:\d+: connection refused|the connection to http:\/\/127\.0\.0\.1:\d+ was closed by the server)/);
    expect(lines.length).toBeLessThanOrEqual(1 + 16);
    for (const l of lines) expect(l).toMatch(/^simgrep: s3:\/\/faulty\/logs\/(part-\d{4}\.log)?: /);
  });
});
