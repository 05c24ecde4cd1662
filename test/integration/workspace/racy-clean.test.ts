// git's "racily clean" files: a file written just before the index run that read it could be written
// again within the same timestamp tick, leaving size, mtime and ctime as they were. Such a file is
// recorded with an unknown ctime, so the next run hashes it again (and then records its ctime), while a
// file older than the margin is trusted on its stat; its ctime decides, not an mtime ahead of the clock.
// Through the workspace and a real LanceDB directory.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, expect, it, vi } from 'vitest';
import { createSearcher } from '../../../src/searcher.js';
import { createWorkspace } from '../../../src/workspace/workspace.js';
import { openStore } from '../../../src/workspace/store/store.js';
import { RACY_MS, UNKNOWN_CTIME } from '../../../src/workspace/changes/file-identity.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-racy-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
afterEach(() => { vi.restoreAllMocks(); });

/** Each indexed file's ctime as recorded: its own (the file's stat's) or UNKNOWN_CTIME. */
async function recorded(dir: string): Promise<Record<string, string>> {
  const store = await openStore(dir, { dim: 8 });
  try {
    return Object.fromEntries((await store.fileStates()).map((s) => [path.basename(s.key), s.ctime === UNKNOWN_CTIME ? 'unknown' : s.ctime === statSync(s.key).ctimeMs ? 'its own' : String(s.ctime)]));
  } finally {
    store.close();
  }
}

it('a file written within the margin before the run is hashed again by the next run; an older one is trusted', async () => {
  const tree = path.join(tmp, 'tree');
  mkdirSync(tree, { recursive: true });
  writeFileSync(path.join(tree, 'old.ts'), 'export function retryUpload() { return 1; }\n');
  await new Promise((r) => setTimeout(r, RACY_MS * 4));
  const dir = path.join(tmp, 'ws');
  const ws = createWorkspace({ dir, concurrency: 0 });
  try {
    expect((await ws.index([tree])).indexed).toBe(1);
    expect(await recorded(dir)).toEqual({ 'old.ts': 'its own' });
    const added = path.join(tree, 'new.ts');
    writeFileSync(added, 'export function parseConfig() { return 2; }\n');
    // The run starts 1 ms after that write, however long this machine takes to get there: the clock it
    // reads is set back by the difference (and runs on).
    const now = Date.now.bind(Date);
    const shift = now() - (statSync(added).ctimeMs + 1);
    vi.spyOn(Date, 'now').mockImplementation(() => now() - shift);
    const first = await ws.index([tree]);
    vi.restoreAllMocks();
    expect([first.files, first.indexed]).toEqual([2, 1]);
    expect(await recorded(dir)).toEqual({ 'new.ts': 'unknown', 'old.ts': 'its own' });
    // new.ts is read and hashed (the same content: not re-embedded), then recorded with its ctime: by a run
    // that starts past the margin after its write (a run within it, on a fast machine, still finds it racy).
    await new Promise((r) => setTimeout(r, RACY_MS * 4));
    const second = await ws.index([tree]);
    expect([second.files, second.indexed, second.unchanged, second.bytes]).toEqual([2, 0, 2, statSync(added).size]);
    expect(await recorded(dir)).toEqual({ 'new.ts': 'its own', 'old.ts': 'its own' });
  } finally {
    await ws.close();
  }
});

/** Versions of a table kept on disk (LanceDB writes a manifest per commit). */
const versionsOf = (dir: string, table: string) => readdirSync(path.join(dir, `${table}.lance`, '_versions')).filter((f) => f.endsWith('.manifest')).length;

it('a file whose mtime is in the future (a clock ahead) is trusted on its ctime: an index run with nothing to change writes nothing', async () => {
  const tree = path.join(tmp, 'future-tree');
  mkdirSync(tree, { recursive: true });
  writeFileSync(path.join(tree, 'a.ts'), 'export function retryUpload() { return 1; }\n');
  const future = path.join(tree, 'future.ts');
  writeFileSync(future, 'export function parseConfig() { return 2; }\n');
  // An archive unpacked from a host whose clock runs an hour ahead: the mtime is ahead, the ctime is now.
  const ahead = new Date(Date.now() + 3_600_000);
  utimesSync(future, ahead, ahead);
  await new Promise((r) => setTimeout(r, RACY_MS * 4));
  const dir = path.join(tmp, 'ws-future');
  const ws = createWorkspace({ dir, concurrency: 0 });
  const scan = createSearcher({ concurrency: 0 });
  try {
    expect((await ws.index([tree])).indexed).toBe(2);
    expect(await recorded(dir)).toEqual({ 'a.ts': 'its own', 'future.ts': 'its own' });
    const versions = versionsOf(dir, 'files');
    // Before, future.ts was recorded with an unknown ctime by every run: read again and committed each time.
    const again = await ws.index([tree]);
    expect([again.files, again.indexed, again.unchanged, again.bytes]).toEqual([2, 0, 2, 0]);
    const indexed = await ws.search({ query: 'parse config', paths: [tree], topK: 2 });
    expect(versionsOf(dir, 'files')).toBe(versions);
    const scanned = await scan.search({ query: 'parse config', paths: [tree], topK: 2 });
    const shape = (r: typeof scanned) => r.results.map((x) => [x.filename, x.start, x.end, x.distance.toFixed(6), x.lines.join('\n')]);
    expect(indexed.stats.index).toBeDefined();
    expect(shape(indexed)).toEqual(shape(scanned));
  } finally {
    await ws.close();
    await scan.close();
  }
});
