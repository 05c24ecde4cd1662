// Vector collections for vector.store / vector.query / vector.index_files, on the same LanceDB the
// workspace index uses: one table per collection (id, text, unit vector, metadata as JSON) and one
// `_files` table of indexed file hashes (for incremental re-runs). Queries are exact: a cosine scan
// over a per-collection in-memory copy, refreshed when the table's version changes.
import type * as lancedb from '@lancedb/lancedb';
import { loadLanceDB } from '../workspace/store/lancedb.js';
import { Field, FixedSizeList, Float32, RecordBatch, Schema, Struct, Table, Utf8, makeData, makeVector, vectorFromArray, type Vector } from '../workspace/store/arrow.js';
import { SimgrepError } from '../errors.js';
import { inList, strings, vectorColumn } from '../workspace/store/table-columns.js';
import { writing } from '../workspace/store/writing.js';
import type { Searcher } from '../searcher/api.js';

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const FILES = '_files';
const DELETE_BATCH = 500;

export interface StoredRow {
  id: string;
  text: string;
  metadata: Record<string, unknown>;
}

export interface CollectionHit extends StoredRow {
  score: number;
  /** The stored (unit-length) vector, when the query asked for it (include_embeddings). */
  embedding?: number[];
  /** Texts of the chunks just before and after this one in the same file (file chunks only). */
  context_before: string | null;
  context_after: string | null;
}

export type MetadataFilter = Record<string, unknown>;

export interface Collections {
  /**
   * Embeds (or takes the given vectors for) and writes rows; a row whose id exists replaces it, and of
   * two rows with one id the last wins. Given vectors are stored at unit length (scores are cosines).
   */
  upsert(collection: string, rows: StoredRow[], vectors?: number[][]): Promise<void>;
  /** The model's dimension: given vectors must have it. */
  dim(): number;
  /** The k rows closest to the text (cosine similarity, best first; ties by id) that pass the filter. */
  query(collection: string, text: string, k: number, filter?: MetadataFilter, o?: { includeEmbeddings?: boolean }): Promise<CollectionHit[]>;
  /** Indexed files of a collection: path -> content hash. */
  fileHashes(collection: string): Promise<Map<string, string>>;
  /** Replaces every chunk of a file and records its hash. */
  replaceFile(collection: string, file: string, rows: StoredRow[], hash: string): Promise<void>;
  /** Removes every chunk of a file and its recorded hash. */
  dropFile(collection: string, file: string): Promise<void>;
  close(): void;
}

interface Loaded {
  version: number;
  rows: StoredRow[];
  vectors: Float32Array;
}

export function checkCollectionName(name: string): string {
  if (!NAME.test(name)) throw new SimgrepError('BAD_FLAG', `collection name "${name}" is not allowed; use letters, digits, '_' and '-' (up to 64, starting with a letter or digit)`);
  return name;
}

