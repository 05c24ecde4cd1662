// LanceDB and simgrep share one apache-arrow copy (src/index/lancedb.ts): the package's single-file
// build stands in for its CommonJS tree, so tables simgrep builds are LanceDB's tables and back.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { arrow, loadLanceDB } from '../../../src/index/lancedb.js';
import { Table, vectorFromArray } from '../../../src/index/arrow.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-arrow-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the apache-arrow LanceDB uses', () => {
  it('is the one simgrep uses, loaded from the single-file build', () => {
    const fromLanceDB = createRequire(createRequire(import.meta.url).resolve('@lancedb/lancedb'));
    expect(fromLanceDB('apache-arrow')).toBe(arrow);
    expect(Object.keys(arrow).length).toBeGreaterThan(100);
    const single = path.join(path.dirname(fromLanceDB.resolve('apache-arrow')), 'Arrow.es2015.min.js');
    expect(fromLanceDB.cache[single]?.exports).toBe(arrow);
  });

  it('round-trips a table through a real LanceDB directory as instances of the same classes', async () => {
    const db = await loadLanceDB().connect(path.join(tmp, 'db'));
    const rows = new Table({ path: vectorFromArray(['a.ts', 'b.ts']), start: vectorFromArray(Int32Array.from([0, 48])) });
    const t = await db.createTable('t', rows);
    const back = await t.query().toArrow();
    expect(back).toBeInstanceOf(Table);
    expect(back.getChild('path')!.toArray()).toEqual(['a.ts', 'b.ts']);
    expect(Array.from(back.getChild('start')!.toArray() as Int32Array)).toEqual([0, 48]);
    t.close();
    db.close();
  });
});
