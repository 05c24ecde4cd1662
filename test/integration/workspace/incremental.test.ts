// Incremental re-indexing: new, changed, shrunk, renamed and deleted files leave exactly the rows
// a fresh build would have (no stale rows after a shrink, no duplicates after a rename), unchanged
// chunks keep their vectors, and answers still equal a one-shot scan.
import { appendFileSync, cpSync, existsSync, mkdtempSync, renameSync, rmSync, writeFileSync, mkdirSync, utimesSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearcher } from '../../../src/searcher.js';
import { createWorkspace, type Workspace } from '../../../src/workspace/workspace.js';
import { openStore } from '../../../src/workspace/store/store.js';
import { writeTinyModel } from '../../helpers/tiny-model.js';

let tmp = '';
let tree = '';
let ws: Workspace;
const oneShot = createSearcher({ concurrency: 0 });

const lines = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `function ${prefix}${i}() { return retryUpload(${i}); } // ${prefix} line ${i}`).join('\n');

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-inc-'));
  tree = path.join(tmp, 'tree');
  mkdirSync(path.join(tree, 'sub'), { recursive: true });
  writeFileSync(path.join(tree, 'a.ts'), lines('alpha', 200));
  writeFileSync(path.join(tree, 'b.ts'), lines('beta', 120));
  writeFileSync(path.join(tree, 'sub', 'c.md'), 'how we retry failed uploads\n\nwith backoff and jitter\n');
  ws = createWorkspace({ dir: path.join(tmp, 'ws'), concurrency: 1 });
});
afterAll(async () => {
  await ws?.close();
  await oneShot.close();
  rmSync(tmp, { recursive: true, force: true });
});

async function rows(): Promise<string[]> {
  const store = await openStore(path.join(tmp, 'ws'), { dim: (await oneShot.model()).dim });
  try {
    const files = (await store.fileStates()).map((f) => `${path.relative(tree, f.key)}:${f.lines}:${f.chunks}`).sort();
    const chunks = (await store.chunkVectors()).map((r) => `${path.relative(tree, r.path)}:${r.start}-${r.end}`).sort();
    return [...files, ...chunks].sort();
  } finally {
    store.close();
  }
}

async function sameAsOneShot(query: string): Promise<void> {
  const a = await oneShot.search({ query, paths: [tree], topK: 5 });
  const b = await ws.search({ query, paths: [tree], topK: 5 });
  const shape = (r: typeof a) => r.results.map((x) => [x.filename, x.start, x.end, x.match_line, x.distance.toFixed(6), x.lines.join('\n')]);
  expect(b.stats.index).toBeDefined();
  expect(shape(b)).toEqual(shape(a));
}

/** A file's mtime moved without a content change must not look "unchanged" by accident: bump it. */
function touch(p: string, s: number): void { utimesSync(p, s, s); }

