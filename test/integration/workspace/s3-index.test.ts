// A workspace index kept in an S3-compatible bucket (a team shares one index): built and searched
// through the real CLI against s3rver on loopback, answering exactly as a scan does.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { S3RVER_KEYS, startS3rver, type S3Server } from '../../helpers/s3-server.js';

let server: S3Server;
let tmp = '';
let tree = '';
let env: Record<string, string> = {};

beforeAll(async () => {
  server = await startS3rver({ buckets: ['team-index'] });
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-s3idx-'));
  tree = path.join(tmp, 'tree');
  mkdirSync(path.join(tree, 'net'), { recursive: true });
  writeFileSync(path.join(tree, 'net', 'upload.ts'), 'export async function uploadWithRetry(file) {\n  for (let attempt = 0; attempt < 3; attempt++) {\n    try { return await put(file); } catch { await sleep(2 ** attempt * 100); }\n  }\n}\n');
  writeFileSync(path.join(tree, 'notes.md'), '# Billing\n\nInvoices are reconciled nightly against the ledger.\n');
  env = {
    SIMGREP_HOME: path.join(tmp, 'home'), SIMGREP_CACHE_DIR: path.join(tmp, 'cache'),
    AWS_ACCESS_KEY_ID: S3RVER_KEYS.accessKeyId, AWS_SECRET_ACCESS_KEY: S3RVER_KEYS.secretAccessKey, AWS_REGION: 'us-east-1',
  };
});
afterAll(async () => {
  await server?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

describe('--index-dir s3://', () => {
  it('builds the index in the bucket and answers from it exactly as a scan', async () => {
    const dir = 's3://team-index/simgrep/src';
    const built = await runCli(['index', tree, '--index-dir', dir, '--s3-endpoint', server.endpoint], { env });
    expect(built.code, built.stderr).toBe(0);
    expect(built.stderr).toContain('2 files checked, 2 indexed');
    for (const query of ['retry the upload with backoff', 'reconcile invoices']) {
      const indexed = await runCli([query, tree, '--index-dir', dir, '--s3-endpoint', server.endpoint, '--json', '--stats'], { env });
      const scanned = await runCli([query, tree, '--no-index', '--json'], { env });
      expect(indexed.code, indexed.stderr).toBe(0);
      expect(indexed.stdout).toBe(scanned.stdout);
      expect(indexed.stderr).toContain('from workspace src');
    }
    const status = await runCli(['workspace', 'status', '--index-dir', dir, '--s3-endpoint', server.endpoint, '--json'], { env });
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ files: 2, sizeOnDisk: null });
  });
});
