// The resident walks' watchers (walk-cache.ts) against a real tree and real watchers: what a search
// after a change is handed (the cached walk, or a new one), as search-run.ts asks for it.
import fs, { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { WalkCache, WATCH_OFF, type Walk } from '../../../../src/workspace/changes/walk-cache.js';
import { recordedWalk } from '../../../../src/workspace/changes/walks.js';

let tmp = '';
let root = '';
let cache: WalkCache;
const saved = process.env.SIMGREP_CACHE_DIR;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const walkOnly = (): Promise<Walk> => recordedWalk('k', [root], {}, undefined, true);
const get = (run = walkOnly) => cache.get('k', [root], run);
const files = (w: Walk) => w.entries.map((e) => path.relative(root, e.path)).sort();
/** The cache's own record of a key (its watchers), for the checks no answer shows. */
const inside = () => (cache as unknown as { cached: Map<string, { watchers: Map<string, unknown>; renamed: Set<string>; broken: boolean }> }).cached.get('k')!;

beforeEach(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-walk-cache-'));
  root = path.join(tmp, 'tree');
  mkdirSync(path.join(root, 'src'), { recursive: true });
  writeFileSync(path.join(root, 'src', 'a.ts'), 'const a = 1;\n');
  process.env.SIMGREP_CACHE_DIR = 'off'; // no walk record: every walk lists the tree
  cache = new WalkCache(1);
});
afterEach(() => {
  cache.close();
  if (saved === undefined) delete process.env.SIMGREP_CACHE_DIR; else process.env.SIMGREP_CACHE_DIR = saved;
  rmSync(tmp, { recursive: true, force: true });
});

it('a directory removed between the listing and its watcher drops only that directory: watching goes on', async () => {
  await sleep(30);
  await get();
  mkdirSync(path.join(root, 'flaky'));
  await sleep(30);
  await get(async () => { const w = await walkOnly(); rmSync(path.join(root, 'flaky'), { recursive: true }); return w; });
  expect(inside().broken).toBe(false);
  await sleep(30);
  expect((await get()).cached).toBe(false); // the walk that listed flaky/ is not trusted
  await sleep(30);
  expect((await get()).cached).toBe(true); // before mend37c: false for every later search (watching off)
  writeFileSync(path.join(root, 'src', 'b.ts'), 'const b = 2;\n');
  await sleep(50);
  const s = await get();
  expect([s.cached, files(s.walk)]).toEqual([false, ['src/a.ts', 'src/b.ts']]);
});

it('a file written in a directory made again, after the walk listed it and before its watcher, is found by the next search', async () => {
  mkdirSync(path.join(root, 'again'));
  writeFileSync(path.join(root, 'again', 'first.md'), 'x\n');
  await get(); await sleep(30); await get();
  rmSync(path.join(root, 'again'), { recursive: true });
  mkdirSync(path.join(root, 'again'));
  await sleep(30);
  // The walk lists again/ empty; a file lands there before the walk ends (a checkout still writing).
  await get(async () => { const w = await walkOnly(); writeFileSync(path.join(root, 'again', 'late.md'), 'y\n'); return w; });
  await sleep(50);
  const s = await get();
  expect([s.cached, files(s.walk)]).toEqual([false, ['again/late.md', 'src/a.ts']]); // before: cached, late.md missing
});

it('the watchers of directories deleted for good are closed', async () => {
  await get(); await sleep(30); await get();
  for (let i = 0; i < 50; i++) mkdirSync(path.join(root, `tmp-${i}`));
  await sleep(30);
  await get();
  expect(inside().watchers.size).toBe(52); // the root, src/, the 50
  for (let i = 0; i < 50; i++) rmSync(path.join(root, `tmp-${i}`), { recursive: true });
  await sleep(50);
  await get(); await sleep(30); await get();
  expect([inside().watchers.size, inside().renamed.size]).toEqual([2, 0]); // before: 52 watchers, 50 renamed
});

