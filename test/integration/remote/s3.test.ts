// s3:// against a real S3 server (s3rver on 127.0.0.1): prefix-scoped paginated listing, the walk
// filters, mixed local and remote paths, the same answer as from disk, credentials and clear errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import path from 'node:path';
import { createStorage } from 'unstorage';
import memoryDriver from 'unstorage/drivers/memory';
import { createSearcher, createStorageSource, s3Driver } from '../../../src/index.js';
import { createRemoteSources } from '../../../src/sources/remote/index.js';
import type { WalkFilters } from '../../../src/sources/filters.js';
import { runCli } from '../../helpers/cli.js';
import { BUCKET, MIRROR, NEEDLE_KEY, NEEDLE_LINE, PREFIX_TEXT_OBJECTS, remoteFixture, s3Corpus, type RemoteFixture } from '../../helpers/remote-fixture.js';
import { S3RVER_KEYS, seedObjects, startS3rver, type S3Server } from '../../helpers/s3-server.js';
import { startProxy } from '../../helpers/tcp-proxy.js';
import { makeTree } from '../../helpers/tree.js';
import { listenLocal } from '../../helpers/http-server.js';

let s3: S3Server;
let fx: RemoteFixture;
let local: { dir: string; cleanup: () => Promise<void> };
let web: Server;
let webUrl = '';
let env: Record<string, string>;

beforeAll(async () => {
  [s3, fx, local] = await Promise.all([startS3rver({ buckets: [BUCKET] }), remoteFixture(), makeTree(MIRROR)]);
  env = fx.s3Env(s3.endpoint);
  // In-process searches resolve credentials through the AWS SDK's chain, which reads process.env.
  Object.assign(process.env, env);
  await seedObjects(s3.endpoint, BUCKET, s3Corpus(MIRROR));
  ({ server: web, origin: webUrl } = await listenLocal((req, res) => {
    if (req.url === '/notes.md') res.end('# Notes\nthe database index query is slow\n');
    else { res.statusCode = 404; res.end('not found'); }
  }));
}, 120_000);
afterAll(async () => {
  await Promise.all([s3?.stop(), fx?.cleanup(), local?.cleanup(), new Promise((r) => web?.close(r))]);
});

const cli = (args: string[], extraEnv: Record<string, string> = {}) =>
  runCli([...args, '--model', fx.model, '--mode', 'line'], { cwd: local.dir, env: { ...env, ...extraEnv } });

async function list(uri: string, filters: WalkFilters = {}) {
  const [source] = createRemoteSources([uri], { ...filters, remote: { env } });
  const paths: string[] = [];
  for await (const e of source.list()) paths.push(e.path);
  return { paths, warnings: source.drainWarnings!().map((w) => w.code) };
}

describe('s3:// listing', () => {
  it('searches every object under the prefix across listing pages, and asks for nothing outside it', async () => {
    const proxy = await startProxy(Number(new URL(s3.endpoint).port));
    const searcher = createSearcher({ model: fx.model, concurrency: 1 });
    try {
      const r = await searcher.search({
        query: 'retry failed upload network timeout', paths: [`s3://${BUCKET}/logs/2026/`], topK: 1, nLines: 0, mode: 'line',
        remote: { env, s3Endpoint: proxy.endpoint },
      });
      expect(r.results.map((x) => [x.filename, x.match_line, x.lines])).toEqual([[`s3://${BUCKET}/${NEEDLE_KEY}`, 1, [NEEDLE_LINE]]]);
      expect(r.warnings).toEqual([]);
      expect(r.stats).toMatchObject({ files: PREFIX_TEXT_OBJECTS, binary: 1, errors: 0 });
      const lists = proxy.requests.filter((l) => l.includes('list-type=2'));
      expect(lists).toHaveLength(2);
      expect(lists.every((l) => l.startsWith(`GET /${BUCKET}/?`) && l.includes('prefix=logs%2F2026%2F'))).toBe(true);
      const reads = proxy.requests.filter((l) => !l.includes('list-type=2'));
      expect(reads).toHaveLength(PREFIX_TEXT_OBJECTS + 1);
      expect(reads.every((l) => l.startsWith(`GET /${BUCKET}/logs/2026/`))).toBe(true);
    } finally {
      await searcher.close();
      await proxy.close();
    }
  });

  it('applies the walk filters: hidden, --ext, --max-filesize, --no-recursive', async () => {
    const misc = `s3://${BUCKET}/logs/2026/misc/`;
    expect(await list(misc)).toEqual({ paths: [`${misc}blob.bin`, `${misc}latin1.txt`], warnings: [] });
    expect((await list(misc, { hidden: true })).paths).toEqual([`${misc}.hidden.md`, `${misc}blob.bin`, `${misc}latin1.txt`]);
    expect((await list(misc, { extensions: ['.TXT'] })).paths).toEqual([`${misc}latin1.txt`]);
    expect(await list(misc, { maxFileBytes: 10 })).toEqual({ paths: [], warnings: ['TOO_LARGE', 'TOO_LARGE'] });
    expect((await list(`s3://${BUCKET}/logs/`, { recursive: false })).paths).toEqual([`s3://${BUCKET}/logs/2026.txt`]);
  });

  it('applies -g/--glob to the key below the given prefix, as to a path below a local root, and -T/--type-not', async () => {
    const m = `s3://${BUCKET}/mirror/`;
    expect((await list(m, { globs: ['src/*', '!*.py'] })).paths).toEqual([`${m}src/net.ts`]);
    expect((await list(m, { globs: ['!src/', '!ui/**'] })).paths).toEqual([`${m}db/schema.sql`]);
    expect((await list(m, { typesNot: ['py', 'sql', 'md'] })).paths).toEqual([`${m}src/net.ts`]);
    expect((await list(`${m}src`, { globs: ['/*.ts'] })).paths).toEqual([`${m}src/net.ts`]);
  });

  it('reads s3://bucket/key as one object, and s3://bucket/dir (no slash) as a prefix', async () => {
    expect((await list(`s3://${BUCKET}/logs/2026.txt`, { extensions: ['.md'] })).paths).toEqual([`s3://${BUCKET}/logs/2026.txt`]);
    expect((await list(`s3://${BUCKET}/mirror/src`)).paths).toEqual([`s3://${BUCKET}/mirror/src/net.ts`, `s3://${BUCKET}/mirror/src/parse.py`]);
    expect(await list(`s3://${BUCKET}/nothing/here/`)).toEqual({ paths: [], warnings: ['PATH_NOT_FOUND'] });
  });
});