describe('incremental indexing', () => {
  it('builds, then re-runs without work', async () => {
    const first = await ws.index([tree]);
    expect([first.files, first.indexed, first.chunks]).toEqual([3, 3, 5 + 3 + 1]);
    const again = await ws.index([tree]);
    expect([again.indexed, again.unchanged, again.chunks, again.deleted]).toEqual([0, 3, 0, 0]);
    expect(await rows()).toEqual(['a.ts:200:5', 'b.ts:120:3', 'sub/c.md:3:1', 'a.ts:0-48', 'a.ts:144-192', 'a.ts:192-200', 'a.ts:48-96', 'a.ts:96-144', 'b.ts:0-48', 'b.ts:48-96', 'b.ts:96-120', 'sub/c.md:0-3'].sort());
  });

  it('a file that shrinks loses its stale chunks; an append re-embeds only the changed chunk', async () => {
    writeFileSync(path.join(tree, 'a.ts'), lines('alpha', 60));
    touch(path.join(tree, 'a.ts'), 2_000_000_000);
    const r = await ws.index([tree]);
    expect([r.indexed, r.chunks, r.reused]).toEqual([1, 2, 1]);
    expect((await rows()).filter((x) => x.startsWith('a.ts'))).toEqual(['a.ts:0-48', 'a.ts:48-60', 'a.ts:60:2'].sort());
    appendFileSync(path.join(tree, 'b.ts'), '\n// one more line about uploads');
    const r2 = await ws.index([tree]);
    expect([r2.indexed, r2.chunks, r2.reused]).toEqual([1, 3, 2]);
    await sameAsOneShot('retry the upload');
  });

  it('a touched but unchanged file is not re-embedded', async () => {
    touch(path.join(tree, 'b.ts'), 2_100_000_000);
    const r = await ws.index([tree]);
    expect([r.indexed, r.unchanged, r.chunks]).toEqual([0, 3, 0]);
  });

  it('renamed and deleted files leave no rows behind', async () => {
    renameSync(path.join(tree, 'b.ts'), path.join(tree, 'sub', 'b2.ts'));
    rmSync(path.join(tree, 'sub', 'c.md'));
    const r = await ws.index([tree]);
    expect([r.indexed, r.deleted]).toEqual([1, 2]);
    expect(await rows()).toEqual(['a.ts:60:2', 'sub/b2.ts:121:3', 'a.ts:0-48', 'a.ts:48-60', 'sub/b2.ts:0-48', 'sub/b2.ts:48-96', 'sub/b2.ts:96-121'].sort());
    await sameAsOneShot('how we retry failed uploads');
  });

  it('a search re-indexes what changed first, and its answer is fresh', async () => {
    writeFileSync(path.join(tree, 'sub', 'new.md'), 'the quarterly invoice reconciliation job\n');
    const r = await ws.search({ query: 'quarterly invoice reconciliation', paths: [tree], topK: 1 });
    expect(r.stats.index).toEqual({ workspace: 'ws', refreshed: 1 });
    expect(r.results[0].filename).toBe(path.join(tree, 'sub', 'new.md'));
    await sameAsOneShot('quarterly invoice reconciliation');
  });

  it('an index built with another model is not used: the search scans, says why, and answers as a scan does', async () => {
    await ws.index([tree]);
    const modelDir = await writeTinyModel(path.join(tmp, 'tiny-model'));
    const other = createWorkspace({ dir: path.join(tmp, 'ws'), model: modelDir, concurrency: 1, statThreadFromFiles: 0 });
    const scan = createSearcher({ model: modelDir, concurrency: 0 });
    try {
      const r = await other.search({ query: 'retry failed uploads', paths: [tree] });
      expect(r.stats.index).toBeUndefined();
      expect(r.warnings.filter((w) => w.code === 'INDEX_NOT_USED').map((w) => w.message)).toEqual([
        `workspace ws not used: it was built with model ${(await oneShot.model()).id}, not ${modelDir}; run simgrep index to rebuild it`,
      ]);
      const a = await scan.search({ query: 'retry failed uploads', paths: [tree] });
      expect(r.results).toEqual(a.results);
    } finally {
      await other.close();
      await scan.close();
    }
  });

  it('the fingerprint message prints the same model path twice: a model changed at the same path is named once, as changed', async () => {
    const modelDir = path.join(tmp, 'same-path-model');
    await writeTinyModel(modelDir);
    const dir = path.join(tmp, 'ws-same-path');
    const first = createWorkspace({ dir, model: modelDir, concurrency: 1, statThreadFromFiles: 0 });
    await first.index([tree]);
    await first.close();
    // Another model's files at the same path: same id, other vectors.
    rmSync(modelDir, { recursive: true, force: true });
    cpSync((await oneShot.model()).dir, modelDir, { recursive: true });
    const again = createWorkspace({ dir, model: modelDir, concurrency: 1, statThreadFromFiles: 0 });
    try {
      const r = await again.search({ query: 'retry failed uploads', paths: [tree] });
      expect(r.warnings.filter((w) => w.code === 'INDEX_NOT_USED').map((w) => w.message)).toEqual([
        `workspace ws-same-path not used: model ${modelDir} has changed since it was built (its files are not the ones the index was built with); run simgrep index to rebuild it`,
      ]);
    } finally {
      await again.close();
    }
  });

  it('prune drops files that no longer exist', async () => {
    rmSync(path.join(tree, 'sub', 'new.md'));
    expect(await ws.prune()).toEqual({ deleted: 1, droppedRoots: [] });
    const s = await ws.status();
    expect([s.files, s.chunks, s.lines]).toEqual([2, 5, 181]);
  });
});

describe('a long-lived workspace', () => {
  it('skips the freshness walk while nothing changes, and sees a write made just before a search', async () => {
    const query = { query: 'reconcile the ledger entries', paths: [tree], topK: 1 };
    await ws.search(query);
    await ws.search(query); // the second search of these paths starts watching them
    const quiet = await ws.search(query);
    expect(quiet.stats.index?.refreshed).toBe(0);
    writeFileSync(path.join(tree, 'ledger.md'), 'reconcile the ledger entries every night\n');
    const fresh = await ws.search(query);
    expect(fresh.stats.index?.refreshed).toBe(1);
    expect(fresh.results[0].filename).toBe(path.join(tree, 'ledger.md'));
    rmSync(path.join(tree, 'ledger.md'));
    const gone = await ws.search(query);
    expect(gone.results[0]?.filename).not.toBe(path.join(tree, 'ledger.md'));
  });
});

