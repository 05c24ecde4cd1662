// Property tests (fast-check) for the worker's check of jobs from Redis (src/cluster/job-check.ts):
// every job in the form the coordinator makes is accepted as it is; any value a job could carry is
// accepted or refused with JobRefused (never another throw); a hostile field anywhere is refused; a
// staging location made from an accepted job always lies directly in <indexDir>/staging/.
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  JobRefused, checkAttempt, checkIndexJob, checkSearchJob, isCanonicalLocalPath, isCanonicalS3Uri, isStagingNameOf, stagingLocation, stagingName,
} from '../../../src/cluster/job-check.js';
import type { IndexShardJob, ShardJob } from '../../../src/cluster/protocol.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
/** randomBytes(6).toString('hex'), as the coordinator makes run ids. */
const runId = fc.uint8Array({ minLength: 6, maxLength: 6 }).map(hex);
/** A file or directory name as a walk lists it: no "/" or NUL (a newline is legal), not "." or "..". */
const segment = fc.string({ minLength: 1, maxLength: 12, unit: fc.oneof(fc.constantFrom('\n', '\t', 'é', ' '), fc.string({ minLength: 1, maxLength: 1 })) }).filter((s) => !/[/\0]/.test(s) && s !== '.' && s !== '..');
const absPath = fc.array(segment, { minLength: 1, maxLength: 5 }).map((s) => `/${s.join('/')}`);
const bucket = fc.stringMatching(/^[a-z0-9][a-z0-9-]{1,10}[a-z0-9]$/);
const s3Key = fc.array(segment.filter((s) => !/[\\?#\0-\x1f\x7f]/.test(s)), { minLength: 0, maxLength: 4 }).map((s) => s.join('/'));
const s3Uri = fc.tuple(bucket, s3Key, fc.boolean()).map(([b, k, slash]) => `s3://${b}${k ? `/${k}${slash ? '/' : ''}` : ''}`);
const header = fc.record({ protocol: fc.constant(1), simgrep: fc.constant('0.1.0'), model: fc.constant('bundled (123 bytes of weights)'), queryId: runId, n: fc.nat(100_000) });
const remote = fc.option(fc.record({ s3Endpoint: fc.constant('http://127.0.0.1:9000'), timeoutMs: fc.integer({ min: 1, max: 600_000 }), retries: fc.nat(10) }, { requiredKeys: [] }), { nil: undefined });

/** A search job as coordinator.ts makes it: local roots (one source) and URIs (one source each). */
const searchJob: fc.Arbitrary<ShardJob> = fc.tuple(header, fc.array(absPath, { maxLength: 3 }), fc.array(s3Uri, { maxLength: 3 }), absPath).chain(([h, local, uris, cwd]) => {
  const roots = [...local, ...uris];
  if (roots.length === 0) roots.push('.');
  const hasLocal = roots.some((r) => !r.startsWith('s3://'));
  // A local file's rank path (ShardEntry.rank): the walk's path below the searched root.
  const rankPath = fc.option(fc.array(segment, { minLength: 1, maxLength: 3 }).map((x) => x.join('/')), { nil: undefined });
  const localEntry = fc.tuple(absPath, fc.option(fc.nat(1 << 30), { nil: undefined }), rankPath).map(([p, size, rank]) => ({ s: 0, path: p, ...(size !== undefined && { size }), ...(rank !== undefined && { rank }) }));
  const remoteEntry = uris.length ? fc.tuple(fc.nat(uris.length - 1), s3Key.filter((k) => k !== ''), fc.nat(1 << 30)).map(([i, key, size]) => ({ s: (hasLocal ? 1 : 0) + i, path: `${uris[i].replace(/^(s3:\/\/[^/]+).*/, '$1')}/${key}`, key, size })) : null;
  const entry = remoteEntry && hasLocal ? fc.oneof(localEntry, remoteEntry) : remoteEntry ?? localEntry;
  return fc.record({
    entries: fc.array(entry, { minLength: 1, maxLength: 6 }),
    options: fc.record({ query: fc.string({ minLength: 1, maxLength: 40 }), mode: fc.constantFrom('hybrid', 'semantic', 'lexical', 'line'), topK: fc.integer({ min: 1, max: 100 }), nLines: fc.nat(10), recursive: fc.boolean(), remote }, { requiredKeys: ['query'] }),
  }).map(({ entries, options }) => ({ ...h, roots, cwd, entries, options: JSON.parse(JSON.stringify(options)) as ShardJob['options'] }));
});

/** An index job as index-coordinator.ts makes it: entries named by index keys, prev states of some of them. */
const indexJob: fc.Arbitrary<IndexShardJob> = fc.tuple(header, fc.oneof(absPath, s3Uri), fc.array(fc.oneof(absPath, s3Uri.filter((u) => /^s3:\/\/[^/]+\/[^/]/.test(u) && !u.endsWith('/'))), { minLength: 1, maxLength: 6 }), remote)
  .map(([h, indexDir, paths, r]) => ({
    ...h, indexDir, chunkLines: 48, ...(r && { remote: JSON.parse(JSON.stringify(r)) as IndexShardJob['remote'] }),
    // An object's listing ETag (the identity's third part) comes with it, as index-coordinator.ts yields it.
    entries: paths.map((p) => ({ s: 0, path: p, size: 10, modifiedMs: 1_700_000_000_000, ...(p.startsWith('s3://') && { etag: '"9b2cf535f27731c974343645a3985328"' }) })),
    prev: paths.slice(0, 1).map((p) => ({ key: p, size: 9, mtime: 1_600_000_000_000, ctime: 1_600_000_000_000, hash: 'abc123', kind: 'text', lines: 3, chunks: 1 })),
  }));

/** Values a forged job might put anywhere. */
const hostile = fc.constantFrom<unknown>(
  '../../etc', '/tmp/../etc/shadow', 'a/../../b', '/x\0y', '', 'x'.repeat(70_000), '.', '..', '//', 'abc/def',
  NaN, Infinity, -1, 1.5, 2 ** 60, null, true, {}, [], ['..'], { toString: 'x' },
);
const refusedOrChecked = (f: () => unknown) => {
  try { f(); } catch (e) { expect(e).toBeInstanceOf(JobRefused); }
};
const refused = (f: () => unknown) => expect(f).toThrow(JobRefused);

describe('job-check (property)', () => {
  it('jobs in the form the coordinator makes are accepted as they are', () => {
    fc.assert(fc.property(searchJob, (j) => { expect(checkSearchJob(structuredClone(j))).toEqual(j); }), { numRuns: 300 });
    fc.assert(fc.property(indexJob, (j) => { expect(checkIndexJob(structuredClone(j))).toEqual(j); }), { numRuns: 300 });
  });

  it('any JSON value is accepted or refused with JobRefused, never another throw', () => {
    const json = fc.jsonValue({ maxDepth: 4 });
    fc.assert(fc.property(json, (v) => { refusedOrChecked(() => checkSearchJob(v)); refusedOrChecked(() => checkIndexJob(v)); }), { numRuns: 500 });
    // Also objects with the right keys and arbitrary values in them.
    const shaped = fc.record({ protocol: json, simgrep: json, model: json, queryId: json, n: json, roots: json, cwd: json, options: json, entries: json, indexDir: json, chunkLines: json, prev: json });
    fc.assert(fc.property(shaped, (v) => { refusedOrChecked(() => checkSearchJob(v)); refusedOrChecked(() => checkIndexJob(v)); }), { numRuns: 500 });
  });

  it('a hostile value in any field of a search job is refused', () => {
    const fields = ['queryId', 'n', 'roots', 'cwd', 'entries', 'options'] as const;
    fc.assert(fc.property(searchJob, fc.constantFrom(...fields), hostile, (j, field, v) => {
      if (field === 'roots' && Array.isArray(v) && v[0] === '..') return; // a relative root is the coordinator's to resolve: confined by the allow list
      refused(() => checkSearchJob({ ...j, [field]: v }));
    }), { numRuns: 400 });
    const entryFields = ['s', 'path', 'size', 'key', 'io', 'named', 'rank'] as const;
    fc.assert(fc.property(searchJob, fc.constantFrom(...entryFields), hostile.filter((v) => !(typeof v === 'string' && /^[^\0]{1,100}$/.test(v) && !/^\.\.?$|(^|\/)\.\.(\/|$)/.test(v))), (j, field, v) => {
      if (field === 'named' && typeof v === 'boolean') return;
      // A rank path is only read as text by the ranking (never opened): any bounded string without NUL.
      if (field === 'rank' && typeof v === 'string' && v !== '' && !v.includes('\0') && v.length <= 4096) return;
      const entries = [{ ...j.entries[0], [field]: v }, ...j.entries.slice(1)];
      // A local entry's path may be any string (it is resolved from cwd and confined by the allow list).
      if (field === 'path' && typeof v === 'string' && !v.includes('\0') && v !== '' && v.length <= 4096 && j.entries[0].s === 0 && !j.entries[0].key) return;
      refused(() => checkSearchJob({ ...j, entries }));
    }), { numRuns: 400 });
  });

  it('labels (simgrep, model) are bounded strings without control characters', () => {
    fc.assert(fc.property(searchJob, fc.constantFrom('simgrep', 'model'), fc.constantFrom<unknown>(1, null, '', 'x'.repeat(2000), 'a\0b', ['x']), (j, field, v) => {
      refused(() => checkSearchJob({ ...j, [field]: v }));
    }), { numRuns: 100 });
  });

  it('a hostile value in any field of an index job is refused', () => {
    const fields = ['queryId', 'n', 'indexDir', 'chunkLines', 'entries', 'prev', 'remote'] as const;
    fc.assert(fc.property(indexJob, fc.constantFrom(...fields), hostile, (j, field, v) => {
      if (field === 'prev' && Array.isArray(v) && v.length === 0) return; // no entry was indexed before
      if (field === 'remote' && (v === null ? false : typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length === 0)) return; // {} is a valid remote
      refused(() => checkIndexJob({ ...j, [field]: v }));
    }), { numRuns: 400 });
  });

  it('an entry\'s etag or a prev state\'s ctime that is not what the coordinator sends is refused', () => {
    const notEtag = fc.constantFrom<unknown>('', 'x'.repeat(1025), 'a\0b', 7, null, true, {}, []);
    fc.assert(fc.property(indexJob, notEtag, (j, v) => { refused(() => checkIndexJob({ ...j, entries: j.entries.map((e) => ({ ...e, etag: v })) })); }), { numRuns: 100 });
    const notTime = fc.constantFrom<unknown>(NaN, Infinity, '1', null, undefined, {});
    fc.assert(fc.property(indexJob, notTime, (j, v) => { refused(() => checkIndexJob({ ...j, prev: j.prev.map((s) => ({ ...s, ctime: v })) })); }), { numRuns: 100 });
  });

  it('an indexDir or queryId with .. or / never yields a staging location outside <indexDir>/staging/', () => {
    const forgedDir = fc.tuple(absPath, fc.constantFrom('/..', '/../..', '/.', '/./x/..', '//', '/')).map(([p, tail]) => p + tail);
    fc.assert(fc.property(indexJob, forgedDir, (j, dir) => { refused(() => checkIndexJob({ ...j, indexDir: dir })); }), { numRuns: 200 });
    const forgedId = fc.tuple(runId, fc.constantFrom('/..', '/../../x', '..', '/', '-0-0')).map(([id, tail]) => id + tail);
    fc.assert(fc.property(indexJob, forgedId, (j, id) => { refused(() => checkIndexJob({ ...j, queryId: id })); }), { numRuns: 200 });
    fc.assert(fc.property(indexJob, fc.nat(1000), (j, attempt) => {
      const d = checkIndexJob(j);
      const name = stagingName(d.queryId, d.n, attempt);
      const at = stagingLocation(d.indexDir, name);
      const base = d.indexDir.startsWith('s3://') ? `${d.indexDir.replace(/\/+$/, '')}/staging/` : path.join(d.indexDir, 'staging') + '/';
      expect(at).toBe(base + name);
      if (!d.indexDir.startsWith('s3://')) expect(path.resolve(at)).toBe(at);
      expect(isStagingNameOf(name, d.queryId)).toBe(true);
    }), { numRuns: 300 });
  });

  it('canonical forms: a local path equals its path.resolve, an s3:// URI has no empty, . or .. key segment', () => {
    const pathish = fc.array(fc.constantFrom('a', 'b c', '.', '..', '', 'x\0', 'é'), { maxLength: 6 }).map((s) => `/${s.join('/')}`);
    fc.assert(fc.property(pathish, (p) => {
      expect(isCanonicalLocalPath(p)).toBe(path.resolve(p) === p && !p.includes('\0'));
    }), { numRuns: 500 });
    fc.assert(fc.property(fc.array(fc.constantFrom('a', '.', '..', '', 'k?x'), { maxLength: 5 }), (segs) => {
      const key = segs.join('/');
      const ok = segs.length === 0 || (segs.slice(0, -1).every((s) => s !== '' && s !== '.' && s !== '..' && s !== 'k?x') && (segs.at(-1) === '' ? segs.length > 1 : !['.', '..', 'k?x'].includes(segs.at(-1)!)));
      expect(isCanonicalS3Uri(`s3://bucket/${key}`)).toBe(key === '' || ok);
    }), { numRuns: 500 });
  });

  it('staging names: only RUN-SHARD-ATTEMPT of this run; attempts are whole numbers', () => {
    fc.assert(fc.property(runId, fc.string({ maxLength: 30 }), (id, name) => {
      expect(isStagingNameOf(name, id)).toBe(new RegExp(`^${id}-\\d{1,9}-\\d{1,6}$`).test(name));
    }), { numRuns: 300 });
    for (const v of [-1, 1.5, NaN, '3', 2e6]) refused(() => checkAttempt(v));
    expect(() => stagingLocation('/idx', '../../etc')).toThrow(JobRefused);
    expect(() => stagingLocation('/idx/../etc', 'aaaaaaaaaaaa-0-0')).toThrow(JobRefused);
  });
});
