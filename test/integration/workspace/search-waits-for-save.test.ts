// Two searches of one resident workspace where files changed: the first saves them; one beside that save (the
// review of session 41). Before save42 the second took the save under way for an index run's: it read the changed
// files again for its own answer (pending N) and made the search after it walk the whole tree again; and a search
// cut by --timeout during its save handed the walk back as unsaved while the save still wrote, so the next walked
// the whole tree and read the files again too. Now a search waits for another search's save and answers from the
// index it wrote, and a cut search's save settles the walk when it ends. Full walks are counted at the walk cache.
// A search of other paths does not wait behind that save, and one aborted while it waits stops at once (review of save42).
// The three tests that cut or abort a search in the save of 1,000 files of 150 lines share that tree and its index
// (built once: the build was most of each test's time), each changing every file anew (ci46).
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import * as indexer from '../../../src/workspace/build/indexer.js';
import { WalkCache } from '../../../src/workspace/changes/walk-cache.js';
import * as walkFns from '../../../src/workspace/changes/walks.js';
import { waitsBehind } from '../../../src/workspace/lock.js';
import { createWorkspace, type Workspace } from '../../../src/workspace/workspace.js';
import { writeTinyModel } from '../../helpers/tiny-model.js';

let tmp = '';
let modelDir = '';
const FILES = 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-waits-save-'));
  modelDir = await writeTinyModel(path.join(tmp, 'model'));
});
afterAll(async () => {
  await (await big150)?.ws.close();
  rmSync(tmp, { recursive: true, force: true });
});
afterEach(() => { vi.restoreAllMocks(); });

/** A tree of FILES files of `lines` lines in 10 directories, indexed by a resident workspace whose walk is watched. */
async function indexedTree(name: string, lines: number): Promise<{ ws: Workspace; tree: string; lock: string }> {
  const tree = path.join(tmp, name);
  for (let i = 0; i < FILES; i++) {
    mkdirSync(path.join(tree, `d${i % 10}`), { recursive: true });
    writeFileSync(path.join(tree, `d${i % 10}`, `upload${i}.ts`), uploads(i, lines));
  }
  const dir = path.join(tmp, `ws-${name}`);
  const ws = createWorkspace({ dir, model: modelDir, concurrency: 0, resident: true });
  await ws.index([tree]);
  return { ws, tree, lock: path.join(dir, '.simgrep-lock') };
}
const uploads = (i: number, lines: number) => Array.from({ length: lines }, (_, j) => `export function retryUpload${i}_${j}(n: number) { return n + ${i * j}; } // retry failed uploads ${j}`).join('\n') + '\n';

/**
 * Two searches of the indexed tree (its walk recorded, its index current), then every file changed: each file is
 * its first content and one line that names this change (`mark`), which no earlier change left, so an answer
 * that shows the mark was read from this change.
 */
async function changeEveryFile(t: { ws: Workspace; tree: string; lock: string }, lines: number, mark: string): Promise<void> {
  // What a test before left on a shared tree: a save under way ends before the searches that bring the index up to date.
  for (const end = Date.now() + 60_000; waitsBehind(t.lock, []) !== 'nothing' && Date.now() < end;) await sleep(20);
  for (const q of ['warm one', 'warm two']) await t.ws.search({ query: q, paths: [t.tree], topK: 3 });
  for (let i = 0; i < FILES; i++) writeFileSync(path.join(t.tree, `d${i % 10}`, `upload${i}.ts`), `${uploads(i, lines)}// changed ${i} ${mark}: invoice socket parser\n`);
  await sleep(200);
}

/** A tree of FILES files of 40 lines in its own resident workspace; then every file changed. */
async function changedTree(name: string): Promise<{ ws: Workspace; tree: string; lock: string }> {
  const t = await indexedTree(name, 40);
  await changeEveryFile(t, 40, name);
  return t;
}

/**
 * The tree of FILES files of 150 lines (the save of all of them takes seconds) that the three tests cutting or
 * aborting a search during that save share: built and indexed once (most of a test's time before), then every
 * file changed anew for each test (`mark`, its name). Each test starts as on its own tree: the index current,
 * the walk recorded, every file changed since.
 */
let big150: Promise<{ ws: Workspace; tree: string; lock: string }> | undefined;
async function changedBigTree(mark: string): Promise<{ ws: Workspace; tree: string; lock: string }> {
  big150 ??= indexedTree('big150', 150);
  const t = await big150;
  await changeEveryFile(t, 150, mark);
  return t;
}

