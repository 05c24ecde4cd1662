// One cache file read and written safely (src/model/cache-entry.ts): only a regular file of this user's,
// no larger than asked, is read (a FIFO is a miss at once, not a hang; a link is not followed); a write
// is whole or nothing, and a directory that cannot hold it is only a miss.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCacheEntry, writeCacheEntry } from '../../../src/model/cache-entry.js';

let dir = '';
beforeAll(() => { dir = mkdtempSync(path.join(tmpdir(), 'simgrep-cache-entry-')); });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a cache entry', () => {
  it('is written whole and read back', () => {
    const f = path.join(dir, 'a', 'e.bin');
    writeCacheEntry(f, Buffer.from('hello'), 4);
    expect(readCacheEntry(f, 5)?.toString()).toBe('hello');
    expect(readdirSync(path.dirname(f))).toEqual(['e.bin']);
  });

  it.each([
    ['absent', (f: string) => void f],
    ['larger than asked', (f: string) => writeFileSync(f, 'x'.repeat(6))],
    ['a FIFO', (f: string) => { expect(spawnSync('mkfifo', [f]).status).toBe(0); }],
    ['a link to a regular file', (f: string) => { writeFileSync(`${f}.target`, 'hello'); symlinkSync(`${f}.target`, f); }],
    ['a directory', (f: string) => { rmSync(f, { force: true }); spawnSync('mkdir', [f]); }],
  ])('is a miss when %s', (_, make) => {
    const f = path.join(dir, `miss-${Math.random().toString(36).slice(2)}.bin`);
    make(f);
    expect(readCacheEntry(f, 5)).toBeNull();
  });

  it('keeps at most maxEntries entries, the newest', () => {
    const d = path.join(dir, 'capped');
    // Each written entry aged to a second of its own (in the past), so the newest are 2, 3 and 4 whatever the clock's grain.
    const base = Date.now() / 1000 - 1000;
    for (let i = 0; i < 5; i++) {
      writeCacheEntry(path.join(d, `${i}.bin`), Buffer.from([i]), 3);
      utimesSync(path.join(d, `${i}.bin`), base + i, base + i);
    }
    expect(readdirSync(d).sort()).toEqual(['2.bin', '3.bin', '4.bin']);
  });

  it('under a regular file, or over a directory, is only a miss: nothing thrown, no temp file left', () => {
    const file = path.join(dir, 'a-file');
    writeFileSync(file, 'x');
    expect(() => writeCacheEntry(path.join(file, 'sub', 'e.bin'), Buffer.from('x'), 4)).not.toThrow();
    const d = path.join(dir, 'over-dir');
    spawnSync('mkdir', ['-p', path.join(d, 'e.bin', 'inside')]);
    expect(() => writeCacheEntry(path.join(d, 'e.bin'), Buffer.from('x'), 4)).not.toThrow();
    expect(readdirSync(d)).toEqual(['e.bin']);
  });
});