describe('simgrep with s3:// paths', () => {
  it('searches S3, a local directory and an https file in one run, naming remote files by URI', async () => {
    const r = await cli(['retry failed upload', `s3://${BUCKET}/logs/2026/`, 'src', `${webUrl}/notes.md`, '--jsonl', '-n', '0', '--top-k', '50', '-m', '0.5']);
    expect(r.stderr).toBe('');
    const files = r.stdout.trim().split('\n').map((l) => JSON.parse(l).filename as string);
    expect(files.sort()).toEqual([`s3://${BUCKET}/${NEEDLE_KEY}`, 'src/net.ts']);
    const db = await cli(['database index query', `s3://${BUCKET}/logs/2026/`, 'db', `${webUrl}/notes.md`, '--jsonl', '-n', '0', '-m', '0.2']);
    expect(db.stdout.trim().split('\n').map((l) => JSON.parse(l).filename).sort()).toEqual(['db/schema.sql', `${webUrl}/notes.md`]);
    expect(db.code).toBe(0);
  });

  it('prints the same results from S3 as from the same files on disk', async () => {
    for (const query of ['retry failed upload', 'parse json config', 'render the button']) {
      const [disk, remote] = await Promise.all([
        cli([query, '.', '--json', '--top-k', '5', '-n', '1']),
        cli([query, `s3://${BUCKET}/mirror/`, '--json', '--top-k', '5', '-n', '1']),
      ]);
      expect({ code: remote.code, stderr: remote.stderr }).toEqual({ code: 0, stderr: '' });
      expect(remote.stdout.replaceAll(`s3://${BUCKET}/mirror/`, './')).toBe(disk.stdout);
      expect(JSON.parse(disk.stdout).results.length).toBeGreaterThan(0);
    }
  });

  it('skips a binary object and decodes non-UTF-8 bytes lossily', async () => {
    const r = await cli(['parse json config file database query', `s3://${BUCKET}/logs/2026/misc/`, '--jsonl', '-n', '1', '--top-k', '5']);
    const results = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(results.map((x) => [x.filename, x.content])).toEqual([[`s3://${BUCKET}/logs/2026/misc/latin1.txt`, 'caf\uFFFD lorem\nparse the json config file']]);
    expect(r.code).toBe(0);
  });

  it('reports a missing bucket and an unsupported scheme per source, searches the rest, exits 2', async () => {
    const r = await cli(['retry failed upload', 'src', `s3://no-such-bucket/x/`, 'ftp://example.com/file.txt', `s3://${BUCKET}/mirror/ui/page.md`, '-n', '0', '--top-k', '9', '--jsonl']);
    expect(r.stderr).toBe([
      `simgrep: s3://no-such-bucket/x/: bucket "no-such-bucket" does not exist at ${s3.endpoint} (NoSuchBucket); check the bucket name and the endpoint (--s3-endpoint, AWS_ENDPOINT_URL)`,
      'simgrep: ftp://example.com/file.txt: simgrep cannot read ftp:// sources; it reads local paths and s3://, https://, http://, az://, gs:// URIs (copy the files locally or to one of those stores)',
      '',
    ].join('\n'));
    const files = new Set(r.stdout.trim().split('\n').map((l) => JSON.parse(l).filename));
    expect([...files].sort()).toEqual([`s3://${BUCKET}/mirror/ui/page.md`, 'src/net.ts', 'src/parse.py']);
    expect(r.code).toBe(2);
  });
});

