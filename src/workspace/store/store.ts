// The workspace's store of record, on LanceDB: a `chunks` table (text, unit vector and lexical features
// of every chunk), a `files` table (size, mtime, ctime and content hash of every indexed file) and a `meta`
// table (format, model). Each write is one LanceDB commit, so readers never see half of one; chunks
// are committed before their files' states, so a crash in between only makes the next run redo them.
import type * as LanceDB from '@lancedb/lancedb';
import { loadLanceDB } from './lancedb.js';
import { SimgrepError } from '../../errors.js';
import { readBatches, type ReadStop } from './batch-read.js';
import { bools, halvesColumn, inList, numbers, numbersOr, strings, vectorColumn } from './table-columns.js';

import { chunkSchema, chunkTable, fileSchema, fileTable, metaTable, type ChunkColumns, type FileColumns } from './arrow-rows.js';
import { UNKNOWN_CTIME, type SnapshotFile } from '../snapshot/snapshot.js';

export type FileState = Omit<SnapshotFile, 'firstChunk' | 'chunkCount'> & { chunks: number };

/** A stored chunk's place and vector (float16 bits, as stored). */
export interface ChunkVector { path: string; start: number; end: number; halves: Uint16Array; hasTokens: boolean }

/**
 * A version of the store: "chunks version.files version". Readers pin the last version a writer
 * completed (meta `complete`), so they never see a write in progress.
 */
export type StoreVersion = string;

/** Small fragments (LanceDB's) per table: each commit adds one. */
export interface SmallFragments { chunks: number; files: number }

export interface IndexStore {
  readonly uri: string;
  readMeta(): Promise<Record<string, string>>;
  /** Sets these entries (committing only when one of them changes); returns the meta as it is then. */
  writeMeta(entries: Record<string, string>): Promise<Record<string, string>>;
  /** The latest version (changes with every commit). */
  version(): Promise<StoreVersion>;
  /** True when it holds no chunk and no file state (a first build, or a crashed first build's nothing). */
  isEmpty(): Promise<boolean>;
  /** Every file's state. `stop`: read between batches of rows (ABORTED once it is aborted). */
  fileStates(at?: StoreVersion, stop?: ReadStop): Promise<FileState[]>;
  /** Every chunk's place and vector. `stop`: as fileStates'. */
  chunkVectors(at?: StoreVersion, stop?: ReadStop): Promise<ChunkVector[]>;
  /** Vectors of the given files' current chunks by content hash (reused when a chunk is unchanged). */
  vectorsByHash(paths: string[]): Promise<Map<string, Float32Array>>;
  /** Appends chunks. */
  addChunks(chunks: ChunkColumns): Promise<void>;
  /** Drops every chunk of these files. */
  deleteChunksOf(paths: string[]): Promise<void>;
  /** Upserts file states; with `allNew` (none of them is stored yet) they are appended, without the merge's join. */
  writeFiles(files: FileColumns, o?: { allNew?: boolean }): Promise<void>;
  /** Drops files and their chunks (chunks first). */
  deleteFiles(paths: string[]): Promise<void>;
  /**
   * Compacts a table's small commits into larger files and drops older versions once it holds more
   * than `allowed` small fragments (the meta table's older versions too, then); says how many each
   * table holds after.
   */
  compact(allowed: SmallFragments): Promise<SmallFragments>;
  /** Drops every table (a rebuild for another model or chunking). */
  clear(): Promise<void>;
  close(): void;
}

export interface OpenStoreOptions {
  dim: number;
  /** LanceDB storage options (object-store endpoint and credentials). */
  storageOptions?: Record<string, string>;
}

