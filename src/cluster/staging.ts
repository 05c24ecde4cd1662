// A cluster index shard's staging area: a LanceDB database of its own under the index directory
// (staging/RUN-SHARD-ATTEMPT), written by exactly one worker and read, merged and dropped by the
// coordinator. It holds the ordinary store's `chunks` and `files` tables (written by the indexer as
// on one machine), a `features` table (each new chunk's length, blankness and defined names) and a
// `terms` table (its identifiers' postings as flat triples), so the coordinator patches the snapshot
// without reading any file again.
import { mkdirSync, rmSync } from 'node:fs';
import type * as LanceDB from '@lancedb/lancedb';
import { loadLanceDB } from '../workspace/store/lancedb.js';
import { Binary, Bool, Table, Utf8, type FixedSizeList, makeVector, vectorFromArray } from '../workspace/store/arrow.js';
import type { ChunkColumns } from '../workspace/store/arrow-rows.js';
import type { SnapshotPatch } from '../workspace/build/indexer.js';
import { openStore, type FileState, type IndexStore } from '../workspace/store/store.js';
import { bools, halvesColumn, numbers, strings } from '../workspace/store/table-columns.js';
import type { KeyTriples } from '../workspace/snapshot/key-triples.js';
import { isRemoteUri } from '../sources/uri.js';
import { stagingLocation } from './job-check.js';

/** The four postings a chunk's terms go into, in TermCollector's field order. */
const TERM_KINDS = ['lower', 'stem', 'defLower', 'defStem'] as const;

/** Where a staging database lives: `<indexDir>/staging/<name>`, its parts checked (a name from Redis is untrusted). */
export function stagingUri(indexDir: string, name: string): string {
  return stagingLocation(indexDir, name);
}

export async function openStagingStore(uri: string, o: { dim: number; storageOptions?: Record<string, string> }): Promise<IndexStore> {
  if (!isRemoteUri(uri)) mkdirSync(uri, { recursive: true });
  return openStore(uri, o);
}

/** The new chunks' features of an indexer run (its snapshot patch): one row per chunk, and its terms as flat triples. */
export async function writeFeatures(uri: string, patch: SnapshotPatch, storageOptions?: Record<string, string>): Promise<void> {
  const rows = patch.rows;
  if (rows.length === 0) return;
  const features = new Table({
    path: vectorFromArray(rows.map((r) => r.path), new Utf8()),
    start: makeVector(Int32Array.from(rows, (r) => r.start)),
    row: makeVector(Int32Array.from(rows, (_, i) => i)),
    chars: makeVector(Int32Array.from(rows, (r) => r.chars)),
    blank: vectorFromArray(rows.map((r) => r.blank), new Bool()),
    defs: vectorFromArray(rows.map((r) => JSON.stringify(r.defs)), new Utf8()),
  });
  // Per posting kind: its keys, and its (key, row, count) triples as raw int32 columns.
  const kinds = TERM_KINDS.map((kind) => patch.terms[kind] as KeyTriples);
  const columns = kinds.map((t) => t.columns());
  const bytes = (a: Int32Array) => new Uint8Array(a.buffer, a.byteOffset, a.length * 4);
  const terms = new Table({
    kind: vectorFromArray([...TERM_KINDS], new Utf8()),
    keys: vectorFromArray(kinds.map((t) => JSON.stringify(t.keys)), new Utf8()),
    key: vectorFromArray(columns.map((c) => bytes(c.key)), new Binary()),
    row: vectorFromArray(columns.map((c) => bytes(c.row)), new Binary()),
    count: vectorFromArray(columns.map((c) => bytes(c.count)), new Binary()),
  });
  const db = await loadLanceDB().connect(uri, { storageOptions });
  try {
    (await db.createTable('features', features, { mode: 'overwrite' })).close();
    (await db.createTable('terms', terms, { mode: 'overwrite' })).close();
  } finally { db.close(); }
}

interface StagedTerms { keys: string[]; key: Int32Array; row: Int32Array; count: Int32Array }

export interface StagedShard {
  /** The vectors' dimension (from the staged table's schema). */
  dim: number;
  files: FileState[];
  /** The chunks in the worker's row order (the order its terms' rows count in). */
  /** Their vectors as float16 bits, as staged. */
  chunks: ChunkColumns & { vector: Uint16Array };
  features: { chars: number; blank: boolean; defs: string[] }[];
  /** Per posting kind (TermCollector's lower, stem, defLower, defStem): triples over the rows above. */
  terms: StagedTerms[];
}

/**
 * A staging database that is not one a worker writes (tables missing, rows out of order, text that is
 * not JSON): the coordinator fails that shard with this reason, as a shard a worker failed.
 */
export class StagingProblem extends Error {}

