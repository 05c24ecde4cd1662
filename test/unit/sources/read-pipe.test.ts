// The fs source's stream of a named pipe (a real FIFO, this process its writer): an abort stops a read that waits
// on a writer holding the pipe open, or on a writer that never comes, and closes the pipe's fd; a late writer is
// waited for (the pipe is not read as empty). Before pipe43 the read and the open ran on libuv's threads, where
// an abort could not reach them: the stream's next() stayed pending until the writer came or closed the pipe.
import { closeSync, constants, mkdtempSync, openSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createFsSource } from '../../../src/sources/fs.js';
import type { Entry } from '../../../src/sources/source.js';
import { readPipe } from '../../../src/sources/read-pipe.js';

let dir = '';
beforeAll(() => { dir = mkdtempSync(path.join(tmpdir(), 'simgrep-read-pipe-')); });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const linux = process.platform === 'linux';
const openFds = () => readdirSync('/proc/self/fd').length;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** What `p` settles to within `ms`, or 'pending'. */
const within = <T>(p: Promise<T>, ms: number) => Promise.race([p, sleep(ms).then(() => 'pending' as const)]);

async function fifoEntry(name: string): Promise<{ fifo: string; entry: Entry; source: ReturnType<typeof createFsSource> }> {
  const fifo = path.join(dir, name);
  execFileSync('mkfifo', [fifo]);
  const source = createFsSource({ paths: [fifo] });
  const entries: Entry[] = [];
  for await (const e of source.list()) entries.push(e);
  expect(entries).toMatchObject([{ path: fifo, pipe: true }]);
  return { fifo, entry: entries[0], source };
}

/** Frees an open of the FIFO that waits for a writer (the old code's, on libuv's threads), so the test can end. */
function releaseReader(fifo: string): void {
  try { closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK)); } catch { /* no reader waits */ }
}

it.skipIf(!linux)('an abort stopped no read of a named pipe held open by its writer (its fd stays open)', async () => {
  const { fifo, entry, source } = await fifoEntry('held.fifo');
  const before = openFds();
  const aborter = new AbortController();
  const chunks = source.stream!(entry, aborter.signal)[Symbol.asyncIterator]();
  const first = chunks.next();
  const writer = await open(fifo, 'w');
  try {
    await writer.write('a first line\n');
    expect(Buffer.from((await first).value as Uint8Array).toString()).toBe('a first line\n');
    const next = chunks.next();
    aborter.abort();
    // Before: 'pending' (the read on libuv's threads waits for the writer's next bytes or its close).
    expect(await within(next, 3_000)).toEqual({ done: true, value: undefined });
    expect(openFds()).toBe(before + 1); // the writer's fd only: the reader's was closed
  } finally {
    await writer.close();
  }
  expect(openFds()).toBe(before);
});

it.skipIf(!linux)('an abort stopped no open of a named pipe that no writer ever opens', async () => {
  const { fifo, entry, source } = await fifoEntry('lonely.fifo');
  const before = openFds();
  const aborter = new AbortController();
  const next = source.stream!(entry, aborter.signal)[Symbol.asyncIterator]().next();
  try {
    await sleep(200);
    aborter.abort();
    // Before: 'pending' (the open on libuv's threads waits for a writer).
    expect(await within(next, 3_000)).toEqual({ done: true, value: undefined });
    expect(openFds()).toBe(before);
  } finally {
    releaseReader(fifo);
  }
});

it.skipIf(!linux)('a named pipe whose writer comes late and writes slowly is read to its end, not as empty', async () => {
  const { fifo, entry, source } = await fifoEntry('late.fifo');
  const before = openFds();
  const read = (async () => {
    const parts: Buffer[] = [];
    for await (const c of source.stream!(entry)) parts.push(Buffer.from(c));
    return Buffer.concat(parts).toString();
  })();
  await sleep(300);
  const writer = await open(fifo, 'w');
  for (const line of ['one\n', 'two\n', 'three\n']) { await writer.write(line); await sleep(100); }
  await writer.close();
  expect(await read).toBe('one\ntwo\nthree\n');
  expect(openFds()).toBe(before);
});

it.skipIf(!linux)('a device that never blocks (/dev/zero) is read on the threads and stops at an abort between its reads', async () => {
  const source = createFsSource({ paths: ['/dev/zero'] });
  const entries: Entry[] = [];
  for await (const e of source.list()) entries.push(e);
  expect(entries).toMatchObject([{ path: '/dev/zero', pipe: true }]);
  const before = openFds();
  const aborter = new AbortController();
  const chunks = source.stream!(entries[0], aborter.signal)[Symbol.asyncIterator]();
  for (let i = 0; i < 3; i++) expect(((await chunks.next()).value as Uint8Array).length).toBeGreaterThan(0);
  aborter.abort();
  expect(await within(chunks.next(), 3_000)).toEqual({ done: true, value: undefined });
  expect(openFds()).toBe(before);
});

const python = spawnSync('python3', ['-c', 'import pty'], { stdio: 'ignore' }).status === 0;
/** This process's fds open on a pseudo-terminal's slave. */
const ptsFds = () => readdirSync('/proc/self/fd').filter((f) => { try { return readlinkSync(`/proc/self/fd/${f}`).startsWith('/dev/pts/'); } catch { return false; } }).length;

// mend44: uv_tty_init reopens a pty slave by its name and reads the new fd; destroy() closed only that one, so each
// read of a terminal left the fd it was opened with open (and the terminal with it): 1, 2, 3 after three reads.
it.skipIf(!linux || !python)('a terminal read stopped by an abort leaves no fd of it open', async () => {
  const helper = spawn('python3', ['-c', 'import os, pty, time\nm, s = pty.openpty()\nprint(os.ttyname(s), flush=True)\nos.write(m, b"a typed line\\n")\ntime.sleep(30)'], { stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const tty = await new Promise<string>((resolve, reject) => {
      createInterface({ input: helper.stdout! }).once('line', resolve);
      helper.on('error', reject);
    });
    const before = ptsFds();
    let text = '';
    for (let i = 0; i < 3; i++) {
      const aborter = new AbortController();
      setTimeout(() => aborter.abort(), 200);
      for await (const c of readPipe(tty, aborter.signal)) text += Buffer.from(c).toString();
    }
    expect(text).toBe('a typed line\n'); // read once: the terminal's input is consumed
    await sleep(50);
    // Before: before + 3 (one fd left by each read).
    expect(ptsFds()).toBe(before);
  } finally {
    helper.kill();
  }
});