export async function openStore(uri: string, o: OpenStoreOptions): Promise<IndexStore> {
  let db: LanceDB.Connection;
  try {
    db = await loadLanceDB().connect(uri, { storageOptions: o.storageOptions });
  } catch (e) {
    throw new SimgrepError('INDEX_UNREADABLE', `cannot open the index at ${uri}: ${(e as Error).message}; check the path (or bucket) and its permissions`, { cause: e });
  }
  const tables = new Map<string, LanceDB.Table>();
  // Tables are opened by name, never found by listing: some S3-compatible stores (s3rver) do not
  // answer the delimiter listing LanceDB's tableNames() relies on.
  const tryOpen = async (name: string): Promise<LanceDB.Table | null> => {
    try { return await db.openTable(name); } catch { return null; }
  };
  const open = async (name: string, create: () => Promise<LanceDB.Table>): Promise<LanceDB.Table> => {
    const cached = tables.get(name);
    if (cached) { await cached.checkoutLatest(); return cached; }
    const t = (await tryOpen(name)) ?? await create();
    tables.set(name, t);
    return t;
  };
  const readers = new Map<string, LanceDB.Table>();
  /** A read handle on a table as of a version (the latest when none is given). */
  const readAt = async (name: string, version: number | undefined, create: () => Promise<LanceDB.Table>): Promise<LanceDB.Table> => {
    if (version === undefined) return open(name, create);
    let t = readers.get(name) ?? null;
    if (!t) {
      t = await tryOpen(name);
      if (!t) return open(name, create);
      readers.set(name, t);
    }
    if (version === 0) return open(name, create);
    if ((await t.version()) !== version) await t.checkout(version);
    return t;
  };
  const part = (at: StoreVersion | undefined, i: number) => (at === undefined ? undefined : Number(at.split('.')[i]));
  const chunks = () => open('chunks', () => db.createEmptyTable('chunks', chunkSchema(o.dim), { existOk: true }));
  const files = () => open('files', () => db.createEmptyTable('files', fileSchema, { existOk: true }));
  let ctimeAdded = false;
  const hasCtime = async (t: LanceDB.Table) => (await t.schema()).fields.some((f) => f.name === 'ctime');
  const addCtime = (t: LanceDB.Table) => t.addColumns([{ name: 'ctime', valueSql: 'CAST(NULL AS DOUBLE)' }]);
  /** The files table to write: an older simgrep's gets the ctime column first (its rows null: unknown). */
  const filesToWrite = async (): Promise<LanceDB.Table> => {
    const t = await files();
    if (!ctimeAdded && !(await hasCtime(t))) {
      try {
        await addCtime(t);
      } catch {
        // Another writer added it first (its commit wins; ours is a retryable conflict): look again, and
        // add it once more only if it is still missing (a real failure then throws).
        await t.checkoutLatest();
        if (!(await hasCtime(t))) await addCtime(t);
      }
    }
    ctimeAdded = true;
    return t;
  };
  const meta = () => open('meta', () => db.createEmptyTable('meta', metaTable([]).schema, { existOk: true }));

  async function readMeta(): Promise<Record<string, string>> {
    const t = tables.get('meta') ?? await tryOpen('meta');
    if (!t) return {};
    tables.set('meta', t);
    const read = async () => {
      await t.checkoutLatest();
      return t.query().toArray();
    };
    // A writer's compaction can drop the files of the version just checked out (it keeps only the
    // latest): read again, from the new latest.
    const rows = await read().catch(read);
    return Object.fromEntries(rows.map((r) => [String(r.key), String(r.value)]));
  }

  return {
    uri,
    readMeta,
    async writeMeta(entries) {
      // A commit only for entries that change (a re-run of the same index commits nothing here).
      const current = await readMeta();
      const changed = Object.entries(entries).filter(([k, v]) => current[k] !== v);
      if (changed.length === 0) return current;
      await (await meta()).mergeInsert('key').whenMatchedUpdateAll().whenNotMatchedInsertAll()
        .execute(metaTable(changed));
      return { ...current, ...entries };
    },
    async version() {
      const v = async (name: string) => {
        const t = tables.get(name) ?? await tryOpen(name);
        if (!t) return 0;
        tables.set(name, t);
        await t.checkoutLatest();
        return t.version();
      };
      return `${await v('chunks')}.${await v('files')}`;
    },
    async isEmpty() {
      // Tables are only ever opened here, never made: a missing one holds nothing.
      const rowsOf = async (name: string) => (await (tables.get(name) ?? await tryOpen(name))?.countRows()) ?? 0;
      return (await rowsOf('chunks')) === 0 && (await rowsOf('files')) === 0;
    },
    async fileStates(at, stop) {
      return readBatches((await readAt('files', part(at, 1), files)).query(), stop, (t, out: FileState[]) => {
        const path = strings(t, 'path');
        const size = numbers(t, 'size', Float64Array);
        const mtime = numbers(t, 'mtime', Float64Array);
        // Null in rows an older simgrep wrote (and absent from its tables): those files are hashed again.
        const ctime = numbersOr(t, 'ctime', path.length, UNKNOWN_CTIME);
        const hash = strings(t, 'hash');
        const kind = strings(t, 'kind');
        const lines = numbers(t, 'lines', Int32Array);
        const count = numbers(t, 'chunks', Int32Array);
        for (let i = 0; i < path.length; i++) out.push({ key: path[i], size: size[i], mtime: mtime[i], ctime: ctime[i], hash: hash[i], kind: kind[i] as 'text' | 'binary', lines: lines[i], chunks: count[i] });
      });
    },
    async chunkVectors(at, stop) {
      const q = (await readAt('chunks', part(at, 0), chunks)).query().select(['path', 'start', 'end', 'vector', 'has_tokens']);
      return readBatches(q, stop, (t, out: ChunkVector[]) => {
        const path = strings(t, 'path');
        const start = numbers(t, 'start', Int32Array);
        const end = numbers(t, 'end', Int32Array);
        const hasTokens = bools(t, 'has_tokens');
        const halves = halvesColumn(t, o.dim);
        for (let i = 0; i < path.length; i++) out.push({ path: path[i], start: start[i], end: end[i], halves: halves.subarray(i * o.dim, (i + 1) * o.dim), hasTokens: hasTokens[i] });
      });
    },
    async vectorsByHash(paths) {
      const out = new Map<string, Float32Array>();
      if (paths.length === 0) return out;
      const t = await (await chunks()).query().where(inList('path', paths)).select(['hash', 'vector']).toArrow();
      const hash = strings(t, 'hash');
      const vectors = vectorColumn(t, o.dim);
      hash.forEach((h, i) => out.set(h, vectors.slice(i * o.dim, (i + 1) * o.dim)));
      return out;
    },
    async addChunks(c) {
      if (c.id.length > 0) await (await chunks()).add(chunkTable(c, o.dim));
    },
    async deleteChunksOf(paths) {
      if (paths.length > 0) await (await chunks()).delete(inList('path', paths));
    },
    async writeFiles(f, wo = {}) {
      if (f.path.length === 0) return;
      if (wo.allNew) { await (await filesToWrite()).add(fileTable(f)); return; }
      await (await filesToWrite()).mergeInsert('path').whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(fileTable(f));
    },
    async deleteFiles(paths) {
      if (paths.length === 0) return;
      await (await chunks()).delete(inList('path', paths));
      await (await files()).delete(inList('path', paths));
    },
    async compact(allowed) {
      // Only once commits have left many small fragments: compaction rewrites the table, which a run
      // that changed one file should not pay for.
      const left: SmallFragments = { chunks: 0, files: 0 };
      let compacted = false;
      for (const name of ['chunks', 'files'] as const) {
        const t = name === 'chunks' ? await chunks() : await files();
        left[name] = (await t.stats()).fragmentStats.numSmallFragments;
        if (left[name] <= allowed[name]) continue;
        await t.optimize({ cleanupOlderThan: new Date() });
        left[name] = (await t.stats()).fragmentStats.numSmallFragments;
        compacted = true;
      }
      // Every run commits to meta (its entries are replaced, so it stays a few rows), and each commit
      // leaves a version's files behind: they go with the others', else they would pile up for ever.
      // Housekeeping only: a failure here (another writer's commit on a shared bucket) costs nothing.
      if (compacted) await (await meta()).optimize({ cleanupOlderThan: new Date() }).catch(() => undefined);
      return left;
    },
    async clear() {
      for (const name of ['chunks', 'files']) {
        tables.get(name)?.close();
        readers.get(name)?.close();
        tables.delete(name);
        readers.delete(name);
        if (await tryOpen(name)) await db.dropTable(name);
      }
    },
    close() {
      for (const t of [...tables.values(), ...readers.values()]) t.close();
      tables.clear();
      readers.clear();
      db.close();
    },
  };
}
