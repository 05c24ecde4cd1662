// The workspace index of an object-store tree, end to end: s3rver serves a generated tree, the CLI
// indexes it (into a local directory and into the bucket itself), and indexed searches of the prefix
// print exactly what a scan prints, before and after objects change or go.
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DeleteObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusFiles } from '../../bench/remote-s3.js';
import { generateTree } from '../../bench/corpus.js';
import { runCli, type CliRun } from '../helpers/cli.js';
import { S3RVER_KEYS, s3rverCliEnv, putObject, seedObjects, startS3rver, type S3Server } from '../helpers/s3-server.js';

const BUCKET = 'tree';
const uri = `s3://${BUCKET}/src/`;
const QUERIES: string[][] = [
  ['retry the failed request after a timeout', '--json', '--top-k', '5'],
  ['parse the config file', '--mode', 'semantic', '--top-k', '8', '--jsonl'],
  ['handler', '--mode', 'lexical', '-n', '1'],
];

let s3: S3Server;
let home: string;
let env: Record<string, string>;
let keys: string[];

beforeAll(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'simgrep-remote-index-'));
  s3 = await startS3rver({ buckets: [BUCKET, 'idx'] });
  env = s3rverCliEnv(home, s3.endpoint);
  const tree = path.join(home, 'tree');
  generateTree({ out: tree, lines: 6_000, seed: 11 });
  keys = corpusFiles(tree);
  await seedObjects(s3.endpoint, BUCKET, Object.fromEntries(keys.map((k) => [`src/${k}`, readFileSync(path.join(tree, k))])));
}, 60_000);

afterAll(async () => {
  await s3?.stop();
  await rm(home, { recursive: true, force: true });
});

/** Bumped by every write to the bucket: a scan's answer is kept for the bucket as it was (`scans`). */
let generation = 0;
const scans = new Map<string, CliRun>();

async function deleteObject(key: string): Promise<void> {
  generation++;
  const client = new S3Client({ region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: S3RVER_KEYS });
  try { await client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: key })); } finally { client.destroy(); }
}

async function put(key: string, body: string): Promise<void> {
  generation++;
  await putObject(s3.endpoint, BUCKET, key, body);
}

/** The scan's answer to q of the bucket as it is now: run once per query and state of the bucket. */
async function scanOf(q: string[]): Promise<CliRun> {
  const key = `${generation} ${q.join(' ')}`;
  if (!scans.has(key)) scans.set(key, await runCli([...q, uri, '--no-index'], { env }));
  return scans.get(key)!;
}

/** Every query through the index equals the same query as a scan (and the index was used). */
async function expectSameAsScan(target: string[]): Promise<void> {
  for (const q of QUERIES) {
    const scan = await scanOf(q);
    const indexed = await runCli([...q, uri, ...target, '--stats'], { env });
    expect(scan.code, scan.stderr).toBe(0);
    expect(scan.stdout.length).toBeGreaterThan(50);
    expect({ q: q[0], code: indexed.code, stdout: indexed.stdout }).toEqual({ q: q[0], code: scan.code, stdout: scan.stdout });
    expect(indexed.stderr).toMatch(/from workspace /);
  }
}

describe('workspace index of an s3:// tree', () => {
  it('indexes the prefix, answers as a scan, and a re-run reads nothing', async () => {
    const dir = path.join(home, 'idx-local');
    const built = await runCli(['index', uri, '--index-dir', dir], { env });
    expect(built.code, built.stderr).toBe(0);
    expect(built.stderr).toContain(`${keys.length} files checked, ${keys.length} indexed`);
    await expectSameAsScan(['--index-dir', dir]);
    // prune checks local files only: the objects stay.
    const pruned = await runCli(['workspace', 'prune', '--index-dir', dir], { env });
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.stderr).toContain('removed 0 files that no longer exist');
    const again = await runCli(['index', uri, '--index-dir', dir], { env });
    expect(again.stderr).toContain(`${keys.length} files checked, 0 indexed`);
    expect(again.stderr).toContain(`${keys.length} unchanged, 0 removed`);
  }, 120_000);

  it('a named workspace of the prefix is found by a plain search of it', async () => {
    const built = await runCli(['index', uri, '-w', 'bucket-tree'], { env });
    expect(built.code, built.stderr).toBe(0);
    await expectSameAsScan([]);
    const sub = await runCli(['handler', `${uri}${path.dirname(keys[0])}/`, '--stats'], { env });
    expect(sub.stderr).toContain('from workspace bucket-tree');
  }, 120_000);

  it('an index kept in the bucket itself; changed and deleted objects are seen by the next search and run', async () => {
    const dir = 's3://idx/ws';
    const built = await runCli(['index', uri, '--index-dir', dir], { env });
    expect(built.code, built.stderr).toBe(0);
    await put(`src/${keys[0]}`, 'function retryTheFailedRequestAfterATimeout() {}\n'.repeat(30));
    await deleteObject(`src/${keys[1]}`);
    // The search notices the changed object (listing: size, last-modified) and re-indexes it first.
    await expectSameAsScan(['--index-dir', dir]);
    const rerun = await runCli(['index', uri, '--index-dir', dir], { env });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain(`${keys.length - 1} files checked, 0 indexed`);
    expect(rerun.stderr).toContain('1 removed');
    await expectSameAsScan(['--index-dir', dir]);
  }, 180_000);

  it('a store that cannot be reached: exit 2 with the reason, and nothing already indexed is dropped', async () => {
    const dir = path.join(home, 'idx-local');
    const down = await runCli(['index', uri, '--index-dir', dir], { env: { ...env, AWS_ENDPOINT_URL: 'http://127.0.0.1:9', SIMGREP_REMOTE_RETRIES: '0' } });
    expect(down.code, down.stderr).toBe(2);
    expect(down.stderr).toMatch(/s3:\/\/tree\/src\/: .*(ECONNREFUSED|connect)/);
    expect(down.stderr).toContain('0 removed');
  }, 60_000);
});
