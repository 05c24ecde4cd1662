// A stopped rebuild of the ranking snapshot stops inside the file it is reading: session 44 left it
// checking the stop only between files, so one big file (100 MB) was read and cut to its end first.
// A real workspace (LanceDB) with one 6 MB file, its snapshot lost; a status whose signal is aborted by
// a timer 20 ms after the rebuild opens the file (as --timeout or an MCP cancellation comes): the
// rebuild stops within a breath (50 ms) of chunks, not after all of them. Each chunk is made to take at
// least SLOW_CHUNK_MS (a busy wait, as real work on a big file would), so all 2,084 take 4 s or more on
// any machine, and the stop (about 50-100 ms of chunks) stays far under the bound however fast it is.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import * as fileChunks from '../../../src/workspace/build/file-chunks.js';
import * as rebuild from '../../../src/workspace/build/snapshot-rebuild.js';
import { createWorkspace } from '../../../src/workspace/workspace.js';
import { writeTinyModel } from '../../helpers/tiny-model.js';

const LINES = 100_000;
const CHUNK_LINES = 48;
/** Wall time each chunk is held, busy (the event loop does not turn): an idle fast core read ~1,000 chunks in 100 ms. */
const SLOW_CHUNK_MS = 2;
let tmp = '';
let wsDir = '';
let model = '';

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-rebuild-in-file-'));
  model = await writeTinyModel(path.join(tmp, 'model'));
  const tree = path.join(tmp, 'tree');
  mkdirSync(tree);
  const lines: string[] = [];
  for (let i = 0; i < LINES; i++) lines.push(`export const upload${i} = retry(${i}); // retry failed uploads`);
  writeFileSync(path.join(tree, 'big.ts'), `${lines.join('\n')}\n`);
  wsDir = path.join(tmp, 'ws');
  const w = createWorkspace({ dir: wsDir, model, concurrency: 0 });
  await w.index([tree]);
  await w.close();
  for (const f of readdirSync(wsDir)) if (/^snapshot\b(?!\.prose)/.test(f)) rmSync(path.join(wsDir, f));
}, 120_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

it('a rebuild stopped while it reads a big file stops within that file', async () => {
  const ws = createWorkspace({ dir: wsDir, model, concurrency: 0, resident: true });
  try {
    const stop = new AbortController();
    let chunks = 0;
    let atAbort = -1;
    const open = fileChunks.openChunks;
    vi.spyOn(fileChunks, 'openChunks').mockImplementation(async (...a: Parameters<typeof open>) => {
      setTimeout(() => { atAbort = chunks; stop.abort(); }, 20);
      const opened = await open(...a);
      return { ...opened, chunks: (async function* () { for await (const c of opened.chunks) {
        chunks++;
        for (const until = performance.now() + SLOW_CHUNK_MS; performance.now() < until;) { /* busy */ }
        yield c;
      } })() };
    });
    const rebuilds = vi.spyOn(rebuild, 'rebuildSnapshot');
    await expect(ws.status({ signal: stop.signal })).rejects.toMatchObject({ code: 'ABORTED' });
    await expect(rebuilds.mock.results[0].value).rejects.toMatchObject({ code: 'ABORTED' });
    const all = Math.ceil(LINES / CHUNK_LINES);
    expect(atAbort).toBeGreaterThanOrEqual(0);
    // Before: every chunk of the file (2,084) was read and cut after the stop. Now about two breaths' worth
    // (50-100 ms at 2 ms a chunk: at most 50; 12 at load 6); the bound is 1 s of chunks, ten times that.
    expect(chunks, `${chunks} chunks read of ${all}, ${atAbort} of them before the stop`).toBeLessThan(1000 / SLOW_CHUNK_MS);
  } finally {
    vi.restoreAllMocks();
    await ws.close();
  }
}, 120_000);
