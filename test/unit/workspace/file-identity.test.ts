// A file's key and identity in the index: local paths by stat, objects by their listing; roots as
// directories or prefixes (URIs compared as strings, without their trailing slashes).
import { mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RACY_COARSE_MS, RACY_MS, UNKNOWN_CTIME, etagStamp, identityOf, isUnder, recordedIdentity, sameIdentity } from '../../../src/workspace/changes/file-identity.js';
import { fileKeys, realPath } from '../../../src/sources/real-paths.js';
import { covers, defaultName } from '../../../src/workspace/registry.js';

const dir = mkdtempSync(path.join(tmpdir(), 'simgrep-identity-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('file identity', () => {
  it('a local file: its absolute path, size, mtime and ctime from a stat', () => {
    const file = path.join(dir, 'a.txt');
    writeFileSync(file, 'hello\n');
    const st = statSync(file);
    expect(fileKeys([dir])(path.relative(process.cwd(), file))).toBe(realpathSync(file));
    expect(identityOf({ path: file })).toEqual({ size: 6, mtime: st.mtimeMs, ctime: st.ctimeMs, known: true });
    expect(() => identityOf({ path: path.join(dir, 'missing') })).toThrow(/ENOENT/);
  });

  it('an object: its URI, and the size and last-modified of the listing; without them the identity is unknown', () => {
    expect(fileKeys(['s3://b/p/'])('s3://b/p/x.ts')).toBe('s3://b/p/x.ts');
    const listed = identityOf({ path: 's3://b/p/x.ts', size: 10, modifiedMs: 1700000000000 });
    expect(listed).toEqual({ size: 10, mtime: 1700000000000, ctime: 0, known: true });
    expect(sameIdentity(listed, { size: 10, mtime: 1700000000000, ctime: 0 })).toBe(true);
    expect(sameIdentity(listed, { size: 10, mtime: 1700000001000, ctime: 0 })).toBe(false);
    expect(sameIdentity(listed, { size: 11, mtime: 1700000000000, ctime: 0 })).toBe(false);
    // An older simgrep's record (no ctime kept) is hashed again.
    expect(sameIdentity(listed, { size: 10, mtime: 1700000000000, ctime: UNKNOWN_CTIME })).toBe(false);
    // An https body: no size or time up front, so the content hash always decides.
    const unknown = identityOf({ path: 'https://h/x.txt' });
    expect(sameIdentity(unknown, { size: -1, mtime: -1, ctime: 0 })).toBe(false);
  });

  it('an object overwritten within the second with the same size: its ETag tells', () => {
    const first = identityOf({ path: 's3://b/x.ts', size: 10, modifiedMs: 1700000000000, etag: '"aaa"' });
    const second = identityOf({ path: 's3://b/x.ts', size: 10, modifiedMs: 1700000000000, etag: '"bbb"' });
    expect(sameIdentity(second, first)).toBe(false);
    expect(sameIdentity(identityOf({ path: 's3://b/x.ts', size: 10, modifiedMs: 1700000000000, etag: '"aaa"' }), first)).toBe(true);
    expect([etagStamp(undefined), etagStamp('')]).toEqual([0, 0]);
    expect(Number.isSafeInteger(etagStamp('"aaa"')) && etagStamp('"aaa"') > 0).toBe(true);
  });

  it.each([
    { what: 'changed long before the run', mtime: 1_000_000, ctime: 1_000_000.5, started: 1_000_000 + 60_000, kept: true },
    { what: 'changed just before the run (a same-tick edit would not show)', mtime: 1_000_000.5, ctime: 1_000_000.5, started: 1_000_000.5 + RACY_MS - 1, kept: false },
    { what: 'mtime set back, ctime recent', mtime: 5_000, ctime: 1_000_000.5, started: 1_000_010, kept: false },
    { what: 'mtime in the future (a clock ahead), ctime long before: the ctime decides', mtime: 1_000_000.5 + 3_600_000, ctime: 1_000_000.5, started: 1_000_000.5 + 60_000, kept: true },
    { what: 'mtime in the future, ctime just before the run', mtime: 1_000_000.5 + 3_600_000, ctime: 1_000_000.5, started: 1_000_000.5 + RACY_MS - 1, kept: false },
    { what: 'whole seconds (a coarse file system), 1 s before', mtime: 1_000_000, ctime: 1_000_000, started: 1_001_000, kept: false },
    { what: 'whole seconds, long before', mtime: 1_000_000, ctime: 1_000_000, started: 1_000_000 + RACY_COARSE_MS + 1, kept: true },
  ])('recordedIdentity: $what', ({ mtime, ctime, started, kept }) => {
    const id = { size: 3, mtime, ctime };
    expect(recordedIdentity(path.join(dir, 'f'), id, started)).toEqual(kept ? id : { ...id, ctime: UNKNOWN_CTIME });
    // Objects are kept as listed.
    expect(recordedIdentity('s3://b/f', id, started)).toEqual(id);
  });

  it.each([
    { key: 's3://b/p/x.ts', root: 's3://b/p/', under: true },
    { key: 's3://b/p/x.ts', root: 's3://b/p', under: true },
    { key: 's3://b/p/x.ts', root: 's3://b/', under: true },
    { key: 's3://b/pq/x.ts', root: 's3://b/p', under: false },
    { key: 's3://b/p', root: 's3://b/p/', under: true },
    { key: 's3://c/p/x.ts', root: 's3://b/p/', under: false },
    { key: path.join(dir, 'a', 'x'), root: path.join(dir, 'a'), under: true },
    { key: path.join(dir, 'ab', 'x'), root: path.join(dir, 'a'), under: false },
  ])('isUnder($key, $root) = $under', ({ key, root, under }) => {
    expect(isUnder(key, root)).toBe(under);
  });
});

describe('remote roots in the registry', () => {
  it('a URI root is kept as written, without trailing slashes; it covers the objects under it', () => {
    expect(realPath('s3://b/p/')).toBe('s3://b/p');
    expect(realPath('s3://b/')).toBe('s3://b');
    expect(covers(['s3://b/p'], ['s3://b/p/', 's3://b/p/sub/', 's3://b/p/x.ts'])).toBe(true);
    expect(covers(['s3://b/p'], ['s3://b/pq/'])).toBe(false);
    expect(covers(['s3://b/p'], [dir])).toBe(false);
    expect(defaultName(['s3://b/logs/'])).toMatch(/^logs-[0-9a-f]{8}$/);
  });
});
