// A workspace whose root is reached through a symlink keys its files by their real paths (sources/
// real-paths.ts), and a resident one still sees a file written in place (its watchers name directories
// by the link's path). An index that an older simgrep left holding a tree twice (its files keyed by a symlink's path as well
// as by the real path its roots name: every postings list then out of order) heals: the next index run,
// or the next search that saves what changed, drops the files under none of the workspace's roots
// (file-identity.ts orphanKeys), and nothing else. The doubled state is made as that simgrep made it:
// the link's files indexed with keys made from their paths as walked, through the updater seam.
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSearcher } from '../../../src/searcher.js';
import { createFsSource } from '../../../src/sources/fs.js';
import type { Entry } from '../../../src/sources/source.js';
import { updateIndex } from '../../../src/workspace/build/indexer.js';
import { createWorkspace, type Workspace } from '../../../src/workspace/workspace.js';

let tmp = '';
let real = '';
let link = '';
const FILES = 21;
const scan = createSearcher({ concurrency: 0 });
const opened: Workspace[] = [];
const open = (dir: string, o: Parameters<typeof createWorkspace>[0] = {}) => {
  const ws = createWorkspace({ dir, concurrency: 0, ...o });
  opened.push(ws);
  return ws;
};

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-symlink-heal-'));
  real = path.join(tmp, 'real');
  link = path.join(tmp, 'link');
  mkdirSync(path.join(real, 'src'), { recursive: true });
  for (let i = 0; i < FILES - 1; i++) writeFileSync(path.join(real, 'src', `upload${i}.ts`), `export function retryUpload${i}(file: string) {\n  return backoff(() => send(file, ${i}));\n}\n`);
  // Big enough (~700 KB) that a change to it is saved by a one-shot search, not read for its answer only.
  writeFileSync(path.join(real, 'src', 'checksums.ts'), Array.from({ length: 12_000 }, (_, i) => `export const block${i} = checksum("block ${i} of the upload");`).join('\n'));
  symlinkSync(real, link);
});
afterAll(async () => {
  for (const ws of opened) await ws.close();
  await scan.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** A workspace in `dir` indexing `real`, with the tree indexed a second time under the link's paths. */
async function doubled(dir: string): Promise<void> {
  const entries: Entry[] = [];
  for await (const e of createFsSource({ paths: [link] }).list()) entries.push(e);
  // The older simgrep's keys: each file's path as walked, made absolute (no root named: nothing resolved).
  const ws = open(dir, { clusterIndex: async () => (o) => updateIndex({ ...o, roots: [], entries, deleteMissing: false, within: undefined }) });
  expect((await ws.index([real])).indexed).toBe(FILES);
  expect((await ws.index([real], { cluster: 'redis://an-older-simgrep' })).indexed).toBe(FILES);
  const st = await ws.status();
  expect([st.files, st.roots]).toEqual([2 * FILES, [real]]);
  await ws.close();
}

const query = { query: 'retry the upload with backoff', topK: 5 };

it('the next index run drops the copy under the link, and nothing else', async () => {
  const dir = path.join(tmp, 'ws-index');
  await doubled(dir);
  const ws = open(dir);
  const report = await ws.index([link]);
  expect([report.indexed, report.deleted, report.unchanged]).toEqual([0, FILES, FILES]);
  expect((await ws.status()).files).toBe(FILES);
  // ... and the next finds nothing to do.
  expect((await ws.index([real])).deleted).toBe(0);
  const [indexed, scanned] = [await ws.search({ ...query, paths: [link] }), await scan.search({ ...query, paths: [link] })];
  expect(indexed.stats.index).toEqual({ workspace: expect.any(String), refreshed: 0 });
  expect(indexed.results).toEqual(scanned.results);
});

it('the next search that saves what changed drops the copy under the link too', async () => {
  const dir = path.join(tmp, 'ws-search');
  await doubled(dir);
  appendFileSync(path.join(real, 'src', 'checksums.ts'), '\n// changed\n');
  const ws = open(dir, { oneShot: true });
  const [indexed, scanned] = [await ws.search({ ...query, paths: [link] }), await scan.search({ ...query, paths: [link] })];
  expect(indexed.stats.index).toEqual({ workspace: expect.any(String), refreshed: 1 });
  expect(indexed.results).toEqual(scanned.results);
  expect((await ws.status()).files).toBe(FILES);
});

it('a resident workspace searched through the link sees a file written in place (watched directories are named by the link)', async () => {
  const ws = open(path.join(tmp, 'ws-watched'), { resident: true });
  await ws.index([link]);
  const search = { query: 'reconcile the quarterly ledger', topK: 1, paths: [link] };
  await ws.search(search);
  await ws.search(search); // watched from the second search of these paths
  const file = path.join(link, 'src', 'upload3.ts');
  appendFileSync(file, '\nexport function reconcileQuarterlyLedger() { return ledger.reconcile(); }\n');
  const r = await ws.search(search);
  expect(r.stats.index?.refreshed).toBe(1);
  expect(r.results[0]?.filename).toBe(file);
  expect(r.results).toEqual((await scan.search(search)).results);
  expect((await ws.status()).files).toBe(FILES);
});
