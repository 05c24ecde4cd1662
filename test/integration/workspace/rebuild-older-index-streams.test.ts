// A snapshot rebuilt from an index written before simgrep kept the ctime (every file's ctime unknown)
// hashes each local file as its chunks stream: ctime46 first read such a file whole into memory to
// hash it (collectBytes), where the rebuild of a stat'ed file streams it, so a 100 MB file cost 100 MB.
// A real workspace (LanceDB, its files table without the ctime column, its snapshot lost) over a 12 MB
// file (read by the fs source in 1 MiB pieces), a small one and one edited keeping its size and mtime.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { RANK_DEFAULTS } from '../../../src/rank/plan.js';
import { createFsSource } from '../../../src/sources/fs.js';
import { STREAM_CHUNK_BYTES, WHOLE_READ_BYTES, type Source } from '../../../src/sources/source.js';
import * as fileChunks from '../../../src/workspace/build/file-chunks.js';
import { rebuildSnapshot } from '../../../src/workspace/build/snapshot-rebuild.js';
import { UNKNOWN_CTIME } from '../../../src/workspace/changes/file-identity.js';
import { openStore } from '../../../src/workspace/store/store.js';
import { createWorkspace } from '../../../src/workspace/workspace.js';
import { writeTinyModel } from '../../helpers/tiny-model.js';

let tmp = '';
let tree = '';
let wsDir = '';
const big = () => path.join(tree, 'big.ts');

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-rebuild-older-'));
  const model = await writeTinyModel(path.join(tmp, 'model'));
  tree = path.join(tmp, 'tree');
  mkdirSync(tree);
  const lines: string[] = [];
  for (let i = 0; lines.length * 48 < WHOLE_READ_BYTES + (2 << 20); i++) lines.push(`export const upload${i} = retry(${i}); // retry it`);
  writeFileSync(big(), `${lines.join('\n')}\n`);
  writeFileSync(path.join(tree, 'small.ts'), 'export function parseConfig() { return 2; }\n');
  writeFileSync(path.join(tree, 'edited.ts'), 'export function retryUpload() { return 1; }\n');
  wsDir = path.join(tmp, 'ws');
  const w = createWorkspace({ dir: wsDir, model, concurrency: 0 });
  await w.index([tree]);
  await w.close();
  // The older simgrep's index: no ctime column, and no snapshot (rebuilt from the store).
  const lancedb = await import('@lancedb/lancedb');
  const db = await lancedb.connect(wsDir);
  const files = await db.openTable('files');
  await files.dropColumns(['ctime']);
  files.close();
  db.close();
  for (const f of readdirSync(wsDir)) if (f.startsWith('snapshot')) rmSync(path.join(wsDir, f));
  // The same size and mtime, other bytes: only its hash tells.
  const edited = path.join(tree, 'edited.ts');
  const st = statSync(edited);
  writeFileSync(edited, 'export function retryUpload() { return 7; }\n');
  utimesSync(edited, st.atime, st.mtime);
}, 180_000);
afterAll(() => { vi.restoreAllMocks(); rmSync(tmp, { recursive: true, force: true }); });

it('a rebuild of an older index hashes a big local file as it streams, not read whole first', async () => {
  const fs = createFsSource({ paths: [] });
  let read = 0;
  const reader: Source = {
    ...fs,
    async *stream(entry, signal) { for await (const c of fs.stream!(entry, signal)) { if (entry.path === big()) read += c.length; yield c; } },
  };
  // The bytes of big.ts read when its first chunk is cut.
  let atFirstChunk = -1;
  const open = fileChunks.openChunks;
  vi.spyOn(fileChunks, 'openChunks').mockImplementation(async (...a: Parameters<typeof open>) => {
    const opened = await open(...a);
    return { ...opened, chunks: (async function* () { for await (const c of opened.chunks) { if (atFirstChunk < 0 && read > 0) atFirstChunk = read; yield c; } })() };
  });
  const store = await openStore(wsDir, { dim: 4 });
  try {
    const states = await store.fileStates();
    expect(states.map((s) => s.ctime)).toEqual([UNKNOWN_CTIME, UNKNOWN_CTIME, UNKNOWN_CTIME]);
    const snap = await rebuildSnapshot(store, await store.version(), 4, RANK_DEFAULTS.chunkLines, reader);
    const size = statSync(big()).size;
    expect(read).toBe(size);
    // Before: all of it (12 MB) was read before its first chunk. Now a piece or two (1 MiB each).
    expect(atFirstChunk, `${atFirstChunk} of ${size} bytes read at the first chunk`).toBeLessThanOrEqual(2 * STREAM_CHUNK_BYTES);
    // The hash still decides: the unchanged files are kept with their chunks, the edited one is stale.
    const fresh = Object.fromEntries(snap.files.map((f) => [path.basename(f.key), f.mtime !== -1 && f.chunkCount > 0]));
    expect(fresh).toEqual({ 'big.ts': true, 'edited.ts': false, 'small.ts': true });
  } finally {
    store.close();
    vi.restoreAllMocks();
  }
}, 120_000);