describe('S3 credentials', () => {
  const SECRET = 'sekrit-Value-that-must-never-print';

  it('names an unknown access key clearly and never prints the secret', async () => {
    const r = await cli(['retry', 'src', `s3://${BUCKET}/mirror/`, '-n', '0'], { AWS_ACCESS_KEY_ID: 'AKIAWRONG', AWS_SECRET_ACCESS_KEY: SECRET });
    expect(r.stderr).toBe(`simgrep: s3://${BUCKET}/mirror/: the store does not know this access key (InvalidAccessKeyId), credentials from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY; check AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN for temporary keys)\n`);
    expect(r.stdout).toMatch(/^src\/net\.ts/);
    expect(r.stdout + r.stderr).not.toContain(SECRET);
    expect(r.code).toBe(2);
  });

  it('says where to put credentials when there are none', async () => {
    const r = await cli(['retry', `s3://${BUCKET}/mirror/`], { AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '' });
    expect(r.stderr).toBe(`simgrep: s3://${BUCKET}/mirror/: no AWS credentials found (tried AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, profile "default" in ~/.aws/credentials or ~/.aws/config, web identity, container and EC2 instance credentials): set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE naming a profile in ~/.aws/credentials or ~/.aws/config\n`);
    expect(r.code).toBe(2);
  });

  it('reads a named profile from ~/.aws/credentials (AWS_PROFILE) and the endpoint from --s3-endpoint', async () => {
    await mkdir(path.join(fx.home, '.aws'), { recursive: true });
    await writeFile(path.join(fx.home, '.aws', 'credentials'), `[default]\naws_access_key_id = AKIAWRONG\naws_secret_access_key = ${SECRET}\n\n[dev]\naws_access_key_id = ${S3RVER_KEYS.accessKeyId}\naws_secret_access_key = ${S3RVER_KEYS.secretAccessKey}\n`);
    const noEnvKeys = { AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '', AWS_ENDPOINT_URL: '' };
    const ok = await cli(['retry failed upload', `s3://${BUCKET}/mirror/src/`, '--s3-endpoint', s3.endpoint, '-n', '0', '--top-k', '1'], { ...noEnvKeys, AWS_PROFILE: 'dev' });
    expect([ok.stderr, ok.code]).toEqual(['', 0]);
    expect(ok.stdout).toMatch(new RegExp(`^s3://${BUCKET}/mirror/src/net\\.ts:1::2 `));
    const ghost = await cli(['retry', `s3://${BUCKET}/mirror/`, '--s3-endpoint', s3.endpoint], { ...noEnvKeys, AWS_PROFILE: 'ghost' });
    expect(ghost.stderr).toBe(`simgrep: s3://${BUCKET}/mirror/: AWS_PROFILE=ghost but there is no such profile in ~/.aws/credentials or ~/.aws/config; add it, or fix AWS_PROFILE\n`);
    const wrong = await cli(['retry', `s3://${BUCKET}/mirror/`, '--s3-endpoint', s3.endpoint], noEnvKeys);
    expect(wrong.stderr).toContain('(InvalidAccessKeyId), credentials from profile "default" in ~/.aws/credentials or ~/.aws/config; check aws_access_key_id');
    expect(wrong.stdout + wrong.stderr).not.toContain(SECRET);
  });
});

describe('unstorage Storage instances from the library', () => {
  it('searches a caller\'s own storage (any driver) through the fallback', async () => {
    const storage = createStorage({ driver: memoryDriver() });
    await storage.setItem('docs:net.md', 'we retry the failed upload\n');
    await storage.setItem('docs:ui.md', 'render the button\n');
    await storage.setItem('other:x.md', 'retry failed upload network timeout\n');
    const searcher = createSearcher({ model: fx.model, concurrency: 0 });
    try {
      const r = await searcher.search({ query: 'retry upload', sources: [createStorageSource(storage, { base: 'docs', name: 'mem:' })], topK: 5, nLines: 0, mode: 'line', maxDistance: 0.5 });
      expect(r.results.map((x) => x.filename)).toEqual(['mem:docs/net.md']);
    } finally {
      await searcher.close();
    }
  });

  it('streams from simgrep\'s s3 driver mounted in a caller\'s storage', async () => {
    const storage = createStorage();
    storage.mount('remote', s3Driver({ bucket: BUCKET, region: 'us-east-1', endpoint: s3.endpoint, credentials: S3RVER_KEYS }));
    expect(await storage.getItem('remote:mirror:db:schema.sql')).toBe(MIRROR['db/schema.sql']);
    const searcher = createSearcher({ model: fx.model, concurrency: 0 });
    try {
      const r = await searcher.search({ query: 'database index query', sources: [createStorageSource(storage, { base: 'remote:mirror' })], topK: 1, nLines: 0, mode: 'line' });
      expect(r.results.map((x) => [x.filename, x.match_line])).toEqual([[`s3://${BUCKET}/mirror/db/schema.sql`, 1]]);
    } finally {
      await searcher.close();
    }
  });
});
