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

describe('likeChunk of a big file (trust47)', () => {
  // The whole file was read, decoded and split for a chunk of 48 lines: find_related on line 3 of a 400 MB log
  // inside an MCP root held 1.3 GB in the engine all clients share, and a file past V8's longest string threw.
  it('reads only up to the chunk: line 60 of 1,000 lines followed by 1.5 GB (sparse) answers at once', async () => {
    const { openSync, closeSync, ftruncateSync } = await import('node:fs');
    const f = path.join(dir, 'huge.log');
    writeFileSync(f, `${code(1_000, 'gamma')}\n`);
    const fd = openSync(f, 'r+');
    try { ftruncateSync(fd, 1536 << 20); } finally { closeSync(fd); }
    const before = process.memoryUsage().rss;
    const started = performance.now();
    const c = await likeChunk({ path: f, line: 60 });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(process.memoryUsage().rss - before).toBeLessThan(200 << 20);
    expect([c.start, c.end]).toEqual([48, 96]);
    expect(c.query.split('\n')[0]).toBe('const gamma48 = compute(48);');
    expect(c.query.split('\n')).toHaveLength(48);
    // A line past the end of a file over 8 MiB is counted to the end, piece by piece: the same error as before.
    const long = path.join(dir, 'long.ts');
    writeFileSync(long, `${code(400_000, 'epsilon')}\n`);
    await expect(likeChunk({ path: long, line: 400_001 })).rejects.toThrow(`${long} has 400000 lines; line 400001 is past its end`);
  });
});
