// Workspace.status({ signal }) while the ranking snapshot is rebuilt from the store (its file lost): the status
// aborted stops at once and the rebuild stops with it when no other load waits for it (trust43: it read and
// chunked every file first); a search waiting for the same rebuild keeps it going; a status that comes just
// after the rebuild was stopped starts another and answers in full (it must not take the stopped one's ABORTED);
// one that comes before the rebuild saw the stop (in the store's reads) takes it back and joins (trust43 review:
// a second rebuild beside it, two copies of the chunk vectors); a status aborted already starts none.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import * as fileChunks from '../../../src/workspace/build/file-chunks.js';
import * as rebuild from '../../../src/workspace/build/snapshot-rebuild.js';
import { openWorkspace } from '../../../src/workspace/open.js';
import { createWorkspace } from '../../../src/workspace/workspace.js';
import { writeTinyModel } from '../../helpers/tiny-model.js';

const FILES = 300;
let tmp = '';
let tree = '';
let wsDir = '';
let model = '';

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-status-rebuild-'));
  model = await writeTinyModel(path.join(tmp, 'model'));
  tree = path.join(tmp, 'tree');
  for (let i = 0; i < FILES; i++) {
    mkdirSync(path.join(tree, `d${i % 10}`), { recursive: true });
    writeFileSync(path.join(tree, `d${i % 10}`, `f${i}.ts`), `export const upload${i} = retry(${i}); // retry failed uploads\n`);
  }
  wsDir = path.join(tmp, 'ws');
  const w = createWorkspace({ dir: wsDir, model, concurrency: 0 });
  await w.index([tree]);
  await w.close();
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
afterEach(() => { vi.restoreAllMocks(); });

/** The snapshot file lost: the next load rebuilds it from the store. */
const loseSnapshot = () => { for (const f of readdirSync(wsDir)) if (/^snapshot\b(?!\.prose)/.test(f)) rmSync(path.join(wsDir, f)); };

/** Aborts `stop` as the rebuild opens its first file; counts the files opened. */
function abortAtFirstFile(stop: AbortController): { opened: () => number } {
  const open = fileChunks.openChunks;
  const spy = vi.spyOn(fileChunks, 'openChunks').mockImplementation((...a: Parameters<typeof open>) => {
    if (spy.mock.calls.length === 1) stop.abort();
    return open(...a);
  });
  return { opened: () => spy.mock.calls.length };
}

it('an aborted status stops the rebuild it alone waited for; a status right after starts another and answers in full', async () => {
  loseSnapshot();
  const ws = createWorkspace({ dir: wsDir, model, concurrency: 0, resident: true });
  try {
    const stop = new AbortController();
    const files = abortAtFirstFile(stop);
    const rebuilds = vi.spyOn(rebuild, 'rebuildSnapshot');
    const aborted = ws.status({ signal: stop.signal });
    await expect(aborted).rejects.toMatchObject({ code: 'ABORTED', message: 'status was aborted' });
    // Once the rebuild has seen the stop (before it, a status takes the stop back and joins: the test below).
    await expect(rebuilds.mock.results[0].value).rejects.toMatchObject({ code: 'ABORTED' });
    // Beside the stopped rebuild (before trust43: it joined it and failed with its ABORTED).
    const next = await ws.status();
    expect(next.files).toBe(FILES);
    // The first rebuild opened 1 file (before: all 300), the second all of them.
    expect(files.opened()).toBe(1 + FILES);
  } finally {
    await ws.close();
  }
});

it('an aborted status does not stop a rebuild a search waits for: the search answers from it', async () => {
  loseSnapshot();
  const ws = createWorkspace({ dir: wsDir, model, concurrency: 0, resident: true });
  try {
    const stop = new AbortController();
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    const open = fileChunks.openChunks;
    // The rebuild held at its first file until the status has aborted.
    const spy = vi.spyOn(fileChunks, 'openChunks').mockImplementation(async (...a: Parameters<typeof open>) => {
      if (spy.mock.calls.length === 1) await gate;
      return open(...a);
    });
    const rebuilds = vi.spyOn(rebuild, 'rebuildSnapshot');
    const searched = ws.search({ query: 'retry failed uploads', paths: [tree], topK: 3 });
    await expect.poll(() => spy.mock.calls.length).toBe(1);
    const aborted = ws.status({ signal: stop.signal });
    stop.abort();
    await expect(aborted).rejects.toMatchObject({ code: 'ABORTED' });
    release();
    const r = await searched;
    expect(r.results.length).toBe(3);
    // One rebuild, read to its end for the search (before the fix too; this pins that the status's abort does not stop it).
    expect(rebuilds.mock.calls.length).toBe(1);
    expect((await rebuilds.mock.results[0].value as { files: unknown[] }).files.length).toBe(FILES);
  } finally {
    await ws.close();
  }
});

/** Holds every rebuild before its first reads of the store (fileStates, chunkVectors: they read no signal) until released. */
function holdRebuilds(): { rebuilds: () => number; release: () => void } {
  let release!: () => void;
  const gate = new Promise<void>((r) => { release = r; });
  const real = rebuild.rebuildSnapshot;
  const spy = vi.spyOn(rebuild, 'rebuildSnapshot').mockImplementation(async (...a: Parameters<typeof real>) => {
    await gate;
    return real(...a);
  });
  return { rebuilds: () => spy.mock.calls.length, release };
}

it('a status that comes after a cancelled one while the rebuild is still in the store\'s reads joins it: one rebuild, not two', async () => {
  loseSnapshot();
  const ws = createWorkspace({ dir: wsDir, model, concurrency: 0, resident: true });
  try {
    const held = holdRebuilds();
    const opened = vi.spyOn(fileChunks, 'openChunks');
    const stop = new AbortController();
    const aborted = ws.status({ signal: stop.signal });
    await expect.poll(held.rebuilds).toBe(1);
    stop.abort();
    await expect(aborted).rejects.toMatchObject({ code: 'ABORTED', message: 'status was aborted' });
    // Before: the stopped rebuild still read every chunk vector, and this status started a second beside it.
    const next = ws.status({ signal: new AbortController().signal });
    held.release();
    expect((await next).files).toBe(FILES);
    expect(held.rebuilds()).toBe(1);
    expect(opened.mock.calls.length).toBe(FILES);
  } finally {
    await ws.close();
  }
});

it('a load whose signal is aborted already starts no rebuild', async () => {
  loseSnapshot();
  // The library's loadSnapshot itself: status checks its signal first, so it meets this only when the signal
  // aborts during its own reads (the meta, the snapshot file).
  const ws = openWorkspace({ dir: wsDir, model, concurrency: 0 });
  try {
    await ws.searcher.model(); // loaded: a rebuild started would reach rebuildSnapshot at once
    const rebuilds = vi.spyOn(rebuild, 'rebuildSnapshot');
    const stop = new AbortController();
    stop.abort();
    await expect(ws.loadSnapshot(undefined, {}, stop.signal)).rejects.toMatchObject({ code: 'ABORTED' });
    // Before: a rebuild of all 300 files that no load waited for, so that nothing could stop it.
    await new Promise((r) => setTimeout(r, 50));
    expect(rebuilds.mock.calls.length).toBe(0);
    expect((await ws.loadSnapshot(undefined, {})).files.length).toBe(FILES);
    expect(rebuilds.mock.calls.length).toBe(1);
  } finally {
    await ws.close();
  }
});
