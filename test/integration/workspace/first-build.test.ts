// A first build into an empty store takes the short way (no deletes before each commit, file states
// appended, not merged) and must leave exactly the rows any build leaves; a big run says when it has
// embedded everything, before its last commit is written, so the workspace can let its threads go.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearcher } from '../../../src/searcher.js';
import { executorOf } from '../../../src/searcher/seams.js';
import { updateIndex } from '../../../src/workspace/build/indexer.js';
import { openStore } from '../../../src/workspace/store/store.js';
import { createWorkspace } from '../../../src/workspace/workspace.js';
import { loadWalkRecord, walkRecordFile } from '../../../src/workspace/changes/walk-record.js';
import { writeTinyModel } from '../../helpers/tiny-model.js';

let tmp = '';
let tree = '';
let modelDir = '';

const lines = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `function ${prefix}${i}() { return retryUpload(${i}); } // ${prefix} line ${i}`).join('\n');

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-first-'));
  tree = path.join(tmp, 'tree');
  mkdirSync(path.join(tree, 'sub'), { recursive: true });
  writeFileSync(path.join(tree, 'a.ts'), lines('alpha', 200));
  writeFileSync(path.join(tree, 'sub', 'b.ts'), lines('beta', 120));
  writeFileSync(path.join(tree, 'sub', 'c.md'), 'how we retry failed uploads\n\nwith backoff and jitter\n');
  modelDir = await writeTinyModel(path.join(tmp, 'model'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Every file state and chunk row of a workspace's store, relative to the tree. */
async function rowsOf(dir: string): Promise<string[]> {
  const store = await openStore(dir, { dim: 4 });
  try {
    const files = (await store.fileStates()).map((f) => `file ${path.relative(tree, f.key)}:${f.lines}:${f.chunks}`);
    const chunks = (await store.chunkVectors()).map((r) => `chunk ${path.relative(tree, r.path)}:${r.start}-${r.end}`);
    return [...files, ...chunks].sort();
  } finally {
    store.close();
  }
}

describe('a first build', () => {
  it('into an empty store, through overlapping roots, leaves each file and chunk once, as a rebuild over it does', async () => {
    const first = path.join(tmp, 'ws-first');
    const ws = createWorkspace({ dir: first, model: modelDir, concurrency: 0 });
    try {
      const report = await ws.index([tree, path.join(tree, 'sub')]);
      expect([report.files, report.indexed]).toEqual([3, 3]);
    } finally {
      await ws.close();
    }
    const store = await openStore(first, { dim: 4 });
    expect(await store.isEmpty()).toBe(false);
    store.close();
    const rows = await rowsOf(first);
    expect(rows.length).toBe(3 + 5 + 3 + 1);
    expect(new Set(rows).size).toBe(rows.length);

    // The same tree indexed over a store that already holds it (not empty: the long way) keeps the same rows.
    const again = createWorkspace({ dir: first, model: modelDir, concurrency: 0 });
    try {
      writeFileSync(path.join(tree, 'sub', 'c.md'), 'how we retry failed uploads\n\nwith backoff and jitter\n');
      await again.index([tree]);
    } finally {
      await again.close();
    }
    expect(await rowsOf(first)).toEqual(rows);
  });

  it('says once that it has embedded everything, before its last commit is written', async () => {
    // Two commits' worth of lines (a commit holds 65,536).
    const big = path.join(tmp, 'big');
    mkdirSync(big);
    for (let f = 0; f < 3; f++) writeFileSync(path.join(big, `m${f}.ts`), lines(`m${f}x`, 25_000));
    const dir = path.join(tmp, 'ws-big');
    const searcher = createSearcher({ model: modelDir, concurrency: 0 });
    const store = await openStore(dir, { dim: 4 });
    try {
      expect(await store.isEmpty()).toBe(true);
      const seen: { bytesRead: number; filesStored: number }[] = [];
      const report = await updateIndex({
        store, executor: () => executorOf(searcher, false), chunkLines: 48, roots: [big], deleteMissing: true,
        onEmbedded: async (bytesRead) => { seen.push({ bytesRead, filesStored: (await store.fileStates()).length }); },
      });
      expect(report.indexed).toBe(3);
      expect(seen.length).toBe(1);
      expect(seen[0].bytesRead).toBe(report.bytes);
      // The last commit (the third file's state) is not written yet.
      expect(seen[0].filesStored).toBeLessThan(3);
      expect((await store.fileStates()).length).toBe(3);
    } finally {
      store.close();
      await searcher.close();
    }
  });

  it('keeps its walk: the next run checks what changed without listing the tree, and still finds a new file and an edit', async () => {
    const kept = path.join(tmp, 'kept');
    mkdirSync(path.join(kept, 'sub'), { recursive: true });
    writeFileSync(path.join(kept, 'a.ts'), lines('kepta', 30));
    writeFileSync(path.join(kept, 'sub', 'b.ts'), lines('keptb', 30));
    // A directory changed in the 2 s before a walk is not trusted to show its next change (walk-record.ts).
    await new Promise((r) => setTimeout(r, 2100));
    const ws = createWorkspace({ dir: path.join(tmp, 'ws-kept'), model: modelDir, concurrency: 0 });
    try {
      expect((await ws.index([kept])).indexed).toBe(2);
      // The record the next run's check starts from (changesOf), as if it had walked the tree itself.
      const record = loadWalkRecord(walkRecordFile(JSON.stringify([process.cwd(), JSON.stringify(['index', [kept]])]))!);
      expect(record?.entries.map((e) => path.relative(kept, e.path)).sort()).toEqual(['a.ts', path.join('sub', 'b.ts')]);
      // A new file changes its directory, so the record is not trusted; an edit is found by its stat.
      writeFileSync(path.join(kept, 'sub', 'new.ts'), lines('keptnew', 10));
      writeFileSync(path.join(kept, 'a.ts'), lines('keptedit', 31));
      const next = await ws.index([kept]);
      expect([next.files, next.indexed]).toEqual([3, 2]);
    } finally {
      await ws.close();
    }
  });
});
