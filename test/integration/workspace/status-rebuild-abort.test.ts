// Workspace.status({ signal }) while the ranking snapshot is rebuilt from the store (its file lost): the status
// aborted stops at once and the rebuild stops with it when no other load waits for it (trust43: it read and
// chunked every file first); a search waiting for the same rebuild keeps it going; a status that comes just
// after the rebuild was stopped starts another and answers in full (it must not take the stopped one's ABORTED).
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import * as fileChunks from '../../../src/workspace/build/file-chunks.js';
import * as rebuild from '../../../src/workspace/build/snapshot-rebuild.js';
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
    const aborted = ws.status({ signal: stop.signal });
    await expect(aborted).rejects.toMatchObject({ code: 'ABORTED', message: 'status was aborted' });
    // At once, beside the stopped rebuild (before: it joined it and failed with its ABORTED).
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