/** Whole walks of the tree (the walk cache's walkAgain), from now on. */
function countWalks(): { count: () => number } {
  const spy = vi.spyOn(WalkCache.prototype as unknown as { walkAgain: (...a: unknown[]) => Promise<unknown> }, 'walkAgain');
  return { count: () => spy.mock.calls.length };
}

async function whileSaving(lock: string): Promise<void> {
  for (const end = Date.now() + 60_000; waitsBehind(lock, []) === 'nothing' && Date.now() < end;) await new Promise((r) => setImmediate(r));
  expect(waitsBehind(lock, []) !== 'nothing').toBe(true);
}

it('a search beside another search\'s save waits for it and answers from the index it wrote; the next does not walk again', async () => {
  const { ws, tree, lock } = await changedTree('beside');
  try {
    const walks = countWalks();
    const checks = vi.spyOn(walkFns, 'staleEntries');
    const reads = vi.spyOn(indexer, 'updateIndex');
    const q = { query: 'invoice socket parser', paths: [tree], topK: 3 };
    const first = ws.search({ ...q, query: 'retry failed uploads' });
    await whileSaving(lock);
    const beside = await ws.search(q);
    expect((await first).stats.index).toEqual({ workspace: ws.name, refreshed: FILES });
    // Without timing: the search beside found the 1,000 files stale (it ran beside the save, not after it), then
    // found none left when its turn for the lock came, and read none of them (one read: the first's save).
    // Before: { refreshed: 1000, pending: 1000 }, every changed file read again beside the save (two reads).
    const stale = await Promise.all(checks.mock.results.map((r) => (r.value as Promise<unknown[]>).then((x) => x.length)));
    expect(stale).toEqual([FILES, FILES, 0]);
    expect(reads.mock.calls.length).toBe(1);
    expect(beside.stats.index).toEqual({ workspace: ws.name, refreshed: 0 });
    const later = await ws.search(q);
    expect(beside.results).toEqual(later.results);
    expect(later.results[0].lines.join('\n')).toContain('beside: invoice socket parser');
    // Before: 1 (the search beside gave its walk back as unsaved).
    expect(walks.count()).toBe(0);
  } finally {
    await ws.close();
  }
}, 180_000);

/** A search cut by --timeout inside its save of the 1,000 changed files (past its walk and check, tens of ms; the save takes seconds). */
async function cutInSave(ws: Workspace, tree: string, lock: string): Promise<void> {
  const cut = await ws.search({ query: 'retry failed uploads', paths: [tree], topK: 3, timeoutMs: 800 });
  expect(cut.warnings.map((w) => w.code)).toEqual(['TIMEOUT']);
  expect(waitsBehind(lock, []) !== 'nothing').toBe(true); // its save goes on to its end
}

it('a search cut by --timeout during its save: the next, beside the save, waits for it; the one after does not walk again', async () => {
  const { ws, tree, lock } = await changedBigTree('cut');
  const walks = countWalks();
  const q = { query: 'invoice socket parser', paths: [tree], topK: 3 };
  await cutInSave(ws, tree, lock);
  const beside = await ws.search(q);
  // Before: { refreshed: 1000, pending: 1000 }, after a whole walk of the tree.
  expect(beside.stats.index).toEqual({ workspace: ws.name, refreshed: 0 });
  const later = await ws.search(q);
  expect(beside.results).toEqual(later.results);
  expect(later.results[0].lines.join('\n')).toContain('cut: invoice socket parser');
  // Before: 2 (the cut search's walk given back as unsaved, then the search beside's).
  expect(walks.count()).toBe(0);
}, 180_000);

it('a search cut by --timeout during its save: the next, after the save, answers from it without walking again', async () => {
  const { ws, tree, lock } = await changedBigTree('cut-after');
  const walks = countWalks();
  await cutInSave(ws, tree, lock);
  for (const end = Date.now() + 60_000; waitsBehind(lock, []) !== 'nothing' && Date.now() < end;) await sleep(20);
  const next = await ws.search({ query: 'invoice socket parser', paths: [tree], topK: 3 });
  expect(next.stats.index).toEqual({ workspace: ws.name, refreshed: 0 });
  expect(next.results[0].lines.join('\n')).toContain('cut-after: invoice socket parser');
  // Before: 1 (the cut gave the walk back as unsaved: the tree walked and every file stat'ed again).
  expect(walks.count()).toBe(0);
}, 180_000);