export async function openCollections(dir: string, searcher: Searcher): Promise<Collections> {
  let db: lancedb.Connection;
  // LanceDB (a large native module) is loaded when a collection is first used, not on import.
  try { db = await loadLanceDB().connect(dir); } catch (e) {
    throw new SimgrepError('INDEX_UNREADABLE', `cannot open the vector collections at ${dir}: ${(e as Error).message}; check the path and its permissions`, { cause: e });
  }
  const dim = (await searcher.model()).dim;
  const tables = new Map<string, lancedb.Table>();
  const cache = new Map<string, Loaded>();

  async function table(name: string, create: boolean): Promise<lancedb.Table | null> {
    const cached = tables.get(name);
    if (cached) { await cached.checkoutLatest(); return cached; }
    if (!(await db.tableNames()).includes(name)) {
      if (!create) return null;
      const schema = name === FILES ? filesSchema : rowSchema(dim);
      tables.set(name, await db.createEmptyTable(name, schema, { existOk: true }));
      return tables.get(name)!;
    }
    const t = await db.openTable(name);
    if (name !== FILES) {
      const field = (await t.schema()).fields.find((f) => f.name === 'vector');
      const got = (field?.type as FixedSizeList | undefined)?.listSize;
      if (got !== dim) {
        t.close();
        throw new SimgrepError('INDEX_INCOMPATIBLE', `collection ${name} holds ${got}-dimensional vectors but the model makes ${dim}; use another collection or the model that built it`);
      }
    }
    tables.set(name, t);
    return t;
  }

  async function embed(rows: StoredRow[]): Promise<Float32Array> {
    return rows.length === 0 ? new Float32Array(0) : searcher.embed(rows.map((r) => r.text));
  }

  async function deleteIds(t: lancedb.Table, column: string, values: string[]): Promise<void> {
    for (let i = 0; i < values.length; i += DELETE_BATCH) await t.delete(inList(column, values.slice(i, i + DELETE_BATCH)));
  }

  async function load(name: string): Promise<Loaded | null> {
    const t = await table(name, false);
    if (!t) return null;
    const version = await t.version();
    const hit = cache.get(name);
    if (hit && hit.version === version) return hit;
    const a = await t.query().select(['id', 'text', 'vector', 'metadata']).toArrow();
    const ids = strings(a, 'id');
    const texts = strings(a, 'text');
    const metas = strings(a, 'metadata');
    const loaded: Loaded = {
      version,
      rows: ids.map((id, i) => ({ id, text: texts[i], metadata: JSON.parse(metas[i]) as Record<string, unknown> })),
      vectors: vectorColumn(a, dim),
    };
    cache.set(name, loaded);
    return loaded;
  }

  return {
    dim: () => dim,
    async upsert(collection, rows, given) {
      checkCollectionName(collection);
      const last = new Map(rows.map((r, i) => [r.id, i]));
      const keep = [...last.values()].sort((a, b) => a - b);
      const unique = keep.map((i) => rows[i]);
      if (unique.length === 0) return;
      const vectors = given ? unitVectors(keep.map((i) => given[i]), dim) : await embed(unique);
      await writing(async () => {
        const t = (await table(collection, true))!;
        await deleteIds(t, 'id', unique.map((r) => r.id));
        await t.add(rowTable(unique, vectors, dim));
      });
    },
    async query(collection, text, k, filter, o) {
      checkCollectionName(collection);
      const loaded = await load(collection);
      if (!loaded || loaded.rows.length === 0) return [];
      const q = await searcher.embed([text]);
      const pass = filter ? compileFilter(filter) : () => true;
      const scored: { i: number; score: number }[] = [];
      for (let i = 0; i < loaded.rows.length; i++) {
        if (!pass(loaded.rows[i].metadata)) continue;
        let s = 0;
        const off = i * dim;
        for (let d = 0; d < dim; d++) s += q[d] * loaded.vectors[off + d];
        scored.push({ i, score: s });
      }
      scored.sort((a, b) => b.score - a.score || (loaded.rows[a.i].id < loaded.rows[b.i].id ? -1 : 1));
      const neighbours = fileNeighbours(loaded.rows);
      return scored.slice(0, k).map(({ i, score }) => {
        const r = loaded.rows[i];
        const n = neighbours.get(i);
        return {
          id: r.id, text: r.text, score, metadata: r.metadata,
          context_before: n?.before !== undefined ? loaded.rows[n.before].text : null,
          context_after: n?.after !== undefined ? loaded.rows[n.after].text : null,
          ...(o?.includeEmbeddings ? { embedding: Array.from(loaded.vectors.subarray(i * dim, (i + 1) * dim)) } : {}),
        };
      });
    },
    async fileHashes(collection) {
      const t = await table(FILES, false);
      const out = new Map<string, string>();
      if (!t) return out;
      const a = await t.query().where(inList('collection', [collection])).select(['path', 'hash']).toArrow();
      const paths = strings(a, 'path');
      const hashes = strings(a, 'hash');
      paths.forEach((p, i) => out.set(p, hashes[i]));
      return out;
    },
    async replaceFile(collection, file, rows, hash) {
      checkCollectionName(collection);
      const vectors = await embed(rows);
      await writing(async () => {
        const t = (await table(collection, true))!;
        await t.delete(`source_file = ${quote(file)}`);
        await deleteIds(t, 'id', rows.map((r) => r.id));
        if (rows.length > 0) await t.add(rowTable(rows, vectors, dim));
        const f = (await table(FILES, true))!;
        await f.delete(`collection = ${quote(collection)} AND path = ${quote(file)}`);
        await f.add(filesTable([[collection, file, hash]]));
      });
    },
    async dropFile(collection, file) {
      checkCollectionName(collection);
      await writing(async () => {
        await (await table(collection, false))?.delete(`source_file = ${quote(file)}`);
        await (await table(FILES, false))?.delete(`collection = ${quote(collection)} AND path = ${quote(file)}`);
      });
    },
    close() {
      for (const t of tables.values()) t.close();
      tables.clear();
      cache.clear();
      db.close();
    },
  };
}

/** Caller-given vectors, checked against the model's dimension and scaled to unit length. */
function unitVectors(vectors: number[][], dim: number): Float32Array {
  const out = new Float32Array(vectors.length * dim);
  vectors.forEach((v, i) => {
    if (!Array.isArray(v) || v.length !== dim || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) {
      throw new SimgrepError('BAD_FLAG', `parameter embeddings: item ${i} must be a list of ${dim} numbers (the model's dimension), got ${Array.isArray(v) ? `${v.length} items` : JSON.stringify(v)}`);
    }
    let norm = 0;
    for (const x of v) norm += x * x;
    norm = Math.sqrt(norm) || 1;
    for (let d = 0; d < dim; d++) out[i * dim + d] = v[d] / norm;
  });
  return out;
}

