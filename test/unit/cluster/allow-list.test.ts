// The worker's allow list (simgrep worker --allow) on real temp dirs: real paths compared after
// symlinks are resolved, whole segments only, URIs by store and key prefix, a job's S3 endpoint only
// when it is the worker's own; and what a job reaches (job-reach.ts) computed as the worker opens it.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAllowList, realTarget, type AllowList } from '../../../src/cluster/allow-list.js';
import { JobRefused } from '../../../src/cluster/job-check.js';
import { confine, describeJob, indexReach, searchReach } from '../../../src/cluster/job-reach.js';
import type { IndexShardJob, ShardJob } from '../../../src/cluster/protocol.js';
import { isSimgrepError } from '../../../src/errors.js';

let home: string;
let data: string;
let allow: AllowList;

beforeAll(async () => {
  home = realpathSync(mkdtempSync(path.join(tmpdir(), 'simgrep-allow-')));
  data = path.join(home, 'data');
  mkdirSync(path.join(data, 'src'), { recursive: true });
  mkdirSync(path.join(home, 'data-evil'));
  mkdirSync(path.join(home, 'secret'));
  writeFileSync(path.join(data, 'src', 'a.ts'), 'x\n');
  writeFileSync(path.join(home, 'secret', 'key'), 'k\n');
  symlinkSync(path.join(home, 'secret'), path.join(data, 'link-out'));
  symlinkSync(path.join(data, 'src'), path.join(home, 'link-in'));
  allow = await createAllowList({ allow: [data, 's3://logs/app', 'https://example.com/pub/', 'gs://data/keep'], anyPath: false, ownS3Endpoint: 'http://127.0.0.1:9000' });
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('allow list', () => {
  it('local targets: under a root on real paths, never through a link out, never a sibling sharing the prefix', async () => {
    const cases: [string, boolean][] = [
      [data, true],
      [path.join(data, 'src', 'a.ts'), true],
      [path.join(data, 'src', 'not-yet', 'created'), true],
      [path.join(data, 'link-out', 'key'), false], // a symlink inside that leads out
      [path.join(home, 'link-in', 'a.ts'), true], // a symlink outside that leads in: its real path is allowed
      [path.join(home, 'data-evil', 'x'), false],
      [path.join(home, 'secret', 'key'), false],
      ['/etc/passwd', false],
      [`${data}/../secret/key`, false],
    ];
    for (const [p, ok] of cases) expect({ p, ok: (await allow.rootOf(p)) !== null }).toEqual({ p, ok });
    expect(await allow.rootOf(Buffer.concat([Buffer.from(`${data}/src/`), Buffer.from([0xff, 0xfe])]))).toBe(data);
  });

  it('URI targets: same store, key under the prefix on whole segments, no dot segments', async () => {
    const cases: [string, boolean][] = [
      ['s3://logs/app', true], ['s3://logs/app/2026/x.log', true], ['s3://logs/apple/x', false], ['s3://other/app/x', false],
      ['s3://logs/app/../secret', false], ['az://logs/app/x', false], ['gs://logs/app/x', false], ['gs://data/keep/x', true], ['gs://data/keep2', false],
      ['https://example.com/pub/a.txt', true], ['https://example.com/private', false], ['https://example.com/pub/../private', false],
      ['https://example.com/pub/%2e%2e/private', false], ['https://evil.example/pub/a', false], ['http://169.254.169.254/latest/meta-data/', false],
    ];
    for (const [u, ok] of cases) expect({ u, ok: (await allow.rootOf(u)) !== null }).toEqual({ u, ok });
  });

  it('a job may point the S3 client only at the worker\'s own endpoint, unless --allow-any-path', async () => {
    expect(allow.endpointAllowed('http://127.0.0.1:9000')).toBe(true);
    expect(allow.endpointAllowed('http://127.0.0.1:9000/')).toBe(true);
    expect(allow.endpointAllowed('http://attacker.example:9000')).toBe(false);
    const any = await createAllowList({ allow: [], anyPath: true });
    expect(any.endpointAllowed('http://attacker.example:9000')).toBe(true);
    expect(await any.rootOf('/etc/passwd')).toBeNull(); // no roots: confine() lets everything through instead
  });

  it('a root that does not exist or a URI with .. is a BAD_FLAG at start, saying how to fix it', async () => {
    for (const bad of [path.join(home, 'nope'), 's3://logs/../x', '']) {
      const e = await createAllowList({ allow: [bad], anyPath: false }).catch((x: unknown) => x);
      expect(isSimgrepError(e) && e.code).toBe('BAD_FLAG');
    }
  });

  it('realTarget resolves the part that exists and appends the rest', async () => {
    expect((await realTarget(Buffer.from(path.join(home, 'link-in', 'new', 'file')))).toString()).toBe(path.join(data, 'src', 'new', 'file'));
  });
});

const job: ShardJob = {
  protocol: 1, simgrep: 'v', model: 'm', queryId: '0123456789ab', n: 0, roots: ['src', 's3://logs/app/'], cwd: '', options: { query: 'q' },
  entries: [{ s: 0, path: 'src/a.ts' }, { s: 1, path: 's3://logs/app/x.log', key: 'app/x.log' }],
};

describe('what a job reaches', () => {
  it('a search job: its roots and files from the coordinator\'s directory, objects in their root\'s bucket; refused when one lies outside', async () => {
    const d = { ...job, cwd: data };
    const reach = searchReach(d);
    expect(reach.reads).toEqual([path.join(data, 'src'), 's3://logs/app/', path.join(data, 'src/a.ts'), 's3://logs/app/x.log']);
    expect(await confine(reach, allow, d.options)).toEqual([data, 's3://logs/app']);
    expect(describeJob({ queryId: d.queryId, n: 0, kind: 'search', reach, files: 2, roots: reach.reads.slice(0, 2) as string[], used: [] }))
      .toBe(`job 0123456789ab/0 search: reads 2 files under ${path.join(data, 'src')}, s3://logs/app/; writes nothing`);
    const out = { ...d, entries: [...d.entries, { s: 0, path: '../secret/key' }] };
    await expect(confine(searchReach(out), allow, d.options)).rejects.toThrow(new JobRefused(`the job would read ${path.join(home, 'secret/key')}, outside the roots this worker allows (${data}, s3://logs/app, https://example.com/pub/, gs://data/keep); start the worker with --allow covering it, or --allow-any-path`));
    const otherBucket = { ...d, entries: [{ s: 1, path: 's3://logs/app/x', key: '../other/x' }] };
    await expect(confine(searchReach(otherBucket), allow, d.options)).rejects.toThrow(JobRefused);
    await expect(confine(searchReach(d), allow, { remote: { s3Endpoint: 'http://attacker.example' } })).rejects.toThrow(/not its own endpoint/);
  });

  it('the log line is one line whatever a forged job names (a newline in a path is shown escaped)', () => {
    const reach = { reads: ['/srv/a\nsimgrep worker: job 000000000000/0 search: reads 1 file under /etc'], writes: null };
    expect(describeJob({ queryId: '0123456789ab', n: 1, kind: 'search', reach, files: 1, roots: reach.reads, used: [] }))
      .toBe('job 0123456789ab/1 search: reads 1 file under /srv/a\\x0asimgrep worker: job 000000000000/0 search: reads 1 file under /etc; writes nothing');
  });

  it('a gs:// object is read in its root\'s bucket', async () => {
    const d: ShardJob = { ...job, cwd: data, roots: ['gs://data/keep/'], entries: [{ s: 0, path: 'gs://data/keep/a', key: 'keep/a' }, { s: 0, path: 'gs://data/keep/b', key: 'other/b' }] };
    expect(searchReach(d).reads).toEqual(['gs://data/keep/', 'gs://data/keep/a', 'gs://data/other/b']);
    await expect(confine(searchReach(d), allow, d.options)).rejects.toThrow(/would read gs:\/\/data\/other\/b, outside/);
  });

  it('an http(s) object key is read on the root\'s origin the way the driver resolves it: "//host/x" is another host', async () => {
    const d: ShardJob = { ...job, cwd: data, roots: ['https://example.com/pub/'], entries: [{ s: 0, path: 'https://example.com/pub/a', key: '//evil.example/pub/a' }] };
    expect(searchReach(d).reads[1]).toBe('https://evil.example/pub/a');
    await expect(confine(searchReach(d), allow, d.options)).rejects.toThrow(JobRefused);
  });

  it('an index job: its files, and its staging database as where it writes', async () => {
    const d: IndexShardJob = { protocol: 1, simgrep: 'v', model: 'm', queryId: '0123456789ab', n: 3, indexDir: path.join(data, 'idx'), chunkLines: 48, entries: [{ s: 0, path: path.join(data, 'src/a.ts') }], prev: [] };
    const reach = indexReach(d, '0123456789ab-3-1');
    expect(reach.writes).toBe(path.join(data, 'idx/staging/0123456789ab-3-1'));
    expect(await confine(reach, allow, d)).toEqual([data]);
    await expect(confine(indexReach({ ...d, indexDir: path.join(home, 'secret') }, '0123456789ab-3-1'), allow, d)).rejects.toThrow(/the job would write to .*secret\/staging\/0123456789ab-3-1, outside the roots/);
  });
});
