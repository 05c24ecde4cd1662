// localWorkWithin: a bounded walk says whether a search's paths are small work (scored on the calling thread).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localWorkWithin } from '../../../src/sources/small-work.js';

let dir: string;
beforeEach(() => { dir = mkdtempSync(path.join(os.tmpdir(), 'simgrep-small-work-')); });
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const limits = { maxBytes: 100_000, maxFiles: 10, maxEntries: 50 };
const write = (name: string, bytes: number | Buffer) => {
  const file = path.join(dir, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof bytes === 'number' ? 'x'.repeat(bytes) : bytes);
  return file;
};

describe('localWorkWithin', () => {
  it('is true for a tree whose files total under the bytes and are no more than the files', async () => {
    write('a.ts', 40_000);
    write('sub/b.ts', 40_000);
    expect(await localWorkWithin([dir], {}, limits)).toBe(true);
    expect(await localWorkWithin([path.join(dir, 'a.ts')], {}, limits)).toBe(true);
  });

  it('is false once the bytes pass the bound, or the files their count', async () => {
    write('a.ts', 60_000);
    write('sub/b.ts', 40_000);
    expect(await localWorkWithin([dir], {}, limits)).toBe(false);
    rmSync(path.join(dir, 'sub'), { recursive: true });
    for (let i = 0; i < 10; i++) write(`f${i}.ts`, 10);
    expect(await localWorkWithin([dir], {}, limits)).toBe(false);
  });

  it('counts what the search would list: its filters and ignore rules leave files out', async () => {
    write('a.ts', 40_000);
    write('big.log', 200_000);
    write('.gitignore', 'ignored/\n');
    write('ignored/c.ts', 200_000);
    expect(await localWorkWithin([dir], {}, limits)).toBe(false);
    expect(await localWorkWithin([dir], { globs: ['!*.log'] }, limits)).toBe(true);
    expect(await localWorkWithin([dir], { extensions: ['ts'] }, limits)).toBe(true);
  });

  it('a big binary file counts nothing (the search skips it unread past its first bytes); a big UTF-16 one counts', async () => {
    write('a.ts', 1_000);
    const binary = Buffer.alloc(300_000, 0x41);
    binary[100] = 0;
    write('model.bin', binary);
    expect(await localWorkWithin([dir], {}, limits)).toBe(true);
    const utf16 = Buffer.alloc(300_000, 0);
    utf16[0] = 0xff; utf16[1] = 0xfe;
    write('notes.txt', utf16);
    expect(await localWorkWithin([dir], {}, limits)).toBe(false);
  });

  it('is false for a remote path, true for a missing one (the search reports it)', async () => {
    expect(await localWorkWithin(['s3://bucket/prefix'], {}, limits)).toBe(false);
    expect(await localWorkWithin([path.join(dir, 'missing')], {}, limits)).toBe(true);
  });

  it('is false once the walk has listed more entries than maxEntries, though its filters keep no file', async () => {
    for (let i = 0; i < 40; i++) write(`d${i % 4}/f${i}.log`, 10);
    write('a.ts', 100);
    expect(await localWorkWithin([dir], { extensions: ['ts'] }, limits)).toBe(true);
    for (let i = 40; i < 80; i++) write(`d${i % 4}/f${i}.log`, 10);
    expect(await localWorkWithin([dir], { extensions: ['ts'] }, limits)).toBe(false);
    expect(await localWorkWithin([dir], { extensions: ['zzz'] }, limits)).toBe(false);
    expect(await localWorkWithin([dir], { extensions: ['zzz'] }, { ...limits, maxEntries: 1000 })).toBe(true);
  });

  it('is true for a search already cancelled (no pool is started for it)', async () => {
    for (let i = 0; i < 20; i++) write(`f${i}.ts`, 10);
    const ac = new AbortController();
    ac.abort();
    expect(await localWorkWithin([dir], {}, limits, ac.signal)).toBe(true);
  });
});
