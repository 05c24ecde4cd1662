// A file's key in a workspace's index: the real path of the root it was walked from and the rest of its
// path as walked (sources/real-paths.ts): one realpath per root, none per file, so a link inside the
// tree keeps its own name while a root reached through a link is keyed under its real path.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileKeys, realPath } from '../../../src/sources/real-paths.js';
import { orphanKeys } from '../../../src/workspace/changes/file-identity.js';

// realpath: the temp directory itself may lie behind a link (macOS's /var).
const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'simgrep-real-paths-')));
const real = path.join(dir, 'real');
const link = path.join(dir, 'link');
mkdirSync(path.join(real, 'sub'), { recursive: true });
writeFileSync(path.join(real, 'sub', 'a.ts'), 'a\n');
writeFileSync(path.join(real, 'b.ts'), 'b\n');
symlinkSync(real, link);
symlinkSync(path.join(real, 'sub'), path.join(real, 'inner')); // a link inside the tree
symlinkSync(path.join(real, 'b.ts'), path.join(dir, 'b-link.ts')); // a root that is a linked file
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('fileKeys', () => {
  it('keys the files of a root reached through a link by the root\'s real path and the rest as walked', () => {
    const keyOf = fileKeys([link]);
    expect(keyOf(path.join(link, 'sub', 'a.ts'))).toBe(path.join(real, 'sub', 'a.ts'));
    expect(keyOf(path.join(link, 'b.ts'))).toBe(path.join(real, 'b.ts'));
    // A link inside the tree keeps its own name, as a scan lists it (no realpath per file).
    expect(keyOf(path.join(link, 'inner', 'a.ts'))).toBe(path.join(real, 'inner', 'a.ts'));
    // ... and a root given as it is, the same keys.
    expect(fileKeys([real])(path.join(real, 'sub', 'a.ts'))).toBe(path.join(real, 'sub', 'a.ts'));
  });

  it('takes paths relative to the working directory, as a walk of a relative root shows them; any other spelling is resolved', () => {
    const rel = path.relative(process.cwd(), link);
    const keyOf = fileKeys([rel, `${rel}/`]);
    expect(keyOf(`${rel}/sub/a.ts`)).toBe(path.join(real, 'sub', 'a.ts'));
    expect(keyOf(`${rel}/.hidden.ts`)).toBe(path.join(real, '.hidden.ts'));
    // A path that is not as a walk lists it (a '..', a '.', an empty part) is resolved, then keyed.
    expect(keyOf(`${rel}/sub/../b.ts`)).toBe(path.join(real, 'b.ts'));
    expect(keyOf(`${rel}/./sub//a.ts`)).toBe(path.join(real, 'sub', 'a.ts'));
    expect(keyOf(`${rel}/../real/b.ts`)).toBe(path.join(real, 'b.ts'));
  });

  it('a root that is a linked file: its target; a glob: its base directory\'s real path', () => {
    const file = path.join(dir, 'b-link.ts');
    expect(fileKeys([file])(file)).toBe(path.join(real, 'b.ts'));
    // ... however another root spells its directory (review of sym32: a relative and an absolute spelling
    // of the same two roots keyed it apart, and a scan searched 3 files or 2).
    expect(fileKeys([file, dir])(file)).toBe(path.join(real, 'b.ts'));
    const cwd = process.cwd();
    try {
      process.chdir(dir);
      expect(fileKeys(['b-link.ts', '.'])('b-link.ts')).toBe(path.join(real, 'b.ts'));
      expect(fileKeys([file, '.'])(file)).toBe(path.join(real, 'b.ts'));
    } finally { process.chdir(cwd); }
    const glob = path.join(link, '**', '*.ts');
    expect(fileKeys([glob])(path.join(link, 'sub', 'a.ts'))).toBe(path.join(real, 'sub', 'a.ts'));
    expect(realPath(glob)).toBe(path.join(real, '**', '*.ts'));
  });

  it('the deepest root decides; a path that shares only a prefix with a root is not under it; URIs are their own keys', () => {
    // Both roots walk link/inner/a.ts: keyed once, by the root that names it most nearly (the real path of link/inner).
    const keyOf = fileKeys([link, path.join(link, 'inner')]);
    expect(keyOf(path.join(link, 'inner', 'a.ts'))).toBe(path.join(real, 'sub', 'a.ts'));
    expect(keyOf(path.join(link, 'b.ts'))).toBe(path.join(real, 'b.ts'));
    expect(keyOf(`${link}2/x.ts`)).toBe(`${link}2/x.ts`);
    expect(keyOf('s3://b/p/x.ts')).toBe('s3://b/p/x.ts');
    expect(fileKeys(['s3://b/p/'])('s3://b/p/x.ts')).toBe('s3://b/p/x.ts');
  });
});

describe('orphanKeys', () => {
  it('the indexed files under none of the roots (a tree indexed a second time under a link\'s path)', () => {
    const keys = [path.join(real, 'b.ts'), path.join(link, 'b.ts'), path.join(`${real}2`, 'c.ts'), real];
    expect(orphanKeys(keys, [real])).toEqual([path.join(link, 'b.ts'), path.join(`${real}2`, 'c.ts')]);
    // URIs are never orphans: a root is kept as typed (S3://, a host in capitals, a token in the query) while
    // its keys are the listing's canonical URIs (review of sym32: every saved refresh dropped them).
    expect(orphanKeys(['s3://b/p/x', 's3://b/q/x'], ['s3://b/p/'])).toEqual([]);
    expect(orphanKeys(['http://localhost:80/b.ts', path.join(link, 'b.ts')], ['http://LOCALHOST:80/b.ts', real])).toEqual([path.join(link, 'b.ts')]);
    // Roots unknown: nothing is dropped.
    expect(orphanKeys(keys, [])).toEqual([]);
  });
});
