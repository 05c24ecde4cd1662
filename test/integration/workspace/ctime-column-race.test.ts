// Two writers that find an older simgrep's files table (no ctime column) and add the column at once:
// the second's addColumns lost to the first's commit (a retryable commit conflict) and its write failed.
// Now it looks at the schema again and goes on (or adds the column once more). A real LanceDB directory,
// three stores opened on it, their writes started together; a few rounds, as the race is one of timing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openStore } from '../../../src/workspace/store/store.js';
import type { FileColumns } from '../../../src/workspace/store/table-columns.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-ctime-race-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const columns = (paths: string[], ctime: number): FileColumns => ({
  path: paths, size: Float64Array.from(paths, () => 10), mtime: Float64Array.from(paths, () => 1000), ctime: Float64Array.from(paths, () => ctime),
  hash: paths.map(() => 'h'), kind: paths.map(() => 'text'), lines: Int32Array.from(paths, () => 1), chunks: Int32Array.from(paths, () => 1),
});

it('writers that add the ctime column to an older index at once all write', async () => {
  const lancedb = await import('@lancedb/lancedb');
  for (let round = 0; round < 5; round++) {
    const dir = path.join(tmp, `ix-${round}`);
    // An older simgrep's index: its files table without the ctime column.
    const first = await openStore(dir, { dim: 8 });
    await first.writeFiles(columns(['/a', '/b'], 2000), { allNew: true });
    first.close();
    const db = await lancedb.connect(dir);
    const t = await db.openTable('files');
    await t.dropColumns(['ctime']);
    t.close();
    db.close();
    const stores = await Promise.all([0, 1, 2].map(() => openStore(dir, { dim: 8 })));
    try {
      await Promise.all(stores.map((s) => s.fileStates())); // each has seen the table without the column
      const writes = await Promise.allSettled([
        stores[0].writeFiles(columns(['/a'], 3000)),
        stores[1].writeFiles(columns(['/b'], 3000)),
        stores[2].writeFiles(columns(['/c'], 3000), { allNew: true }),
      ]);
      expect(writes.map((w) => (w.status === 'rejected' ? String((w.reason as Error).message).slice(0, 300) : 'written')), `round ${round}`).toEqual(['written', 'written', 'written']);
      const states = Object.fromEntries((await stores[0].fileStates()).map((s) => [s.key, s.ctime]));
      expect(states).toEqual({ '/a': 3000, '/b': 3000, '/c': 3000 });
    } finally {
      for (const s of stores) s.close();
    }
  }
}, 120_000);
