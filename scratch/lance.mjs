import * as lancedb from '@lancedb/lancedb';
import { chunkTable } from '/work/main/dist/src/index/arrow-rows.js';
const dim = 4;
const mk = (ids, path) => chunkTable({
  id: ids, path: ids.map(() => path), start: Int32Array.from(ids.map((_, i) => i * 48)), end: Int32Array.from(ids.map((_, i) => i * 48 + 48)),
  text: ids.map((i) => 'text ' + i), vector: new Float32Array(ids.length * dim).fill(0.5), hasTokens: ids.map(() => true),
  chars: new Int32Array(ids.length), blank: ids.map(() => false), idents: ids.map(() => 'a 1'), defs: ids.map(() => ''), hash: ids.map(() => 'h'),
}, dim);
const db = await lancedb.connect('/tmp/scratch/db');
for (const n of await db.tableNames()) await db.dropTable(n);
const t = await db.createTable('chunks', mk(['a:0', 'a:48', 'a:96'], 'a'));
console.log('v', await t.version(), await t.countRows());
const r = await t.mergeInsert('id').whenMatchedUpdateAll().whenNotMatchedInsertAll().whenNotMatchedBySourceDelete({ where: "path IN ('a','b')" }).execute(mk(['a:0'], 'a'));
console.log(r, await t.countRows());
const tb = await t.query().select(['id', 'vector', 'chars']).toArrow();
console.log(tb.numRows, tb.getChild('vector')?.data[0].children[0].values.constructor.name, tb.getChild('id')?.toArray());
await t.add(mk(['b:0', 'b:48'], 'b'));
console.log('v', await t.version(), await t.countRows(), await t.countRows("path = 'b'"));
