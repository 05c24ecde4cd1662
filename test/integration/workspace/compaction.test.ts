// LanceDB compaction: a first build's own commits are left as they are (compacting them would make the
// first small update after it pay for the build); updates compact once they have added more than
// COMPACT_AFTER_FRAGMENTS small commits beyond those, and count again from what is left.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../../src/workspace/store/store.js';
import { COMPACT_AFTER_FRAGMENTS, createWorkspace } from '../../../src/workspace/workspace.js';
import { writeTinyModel } from '../../helpers/tiny-model.js';

let tmp = '';
let modelDir = '';

const lines = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `function ${prefix}${i}() { return retryUpload(${i}); }`).join('\n');

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-compact-'));
  modelDir = await writeTinyModel(path.join(tmp, 'model'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Small fragments of the chunks table, and what the meta says later runs count from. */
async function fragmentsOf(dir: string): Promise<{ now: number; built: number }> {
  const store = await openStore(dir, { dim: 4 });
  try {
    const now = (await store.compact({ chunks: Infinity, files: Infinity })).chunks; // counts, compacts nothing
    return { now, built: JSON.parse((await store.readMeta()).smallFragments ?? '{}').chunks };
  } finally {
    store.close();
  }
}

/** Versions of a table kept on disk (LanceDB writes a manifest per version). */
const versionsOf = (dir: string, table: string) => readdirSync(path.join(dir, `${table}.lance`, '_versions')).filter((f) => f.endsWith('.manifest')).length;

describe('compaction', () => {
  it('leaves a first build\'s commits alone and compacts once updates have added more than the allowance', async () => {
    const tree = path.join(tmp, 'tree');
    mkdirSync(tree);
    // Two commits' worth (a commit holds 65,536 lines).
    for (let f = 0; f < 3; f++) writeFileSync(path.join(tree, `m${f}.ts`), lines(`m${f}x`, 25_000));
    const dir = path.join(tmp, 'ws');
    const ws = createWorkspace({ dir, model: modelDir, concurrency: 0 });
    try {
      await ws.index([tree]);
      const built = await fragmentsOf(dir);
      expect(built.now).toBeGreaterThanOrEqual(2);
      expect(built.built).toBe(built.now);
      // Each update commits a new file: one small fragment more (a fragment whose rows are all
      // replaced goes), until the allowance is used up.
      for (let i = 1; i <= COMPACT_AFTER_FRAGMENTS; i++) {
        writeFileSync(path.join(tree, `new${i}.ts`), lines(`n${i}x`, 5));
        expect((await ws.index([tree])).indexed).toBe(1);
      }
      const before = await fragmentsOf(dir);
      const versionsBefore = versionsOf(dir, 'meta');
      expect(versionsBefore).toBeGreaterThan(COMPACT_AFTER_FRAGMENTS);
      expect(before).toEqual({ now: built.now + COMPACT_AFTER_FRAGMENTS, built: built.now }); // not compacted yet
      writeFileSync(path.join(tree, 'last.ts'), lines('last', 5));
      await ws.index([tree]);
      const after = await fragmentsOf(dir);
      expect(after.now).toBeLessThan(built.now);
      expect(after.built).toBe(after.now);
      // The meta table's old versions went too (every run had left one or two behind).
      expect(versionsOf(dir, 'meta')).toBeLessThan(versionsBefore);
      expect(versionsOf(dir, 'meta')).toBeLessThanOrEqual(2);
      // Still the same answers.
      const r = await ws.search({ query: 'retryUpload last', paths: [tree], mode: 'lexical' });
      expect(r.results.some((h) => h.filename.endsWith('last.ts'))).toBe(true);
    } finally {
      await ws.close();
    }
  });
});