/** Everything a shard staged; a StagingProblem when its tables are not of the shape a worker writes. */
export async function readStaged(uri: string, o: { storageOptions?: Record<string, string> }): Promise<StagedShard> {
  const db = await loadLanceDB().connect(uri, { storageOptions: o.storageOptions });
  const read = async (name: string) => {
    const t = await db.openTable(name).catch(() => null);
    if (!t) return null;
    try { return { dim: ((await t.schema()).fields.find((f) => f.name === 'vector')?.type as FixedSizeList | undefined)?.listSize ?? 0, arrow: await t.query().toArrow() }; } finally { t.close(); }
  };
  try {
    const c = await read('chunks');
    const dim = c?.dim ?? 0;
    const store = await openStore(uri, { dim, storageOptions: o.storageOptions });
    const files = await store.fileStates().finally(() => store.close());
    const f = c ? await read('features') : null;
    const tt = c ? await read('terms') : null;
    if (!c || !f || !tt || c.arrow.numRows !== f.arrow.numRows) {
      if (!c || c.arrow.numRows === 0) return { dim, files, chunks: emptyChunks(), features: [], terms: [] };
      throw new StagingProblem('chunks without their features or terms (an incomplete staging database)');
    }
    const t = c.arrow;
    const n = t.numRows;
    // The worker's row of each staged chunk, by id; the chunks are put in that order. The rows must be
    // exactly 0..n-1, each once: a repeated or out-of-range row would leave holes the merge trips on.
    const rowOf = new Map<string, number>();
    const [fp, fs, fr] = [strings(f.arrow, 'path'), numbers(f.arrow, 'start', Int32Array), numbers(f.arrow, 'row', Int32Array)];
    if (fr.length !== n) throw new StagingProblem('features without their rows');
    const taken = new Uint8Array(n);
    fr.forEach((row, i) => {
      if (!(row >= 0 && row < n) || taken[row]) throw new StagingProblem(`features whose rows are not 0..${n - 1}, each once`);
      taken[row] = 1;
      rowOf.set(`${fp[i]}:${fs[i]}`, row);
    });
    const ids = strings(t, 'id');
    const order = new Int32Array(n);
    taken.fill(0);
    ids.forEach((id, i) => {
      const row = rowOf.get(id);
      if (row === undefined || taken[row]) throw new StagingProblem('a chunk without a features row of its own');
      taken[row] = 1;
      order[row] = i;
    });
    const [path, start, end, hasTokens, hash, vector] = [strings(t, 'path'), numbers(t, 'start', Int32Array), numbers(t, 'end', Int32Array), bools(t, 'has_tokens'), strings(t, 'hash'), halvesColumn(t, dim)];
    const pick = <T>(xs: ArrayLike<T>) => Array.from(order, (i) => xs[i]);
    const sortedVectors = new Uint16Array(vector.length);
    order.forEach((i, r) => sortedVectors.set(vector.subarray(i * dim, (i + 1) * dim), r * dim));
    const chunks: StagedShard['chunks'] = {
      id: pick(ids), path: pick(path), start: Int32Array.from(pick(start)), end: Int32Array.from(pick(end)), vector: sortedVectors, hasTokens: pick(hasTokens), hash: pick(hash),
    };
    const [chars, blank, defs] = [numbers(f.arrow, 'chars', Int32Array), bools(f.arrow, 'blank'), strings(f.arrow, 'defs')];
    const features = new Array<StagedShard['features'][number]>(n);
    fr.forEach((row, i) => { features[row] = { chars: chars[i], blank: blank[i], defs: json(defs[i], 'features whose names are not JSON') as string[] }; });
    const kinds = strings(tt.arrow, 'kind');
    const ints = (col: string, i: number) => {
      const b = tt.arrow.getChild(col)?.get(i) as unknown;
      if (!(b instanceof Uint8Array) || b.length % 4 !== 0) throw new StagingProblem(`terms whose ${col} column is not whole int32 values`);
      return new Int32Array(b.slice().buffer);
    };
    const terms = TERM_KINDS.map((kind) => {
      const i = kinds.indexOf(kind);
      if (i < 0) throw new StagingProblem(`terms without their ${kind} postings`);
      return { keys: json(strings(tt.arrow, 'keys')[i], 'terms whose keys are not JSON') as string[], key: ints('key', i), row: ints('row', i), count: ints('count', i) };
    });
    return { dim, files, chunks, features, terms };
  } finally {
    db.close();
  }
}

function json(text: unknown, what: string): unknown {
  if (typeof text !== 'string') throw new StagingProblem(what);
  try { return JSON.parse(text); } catch { throw new StagingProblem(what); }
}

function emptyChunks(): StagedShard['chunks'] {
  return { id: [], path: [], start: new Int32Array(0), end: new Int32Array(0), vector: new Uint16Array(0), hasTokens: [], hash: [] };
}

/** Adds a staged shard's terms to a run's patch, its rows counted from `firstRow`. */
export function addStagedTerms(patch: SnapshotPatch, firstRow: number, terms: StagedTerms[]): void {
  TERM_KINDS.forEach((kind, k) => {
    const t: KeyTriples = patch.terms[kind];
    const s = terms[k];
    if (!s) return;
    const ids = s.keys.map((key) => t.id(key));
    for (let i = 0; i < s.key.length; i++) t.add(ids[s.key[i]], firstRow + s.row[i], s.count[i]);
  });
}

/** Drops a staging database (its tables; a local directory goes whole). Missing is fine. */
export async function dropStaging(uri: string, storageOptions?: Record<string, string>): Promise<void> {
  const db = await loadLanceDB().connect(uri, { storageOptions });
  try {
    for (const name of ['chunks', 'files', 'features', 'terms', 'meta']) {
      const t = await db.openTable(name).catch(() => null);
      if (t) { t.close(); await db.dropTable(name); }
    }
  } finally { db.close(); }
  if (!isRemoteUri(uri)) rmSync(uri, { recursive: true, force: true });
}