describe('a long-lived workspace re-indexing', () => {
  it('finds a file written in place from its directory alone, and looks at everything again after a run that failed', async () => {
    await ws.index([tree]);
    await ws.index([tree]); // watched from the second run of these paths
    const b2 = path.join(tree, 'sub', 'b2.ts');
    appendFileSync(b2, '\n// settle the ledger at night');
    const r = await ws.index([tree]);
    expect([r.files, r.indexed, r.unchanged]).toEqual([2, 1, 1]);
    // A run that saw a change but could not write it (another writer holds the lock) must not lose it.
    appendFileSync(b2, '\n// and reconcile it again');
    const lock = path.join(tmp, 'ws', '.simgrep-lock');
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), started: 'now' }));
    await expect(ws.index([tree])).rejects.toThrow(/is being updated by process/);
    rmSync(lock);
    const after = await ws.index([tree]);
    expect([after.indexed, after.unchanged]).toEqual([1, 1]);
    await sameAsOneShot('reconcile the ledger at night');
  });
});

describe('a lost snapshot', () => {
  it('is rebuilt from the store and the files; a file touched meanwhile is re-indexed in full, not taken as unchanged by its hash', async () => {
    const dir = path.join(tmp, 'ws-lost');
    const sub = path.join(tmp, 'lost-tree');
    mkdirSync(sub, { recursive: true });
    writeFileSync(path.join(sub, 'a.md'), 'the quarterly invoice reconciliation job\n');
    writeFileSync(path.join(sub, 'b.md'), 'a retry loop for failed uploads\n');
    const first = createWorkspace({ dir, concurrency: 0 });
    await first.index([sub]);
    await first.close();
    rmSync(path.join(dir, 'snapshot.bin'));
    // Touched, same content: the rebuild cannot trust the file, and its hash still matches the store's.
    touch(path.join(sub, 'b.md'), 2_200_000_000);
    const again = createWorkspace({ dir, concurrency: 0 });
    try {
      const r = await again.search({ query: 'retry failed uploads', paths: [sub], topK: 1 });
      expect(r.stats.index?.refreshed).toBe(1);
      expect(r.results[0]?.filename).toBe(path.join(sub, 'b.md'));
      const a = await oneShot.search({ query: 'retry failed uploads', paths: [sub], topK: 1 });
      expect(r.results.map((x) => [x.filename, x.distance.toFixed(6)])).toEqual(a.results.map((x) => [x.filename, x.distance.toFixed(6)]));
    } finally {
      await again.close();
    }
  });
});

describe('small changes to a larger workspace', () => {
  it('are appended (a delta beside the snapshot) and answer as a scan does, in this process and in a new one', async () => {
    const dir = path.join(tmp, 'ws-delta');
    const big = path.join(tmp, 'big-tree');
    mkdirSync(big, { recursive: true });
    const topics = ['retry failed uploads', 'parse the config file', 'open a database connection', 'render the profile page', 'hash the password'];
    for (let i = 0; i < 40; i++) writeFileSync(path.join(big, `m${i}.ts`), lines(`${topics[i % 5].split(' ')[0]}Step`, 30) + `\n// ${topics[i % 5]} in module ${i}\n`);
    const queries = ['retry the failed upload', 'config file parser', 'hashPassword'];
    const compare = async (w: Workspace) => {
      for (const query of queries) {
        const a = await oneShot.search({ query, paths: [big], topK: 5 });
        const b = await w.search({ query, paths: [big], topK: 5 });
        const shape = (r: typeof a) => r.results.map((x) => [x.filename, x.start, x.end, x.match_line, x.distance.toFixed(6)]);
        expect(shape(b)).toEqual(shape(a));
      }
    };
    const first = createWorkspace({ dir, concurrency: 0 });
    try {
      await first.index([big]);
      writeFileSync(path.join(big, 'm3.ts'), lines('hashPassword', 12) + '\n// retry failed uploads with backoff\n');
      rmSync(path.join(big, 'm7.ts'));
      writeFileSync(path.join(big, 'm40.ts'), '// parse the config file, then retry failed uploads\nexport function parseConfigRetry() {}\n');
      const r = await first.index([big]);
      expect([r.indexed, r.deleted]).toEqual([2, 1]);
      expect(existsSync(path.join(dir, 'snapshot.delta.bin'))).toBe(true);
      await compare(first);
      expect((await first.status()).files).toBe(40);
    } finally {
      await first.close();
    }
    const second = createWorkspace({ dir, concurrency: 0 });
    try {
      await compare(second);
      const s = await second.status();
      expect([s.files, s.chunks]).toEqual([40, 40]); // one chunk a file: dead chunks are not counted
    } finally {
      await second.close();
    }
  });
});