/**
 * One workspace over root/big (FILES files of 150 lines) and root/small (5 files), each path searched twice (its walk
 * watched); then every file of big changed and one of small.
 */
async function bigAndSmall(name: string): Promise<{ ws: Workspace; big: string; small: string; lock: string }> {
  const root = path.join(tmp, name);
  const big = path.join(root, 'big');
  const small = path.join(root, 'small');
  for (let i = 0; i < FILES; i++) {
    mkdirSync(path.join(big, `d${i % 10}`), { recursive: true });
    writeFileSync(path.join(big, `d${i % 10}`, `u${i}.ts`), Array.from({ length: 150 }, (_, j) => `export function retryUpload${i}_${j}(n: number) { return n + ${i * j}; } // retry failed uploads ${j}`).join('\n') + '\n');
  }
  mkdirSync(small, { recursive: true });
  for (let i = 0; i < 5; i++) writeFileSync(path.join(small, `s${i}.ts`), `export const s${i} = ${i}; // small file\n`);
  const dir = path.join(tmp, `ws-${name}`);
  const ws = createWorkspace({ dir, model: modelDir, concurrency: 0, resident: true });
  await ws.index([root]);
  for (const p of [big, small]) for (const q of ['warm one', 'warm two']) await ws.search({ query: q, paths: [p], topK: 3 });
  for (let i = 0; i < FILES; i++) appendFileSync(path.join(big, `d${i % 10}`, `u${i}.ts`), `// changed ${i}: invoice socket parser\n`);
  appendFileSync(path.join(small, 's0.ts'), '// invoice socket parser\n');
  await sleep(200);
  return { ws, big, small, lock: path.join(dir, '.simgrep-lock') };
}

it('a search of other paths beside a search\'s save does not wait for it: it reads its own changed file for its answer', async () => {
  const { ws, big, small, lock } = await bigAndSmall('other-paths');
  try {
    const first = ws.search({ query: 'retry failed uploads', paths: [big], topK: 3 });
    await whileSaving(lock);
    // Its --timeout is far shorter than the save of big (seconds): waiting for that save, it was cut.
    const beside = await ws.search({ query: 'invoice socket parser', paths: [small], topK: 1, timeoutMs: 1000 });
    // Before: TIMEOUT, no results (it queued behind the save of big); without the timeout { refreshed: 1 }, after it.
    expect(beside.warnings.map((w) => w.code)).toEqual(['QUERY_WORDS_ONLY']); // the tiny model knows none of its words
    expect(beside.stats.index).toEqual({ workspace: ws.name, refreshed: 1, pending: 1 });
    expect(beside.results.map((r) => [path.basename(r.filename), r.lines.join('\n')])).toEqual([['s0.ts', 'export const s0 = 0; // small file\n// invoice socket parser']]);
    expect((await first).stats.index).toEqual({ workspace: ws.name, refreshed: FILES });
  } finally {
    await ws.close();
  }
}, 180_000);

it('a search aborted while it waits for another search\'s save stops at once; its save, later, finds nothing left', async () => {
  const { ws, tree, lock } = await changedBigTree('abort-waiting');
  const walks = countWalks();
  const q = { query: 'invoice socket parser', paths: [tree], topK: 3 };
  const first = ws.search({ ...q, query: 'retry failed uploads' });
  await whileSaving(lock);
  const stop = new AbortController();
  const waiting = ws.search({ ...q, signal: stop.signal }).then(
    () => 'answered',
    (e: { code?: string }) => ({ code: e.code, saveAheadStillWriting: waitsBehind(lock, []) !== 'nothing' }),
  );
  await sleep(100);
  stop.abort();
  // Before: ABORTED only once the save ahead of it had ended (2 s after the abort).
  expect(await waiting).toEqual({ code: 'ABORTED', saveAheadStillWriting: true });
  expect((await first).stats.index).toEqual({ workspace: ws.name, refreshed: FILES });
  for (const end = Date.now() + 60_000; waitsBehind(lock, []) !== 'nothing' && Date.now() < end;) await sleep(20);
  const later = await ws.search(q);
  expect(later.stats.index).toEqual({ workspace: ws.name, refreshed: 0 });
  expect(later.results[0].lines.join('\n')).toContain('abort-waiting: invoice socket parser');
  expect(walks.count()).toBe(0);
}, 180_000);
