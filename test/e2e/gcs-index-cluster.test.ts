// gs:// roots in the workspace index and on a cluster, end to end with the built CLI: a generated tree
// served by the loopback fake of the Cloud Storage JSON API (no real GCS server runs here), credentials
// through Application Default Credentials (a federation file traded at the fake's STS), a real
// redis-server and `simgrep worker` processes. Indexed and clustered answers must be the scan's.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusFiles } from '../../bench/remote-s3.js';
import { generateTree } from '../../bench/corpus.js';
import { runCli, type CliRun } from '../helpers/cli.js';
import { startWorker, type WorkerProcess } from '../helpers/cluster.js';
import { startFakeGcs, SUBJECTS, type FakeGcs } from '../helpers/gcs-server.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';

const uri = 'gs://tree/src/';
const QUERIES: string[][] = [
  ['retry the failed request after a timeout', '--json', '--top-k', '5'],
  ['parse the config file', '--mode', 'semantic', '--top-k', '8', '--jsonl'],
];

let gcs: FakeGcs;
/** A second store with the same objects: the coordinator's endpoint in the cluster test. */
let other: FakeGcs;
let redis: RedisServer;
let home: string;
let env: Record<string, string>;
let keys: string[];
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'simgrep-gcs-index-'));
  [gcs, other, redis] = await Promise.all([startFakeGcs(), startFakeGcs(), startRedis()]);
  const tree = path.join(home, 'tree');
  generateTree({ out: tree, lines: 3_000, seed: 13 });
  keys = corpusFiles(tree);
  for (const k of keys) for (const fake of [gcs, other]) fake.put('tree', `src/${k}`, readFileSync(path.join(tree, k)));
  await writeFile(path.join(home, 'subject'), SUBJECTS.reader);
  await writeFile(path.join(home, 'adc.json'), JSON.stringify(gcs.federationConfig(path.join(home, 'subject'))));
  env = {
    HOME: home, SIMGREP_HOME: path.join(home, 'home'), SIMGREP_CACHE_DIR: path.join(home, 'cache'),
    GOOGLE_APPLICATION_CREDENTIALS: path.join(home, 'adc.json'), STORAGE_EMULATOR_HOST: '', GCE_METADATA_HOST: '', METADATA_SERVER_DETECTION: 'none',
    SIMGREP_REMOTE_TIMEOUT_MS: '30000', SIMGREP_REMOTE_RETRIES: '1',
  };
}, 60_000);

afterAll(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop('SIGKILL')));
  await Promise.all([gcs?.stop(), other?.stop(), redis?.stop()]);
  await rm(home, { recursive: true, force: true });
});

const at = (fake: FakeGcs) => ['--gcs-endpoint', fake.origin];

/** Bumped by every write to the stores: a scan's answer is kept for the objects as they were (`scans`). */
let generation = 0;
const scans = new Map<string, CliRun>();

/** The scan's answer to q of the objects as they are now: run once per query and state of the store. */
async function scanOf(q: string[]): Promise<CliRun> {
  const key = `${generation} ${q.join(' ')}`;
  if (!scans.has(key)) scans.set(key, await runCli([...q, uri, ...at(gcs), '--no-index'], { env }));
  return scans.get(key)!;
}

/** Every query through the index equals the same query as a scan (and the index answered). */
async function expectSameAsScan(dir: string): Promise<void> {
  for (const q of QUERIES) {
    const scan = await scanOf(q);
    const indexed = await runCli([...q, uri, ...at(gcs), '--index-dir', dir, '--stats'], { env });
    expect(scan.code, scan.stderr).toBe(0);
    expect(scan.stdout.length).toBeGreaterThan(50);
    expect({ q: q[0], code: indexed.code, stdout: indexed.stdout }).toEqual({ q: q[0], code: scan.code, stdout: scan.stdout });
    expect(indexed.stderr).toMatch(/from workspace /);
  }
}

describe('gs:// roots', () => {
  it('the workspace index of a gs:// prefix answers as a scan; changed and deleted objects are seen by the next search and run', async () => {
    const dir = path.join(home, 'idx');
    const built = await runCli(['index', uri, ...at(gcs), '--index-dir', dir], { env });
    expect(built.code, built.stderr).toBe(0);
    expect(built.stderr).toContain(`${keys.length} files checked, ${keys.length} indexed`);
    await expectSameAsScan(dir);
    const again = await runCli(['index', uri, ...at(gcs), '--index-dir', dir], { env });
    expect(again.stderr).toContain(`${keys.length} files checked, 0 indexed`);
    // The listing's size and updated time are the objects' identity.
    generation++;
    for (const fake of [gcs, other]) {
      fake.put('tree', `src/${keys[0]}`, 'function retryTheFailedRequestAfterATimeout() {}\n'.repeat(30));
      fake.buckets.get('tree')!.delete(`src/${keys[1]}`);
    }
    // A one-shot search re-reads the few changed bytes for its own answer and saves nothing; the run saves them.
    await expectSameAsScan(dir);
    const rerun = await runCli(['index', uri, ...at(gcs), '--index-dir', dir], { env });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain(`${keys.length - 1} files checked, 1 indexed`);
    expect(rerun.stderr).toContain(`${keys.length - 2} unchanged, 1 removed`);
    await expectSameAsScan(dir);
  }, 180_000);

  it('a cluster search of a gs:// prefix answers as one machine; workers read with their own endpoint, never the job\'s', async () => {
    for (let i = 0; i < 2; i++) workers.push(await startWorker(redis.url, { allow: [home, 'gs://tree/'], env, args: at(gcs) }));
    for (const q of QUERIES) {
      const one = await runCli([...q, uri, ...at(gcs)], { env });
      const before = { gcs: gcs.requests.length, other: other.requests.length };
      // The coordinator lists from the other store; the workers read each object from theirs.
      const spread = await runCli([...q, uri, ...at(other), '--cluster', redis.url, '--shard-size', '8K'], { env });
      expect({ q: q[0], code: spread.code, stdout: spread.stdout }).toEqual({ q: q[0], code: one.code, stdout: one.stdout });
      const reads = (r: string[]) => r.filter((l) => l.includes('alt=media')).length;
      expect({ coordinatorStoreReads: reads(other.requests.slice(before.other)), workerStoreReads: reads(gcs.requests.slice(before.gcs)) > 0 })
        .toEqual({ coordinatorStoreReads: 0, workerStoreReads: true });
    }
    for (const w of workers) expect(w.log()).toMatch(/shard [0-9a-f]+\/\d+: \d+ files/);
  }, 180_000);

  it('a workspace index of a gs:// prefix built on the cluster answers as a scan', async () => {
    if (workers.length === 0) workers.push(await startWorker(redis.url, { allow: [home, 'gs://tree/'], env, args: at(gcs) }));
    const dir = path.join(home, 'idx-cluster');
    const built = await runCli(['index', uri, ...at(gcs), '--index-dir', dir, '--cluster', redis.url, '--shard-size', '32K'], { env });
    expect(built.code, built.stderr).toBe(0);
    await expectSameAsScan(dir);
  }, 180_000);
});