it('a .gitignore edited in place is walked again, not taken as a file written', async () => {
  mkdirSync(path.join(root, 'logs'));
  writeFileSync(path.join(root, 'logs', 'run.log'), 'x\n');
  writeFileSync(path.join(root, '.gitignore'), '*.log\n');
  await get(); await sleep(30); await get();
  writeFileSync(path.join(root, '.gitignore'), '*.tmp\n'); // the same inode: a 'change' event
  await sleep(50);
  const s = await get();
  // Before: changedDirs ['.'] and the old list, without logs/run.log.
  expect([s.cached, s.changedDirs, files(s.walk)]).toEqual([false, undefined, ['logs/run.log', 'src/a.ts']]);
});

it('a .gitignore above the root, in its repository, is stamped: replacing it walks again', async () => {
  const repo = path.join(tmp, 'repo');
  root = path.join(repo, 'sub');
  mkdirSync(path.join(repo, '.git'), { recursive: true });
  mkdirSync(root);
  writeFileSync(path.join(root, 'a.ts'), 'x\n');
  writeFileSync(path.join(root, 'run.log'), 'x\n');
  writeFileSync(path.join(repo, '.gitignore'), '*.log\n');
  await get(); await sleep(30); await get();
  writeFileSync(path.join(repo, '.gitignore.tmp'), '*.tmp\n');
  renameSync(path.join(repo, '.gitignore.tmp'), path.join(repo, '.gitignore'));
  await sleep(50);
  const s = await get();
  expect([s.cached, files(s.walk)]).toEqual([false, ['a.ts', 'run.log']]); // before: cached, without run.log
});

it('out of inotify watches: the walk comes with a note, once, and every later search walks', async () => {
  for (const d of ['b', 'c', 'd/e']) { mkdirSync(path.join(root, d), { recursive: true }); writeFileSync(path.join(root, d, 'f.md'), 'x\n'); }
  const real = fs.watch;
  let n = 0;
  // The kernel's limit (fs.inotify.max_user_watches) cannot be lowered by a test: the 4th watch fails as it would.
  fs.watch = ((...a: Parameters<typeof fs.watch>) => {
    if (++n > 3) throw Object.assign(new Error('ENOSPC: System limit for number of file watchers reached, watch'), { code: 'ENOSPC' });
    return real(...a);
  }) as typeof fs.watch;
  syncBuiltinESMExports();
  try {
    const first = await get();
    expect(first.note?.message).toBe(WATCH_OFF); // before: nothing said
    expect(first.note?.code).toBe('WATCH_OFF');
    await sleep(30);
    const second = await get();
    expect([second.cached, second.note]).toEqual([false, undefined]);
  } finally {
    fs.watch = real;
    syncBuiltinESMExports();
  }
});

it('a file the directory\'s ignore rules exclude, created where only ignored files lie, does not make the next search walk', async () => {
  mkdirSync(path.join(root, 'logs'));
  writeFileSync(path.join(root, 'logs', 'run-0.log'), 'x\n');
  writeFileSync(path.join(root, '.gitignore'), '*.log\n');
  await sleep(30);
  await get(); await sleep(30); await get();
  let walks = 0;
  const counted = () => { walks++; return walkOnly(); };
  for (let i = 1; i <= 5; i++) { writeFileSync(path.join(root, 'logs', `run-${i}.log`), 'l\n'); await sleep(30); expect((await get(counted)).cached).toBe(true); }
  expect(walks).toBe(0); // before: a walk after each
  writeFileSync(path.join(root, 'logs', 'notes.md'), 'n\n'); // not ignored: walked, found
  await sleep(50);
  const s = await get();
  expect([s.cached, files(s.walk)]).toEqual([false, ['logs/notes.md', 'src/a.ts']]);
});

