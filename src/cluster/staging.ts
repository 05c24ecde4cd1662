// A cluster index shard's staging area: a LanceDB database of its own under the index directory
// (staging/RUN-SHARD-ATTEMPT), written by exactly one worker and read, merged and dropped by the
// coordinator. It holds the ordinary store's `chunks` and `files` tables (written by the indexer as
// on one machine) and a `features` table: each new chunk's lexical features, so the coordinator
// patches the snapshot without reading any file again.
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { Bool, Table, Utf8, type FixedSizeList, makeVector, vectorFromArray } from 'apache-arrow';
import type { ChunkColumns } from '../index/arrow-rows.js';
import type { SnapshotPatch } from '../index/indexer.js';
import { openStore, type FileState, type IndexStore } from '../index/store.js';
import { bools, numbers, strings, vectorColumn } from '../index/table-columns.js';
import type { KeyTriples } from '../index/term-collector.js';
import { isRemoteUri } from '../sources/uri.js';

/** The four postings a chunk's terms go into, in TermCollector's field order. */
const TERM_KINDS = ['lower', 'stem', 'defLower', 'defStem'] as const;
type TermLists = [string, number][][];

export function stagingUri(indexDir: string, name: string): string {
  return isRemoteUri(indexDir) ? `${indexDir.replace(/\/+$/, '')}/staging/${name}` : path.join(indexDir, 'staging', name);
}

export async function openStagingStore(uri: string, o: { dim: number; storageOptions?: Record<string, string> }): Promise<IndexStore> {
  if (!isRemoteUri(uri)) mkdirSync(uri, { recursive: true });
  return openStore(uri, o);
}

/** The new chunks' features of an indexer run (its snapshot patch), one row per chunk. */
export async function writeFeatures(uri: string, patch: SnapshotPatch, storageOptions?: Record<string, string>): Promise<void> {
  const perRow: TermLists[] = patch.rows.map(() => TERM_KINDS.map(() => []));
  TERM_KINDS.forEach((kind, k) => {
    const t: KeyTriples = patch.terms[kind];
    for (let i = 0; i < t.length; i++) perRow[t.row[i]][k].push([t.keys[t.key[i]], t.count[i]]);
  });
  const rows = patch.rows;
  const table = new Table({
    path: vectorFromArray(rows.map((r) => r.path), new Utf8()),
    start: makeVector(Int32Array.from(rows, (r) => r.start)),
    chars: makeVector(Int32Array.from(rows, (r) => r.chars)),
    blank: vectorFromArray(rows.map((r) => r.blank), new Bool()),
    defs: vectorFromArray(rows.map((r) => JSON.stringify(r.defs)), new Utf8()),
    terms: vectorFromArray(perRow.map((t) => JSON.stringify(t)), new Utf8()),
  });
  const db = await lancedb.connect(uri, { storageOptions });
  try {
    if (rows.length > 0) (await db.createTable('features', table, { mode: 'overwrite' })).close();
  } finally { db.close(); }
}

export interface StagedShard {
  /** The vectors' dimension (from the staged table's schema). */
  dim: number;
  files: FileState[];
  chunks: ChunkColumns;
  /** Per chunk (same order): its features and terms. */
  features: { chars: number; blank: boolean; defs: string[]; terms: TermLists }[];
}

/** Everything a shard staged, chunks in one order with their features. */
export async function readStaged(uri: string, o: { storageOptions?: Record<string, string> }): Promise<StagedShard> {
  const db = await lancedb.connect(uri, { storageOptions: o.storageOptions });
  const opened = await db.openTable('chunks').catch(() => null);
  const dim = opened ? ((await opened.schema()).fields.find((f) => f.name === 'vector')!.type as FixedSizeList).listSize : 0;
  const store = await openStore(uri, { dim, storageOptions: o.storageOptions });
  try {
    const files = await store.fileStates();
    const t = opened ? await opened.query().toArrow() : null;
    opened?.close();
    const chunks: ChunkColumns = t
      ? { id: strings(t, 'id'), path: strings(t, 'path'), start: numbers(t, 'start', Int32Array), end: numbers(t, 'end', Int32Array), vector: vectorColumn(t, dim), hasTokens: bools(t, 'has_tokens'), hash: strings(t, 'hash') }
      : { id: [], path: [], start: new Int32Array(0), end: new Int32Array(0), vector: new Float32Array(0), hasTokens: [], hash: [] };
    const ft = chunks.id.length > 0 ? await db.openTable('features') : null;
    const f = ft ? await ft.query().toArrow() : null;
    ft?.close();
    const byId = new Map<string, StagedShard['features'][number]>();
    if (f) {
      const [paths, starts, chars, blank, defs, terms] = [strings(f, 'path'), numbers(f, 'start', Int32Array), numbers(f, 'chars', Int32Array), bools(f, 'blank'), strings(f, 'defs'), strings(f, 'terms')];
      paths.forEach((p, i) => byId.set(`${p}:${starts[i]}`, { chars: chars[i], blank: blank[i], defs: JSON.parse(defs[i]) as string[], terms: JSON.parse(terms[i]) as TermLists }));
    }
    const features = chunks.id.map((id, i) => {
      const got = byId.get(`${chunks.path[i]}:${chunks.start[i]}`);
      if (!got) throw new Error(`staged chunk ${id} has no features row`);
      return got;
    });
    return { dim, files, chunks, features };
  } finally {
    store.close();
    db.close();
  }
}

/** Adds a staged chunk's terms to a run's patch as row `row`. */
export function addStagedTerms(patch: SnapshotPatch, row: number, terms: TermLists): void {
  TERM_KINDS.forEach((kind, k) => {
    const t: KeyTriples = patch.terms[kind];
    for (const [key, count] of terms[k]) t.add(t.id(key), row, count);
  });
}

/** Drops a staging database (its tables; a local directory goes whole). Missing is fine. */
export async function dropStaging(uri: string, storageOptions?: Record<string, string>): Promise<void> {
  const db = await lancedb.connect(uri, { storageOptions });
  try {
    for (const name of ['chunks', 'files', 'features', 'meta']) {
      const t = await db.openTable(name).catch(() => null);
      if (t) { t.close(); await db.dropTable(name); }
    }
  } finally { db.close(); }
  if (!isRemoteUri(uri)) rmSync(uri, { recursive: true, force: true });
}