/** For rows that come from files: the previous and next chunk of the same file, by start line. */
function fileNeighbours(rows: StoredRow[]): Map<number, { before?: number; after?: number }> {
  const byFile = new Map<string, number[]>();
  rows.forEach((r, i) => {
    const f = r.metadata.file;
    if (typeof f !== 'string' || typeof r.metadata.start_line !== 'number') return;
    const list = byFile.get(f);
    if (list) list.push(i); else byFile.set(f, [i]);
  });
  const out = new Map<number, { before?: number; after?: number }>();
  for (const list of byFile.values()) {
    list.sort((a, b) => (rows[a].metadata.start_line as number) - (rows[b].metadata.start_line as number));
    list.forEach((i, j) => out.set(i, { before: list[j - 1], after: list[j + 1] }));
  }
  return out;
}

const OPS: [string, (a: unknown, b: unknown) => boolean][] = [
  ['_gte', (a, b) => cmp(a, b) !== null && cmp(a, b)! >= 0],
  ['_lte', (a, b) => cmp(a, b) !== null && cmp(a, b)! <= 0],
  ['_gt', (a, b) => cmp(a, b) !== null && cmp(a, b)! > 0],
  ['_lt', (a, b) => cmp(a, b) !== null && cmp(a, b)! < 0],
  ['_ne', (a, b) => !same(a, b)],
  ['_in', (a, b) => Array.isArray(b) && b.some((x) => same(a, x))],
];

/** `{field: v, field_gte, field_lte, field_gt, field_lt, field_ne, field_in}`, all of which must hold. */
export function compileFilter(filter: MetadataFilter): (m: Record<string, unknown>) => boolean {
  const tests = Object.entries(filter).map(([key, want]) => {
    const op = OPS.find(([suffix]) => key.endsWith(suffix) && key.length > suffix.length);
    if (op && op[0] === '_in' && !Array.isArray(want)) throw new SimgrepError('BAD_FLAG', `filter ${key} must be a list`);
    const field = op ? key.slice(0, -op[0].length) : key;
    const test = op ? op[1] : same;
    return (m: Record<string, unknown>) => (field in m ? test(m[field], want) : op?.[0] === '_ne');
  });
  return (m) => tests.every((t) => t(m));
}

function same(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

function cmp(a: unknown, b: unknown): number | null {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return null;
}

function quote(v: string): string {
  return `'${v.replace(/'/g, "''")}'`;
}

function rowSchema(dim: number): Schema {
  return new Schema([
    new Field('id', new Utf8(), false),
    new Field('text', new Utf8(), false),
    new Field('vector', new FixedSizeList(dim, new Field('item', new Float32(), true)), false),
    new Field('metadata', new Utf8(), false),
    // The file a chunk came from ('' for stored texts), so a file's chunks can be dropped in one delete.
    new Field('source_file', new Utf8(), false),
  ]);
}

const filesSchema = new Schema([
  new Field('collection', new Utf8(), false),
  new Field('path', new Utf8(), false),
  new Field('hash', new Utf8(), false),
]);

function rowTable(rows: StoredRow[], vectors: Float32Array, dim: number): Table {
  const schema = rowSchema(dim);
  const n = rows.length;
  const vector = makeVector(makeData({
    type: schema.fields[2].type as FixedSizeList<Float32>, length: n, nullCount: 0,
    child: makeData({ type: new Float32(), length: n * dim, nullCount: 0, data: vectors }),
  }));
  return tableOf(schema, [
    utf8(rows.map((r) => r.id)), utf8(rows.map((r) => r.text)), vector,
    utf8(rows.map((r) => JSON.stringify(r.metadata))),
    utf8(rows.map((r) => (typeof r.metadata.file === 'string' && typeof r.metadata.chunk_type === 'string' ? r.metadata.file : ''))),
  ]);
}

function filesTable(rows: [string, string, string][]): Table {
  return tableOf(filesSchema, [0, 1, 2].map((c) => utf8(rows.map((r) => r[c]))));
}

function tableOf(schema: Schema, columns: Vector[]): Table {
  const children = columns.map((v) => v.data[0]);
  const struct = makeData({ type: new Struct(schema.fields), length: columns[0]?.length ?? 0, nullCount: 0, children });
  return new Table(schema, [new RecordBatch(schema, struct)]);
}

const utf8 = (xs: string[]) => vectorFromArray(xs, new Utf8());
