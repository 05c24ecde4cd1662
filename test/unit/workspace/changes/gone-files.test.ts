// goneFiles (status's `gone`, by directory listings) gives what the per-file rule gives (isGone: lstat
// says ENOENT or ENOTDIR), one row per way a file goes or stays: kept, deleted, renamed away, its
// directory removed or replaced by a file, a dangling link (there: prune keeps it), a directory with
// few indexed files (lstat'ed alone), a name with escaped bytes, a file at the top of a tree.
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { goneFiles, LIST_FROM_FILES } from '../../../../src/workspace/changes/gone-files.js';
import { isGone } from '../../../../src/sources/local-gone.js';

const root = mkdtempSync(path.join(tmpdir(), 'simgrep-gone-files-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('goneFiles', () => {
  it('agrees with isGone on every key', async () => {
    const keys: string[] = [];
    const expected: number[] = [];
    const put = (p: string) => { mkdirSync(path.dirname(p), { recursive: true }); writeFileSync(p, 'x\n'); };
    // A listed directory: kept, deleted, renamed away (its new name is not a key).
    const big = path.join(root, 'big');
    for (let i = 0; i < 10; i++) put(path.join(big, `f${i}.ts`));
    rmSync(path.join(big, 'f1.ts'));
    renameSync(path.join(big, 'f2.ts'), path.join(big, 'renamed.ts'));
    rmSync(path.join(big, 'f3.ts'));
    symlinkSync(path.join(root, 'nowhere'), path.join(big, 'f3.ts'));
    for (let i = 0; i < 10; i++) { keys.push(path.join(big, `f${i}.ts`)); expected.push(i === 1 || i === 2 ? 1 : 0); }
    // A directory removed whole, one replaced by a file (ENOTDIR).
    for (const d of ['removed', 'now-a-file']) for (let i = 0; i < LIST_FROM_FILES + 1; i++) { put(path.join(root, d, `g${i}.ts`)); keys.push(path.join(root, d, `g${i}.ts`)); expected.push(1); }
    rmSync(path.join(root, 'removed'), { recursive: true });
    rmSync(path.join(root, 'now-a-file'), { recursive: true });
    writeFileSync(path.join(root, 'now-a-file'), 'x');
    // Few files in a directory: each lstat'ed alone.
    put(path.join(root, 'few', 'a.ts'));
    keys.push(path.join(root, 'few', 'a.ts'), path.join(root, 'few', 'b.ts'));
    expected.push(0, 1);
    // A key with escaped bytes (a name that is not valid UTF-8), gone; a file at the top.
    keys.push(path.join(big, 'bad\\xFFname.ts'), '/no-such-file-left35.ts');
    expected.push(1, 1);
    const got = await goneFiles(keys);
    expect([...got]).toEqual(expected);
    expect([...got]).toEqual(keys.map((k) => (isGone(k) ? 1 : 0)));
  });

  it('no keys: nothing', async () => {
    expect([...await goneFiles([])]).toEqual([]);
  });
});
