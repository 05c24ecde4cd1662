// likeChunk (rank/related.ts) reads a find_related's file of up to 8 MiB on the calling thread (branch fixed43:
// the promise API's open, stat, read and close were four trips through libuv's threads, hop40), a bigger one
// through the promise API, and sees the file as it is at each call.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { likeChunk } from '../../../src/rank/related.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'like-chunk-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const code = (n: number, word: string) => Array.from({ length: n }, (_, i) => `const ${word}${i} = compute(${i});`).join('\n');

describe('likeChunk reads', () => {
  it('a small file before the event loop turns (no trip through libuv\'s threads)', async () => {
    const f = path.join(dir, 'small.ts');
    writeFileSync(f, code(100, 'alpha'));
    let chunk: Awaited<ReturnType<typeof likeChunk>> | null = null;
    const p = likeChunk({ path: f, line: 60 }).then((c) => { chunk = c; });
    await new Promise((r) => setImmediate(r));
    expect(chunk).not.toBeNull();
    await p;
    expect(chunk!.start).toBe(48);
    expect(chunk!.query.split('\n')[0]).toBe('const alpha48 = compute(48);');
  });

  it('the file as it is now, at each call', async () => {
    const f = path.join(dir, 'changes.ts');
    writeFileSync(f, code(10, 'beta'));
    expect((await likeChunk({ path: f, line: 1 })).query).toContain('beta0');
    writeFileSync(f, code(10, 'gamma'));
    expect((await likeChunk({ path: f, line: 1 })).query).toContain('gamma0');
  });

  it('a file over 8 MiB through the promise API, with the same chunk', async () => {
    const f = path.join(dir, 'big.ts');
    const line = `${'x'.repeat(1000)}\n`;
    writeFileSync(f, `${code(50, 'delta')}\n${line.repeat(9 * 1024)}`);
    const c = await likeChunk({ path: f, line: 49 });
    expect(c.start).toBe(48);
    expect(c.query.split('\n')[0]).toBe('const delta48 = compute(48);');
  });

  it('a directory or a missing file: the same error as before', async () => {
    const d = path.join(dir, 'a-dir');
    mkdirSync(d);
    await expect(likeChunk({ path: d, line: 1 })).rejects.toThrow(`cannot read ${d} to find code like it (EISDIR); pass an existing file`);
    await expect(likeChunk({ path: path.join(dir, 'nope.ts'), line: 1 })).rejects.toThrow('(ENOENT); pass an existing file');
  });
});