it('what a search took to save is checked again by every other search until it is saved, and walked again when it is not (mend41b)', async () => {
  const held = () => cache.get('k', [root], walkOnly, true);
  await sleep(30);
  for (let i = 0; i < 5 && !(await get()).cached; i++) await sleep(30); // until a walk is trusted (the tree just made)
  expect((await get()).cached).toBe(true);
  writeFileSync(path.join(root, 'src', 'a.ts'), 'const a = 2;\n');
  await sleep(50);
  const src = fs.realpathSync(path.join(root, 'src'));
  // The first search takes the change to save it; while it saves, another search is told of it too (before:
  // cached, nothing changed, and it answered from the index before the save).
  const saving = await held();
  expect([saving.cached, [...saving.changedDirs!]]).toEqual([false, [src]]);
  const beside = await held();
  expect([beside.cached, [...beside.changedDirs!]]).toEqual([false, [src]]);
  expect((await get()).changedDirs).toEqual(new Set([src]));
  beside.settle!(true);
  expect((await get()).cached).toBe(false); // the first one's save is not in yet
  saving.settle!(true);
  saving.settle!(false); // once only: what was saved stays saved
  expect((await get()).cached).toBe(true);
  // Not saved (aborted before its save, or read for one answer only): the next search walks again.
  writeFileSync(path.join(root, 'src', 'a.ts'), 'const a = 3;\n');
  await sleep(50);
  const cut = await held();
  expect(cut.changedDirs).toEqual(new Set([src]));
  cut.settle!(false);
  const after = await get();
  expect([after.cached, after.changedDirs]).toEqual([false, undefined]);
});

it('a search beside another search\'s walk waits for it and checks every file it found (review of session 41)', async () => {
  await sleep(30);
  for (let i = 0; i < 5 && !(await get()).cached; i++) await sleep(30);
  expect((await get()).cached).toBe(true);
  writeFileSync(path.join(root, 'src', 'new.ts'), 'const n = 1;\n'); // created: the next search walks again
  await sleep(50);
  let release!: () => void;
  const gate = new Promise<void>((r) => { release = r; });
  const first = cache.get('k', [root], async () => { await gate; return walkOnly(); }, true);
  await sleep(20);
  // Before: the cache was marked clean as the walk began, so this one was handed the walk before it, cached.
  const beside = cache.get('k', [root], walkOnly, true);
  await sleep(20);
  release();
  const [f, b] = await Promise.all([first, beside]);
  expect([f.cached, files(f.walk)]).toEqual([false, ['src/a.ts', 'src/new.ts']]);
  expect([b.cached, files(b.walk), b.changedDirs]).toEqual([false, ['src/a.ts', 'src/new.ts'], undefined]);
  f.settle!(true);
  b.settle!(true);
  expect((await get()).cached).toBe(true);
});

it('a fresh walk given back unsaved with the directories of what changed is kept: the next search checks only those (trust43)', async () => {
  mkdirSync(path.join(root, 'lib'));
  writeFileSync(path.join(root, 'lib', 'b.ts'), 'const b = 1;\n');
  await sleep(30);
  let walks = 0;
  const counted = () => { walks++; return walkOnly(); };
  const src = fs.realpathSync(path.join(root, 'src'));
  // The MCP engine's made-up search at its start: a fresh walk, every file checked, a.ts found changed, nothing saved.
  const made = await cache.get('k', [root], counted, true);
  expect([made.cached, made.changedDirs, walks]).toEqual([false, undefined, 1]);
  made.settle!(false, new Set([src]));
  // The agent's first search: the same walk, only src/ to check (before trust43: walked again, every file checked).
  const first = await cache.get('k', [root], counted, true);
  expect([first.cached, first.walk, [...first.changedDirs!], walks]).toEqual([false, made.walk, [src], 1]);
  // A file written in place meanwhile in another directory is named too.
  const again = await cache.get('k', [root], counted, true);
  first.settle!(false, new Set([src]));
  again.settle!(true);
  writeFileSync(path.join(root, 'lib', 'b.ts'), 'const b = 2;\n');
  await sleep(50);
  const next = await cache.get('k', [root], counted, true);
  expect([[...next.changedDirs!].sort(), walks]).toEqual([[fs.realpathSync(path.join(root, 'lib')), src].sort(), 1]);
  // Given back unsaved with no directories named, the next search walks again, as before.
  next.settle!(false);
  const walked = await cache.get('k', [root], counted, true);
  expect([walked.cached, walked.changedDirs, walks]).toEqual([false, undefined, 2]);
  walked.settle!(true);
});
