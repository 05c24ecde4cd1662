// The kernel's pruning directions (prune-basis.ts principalDirections) kept on disk beside the
// tokenizer cache, so a fresh process reads them (a 5 KB file) instead of working them out (~40 ms warm,
// ~95 ms in a fresh worker, on the first answer's path: the other worker waits for them). An entry is
// named by a SHA-256 of the table's kind, rows, dim, the count asked, the seed, and the model file's
// identity (entryName; a model made in memory: the bytes of exactly the rows the computation samples); its
// floats are the computation's own Float64 bits. Read back, an entry is trusted only whole: its checksum,
// that name again inside it, the sizes, finite floats; anything else is a miss, computed and written again.
// (Even a wrong set of directions could not change an answer: queryBasis makes any of them orthonormal with
// the query, and a projection on orthonormal directions never exceeds the vector, so the bound stays a
// bound; the cache only keeps the same floats from being worked out twice.)
import { createHash } from 'node:crypto';
import path from 'node:path';
import { readCacheEntry, writeCacheEntry } from '../model/cache-entry.js';
import { simgrepCacheDir } from '../model/tokenizer-file.js';
import { ensureRows } from '../model/lazy-rows.js';
import type { ModelData } from '../types.js';
import { principalDirections, sampledRows } from './prune-basis.js';

/** Raised when the computation (prune-basis.ts) or this layout changes: older entries are then misses. */
const ENTRY_VERSION = 1;
const SEED = 1;
const HASH_BYTES = 32;
/** [checksum][name][u32 count][u32 dim][count * dim float64] */
const HEADER_BYTES = 2 * HASH_BYTES + 8;
/** Entries kept (one per model, ~5 KB each): the oldest go past this. */
const MAX_ENTRIES = 64;

/** The directions cache directory, or null when caching is off ($SIMGREP_CACHE_DIR=off). */
export function directionsCacheDir(env: NodeJS.ProcessEnv = process.env): string | null {
  const root = simgrepCacheDir(env);
  return root === null ? null : path.join(root, 'directions');
}

/** principalDirections(model, m), read from the cache where an entry for this very input is whole; else computed and kept. */
export function cachedPrincipalDirections(model: ModelData, m: number, dir: string | null = directionsCacheDir()): Float64Array[] {
  if (dir === null) return computed(model, m);
  const name = entryName(model, m);
  const file = path.join(dir, `${name.toString('hex')}-v${ENTRY_VERSION}.bin`);
  const kept = readEntry(file, name, m, model.dim);
  if (kept) return kept;
  const out = computed(model, m);
  writeEntry(file, name, out, model.dim);
  return out;
}

/** principalDirections, the rows it samples read in first where the table is read row by row (model/lazy-rows.ts). */
function computed(model: ModelData, m: number): Float64Array[] {
  ensureRows(model, sampledRows(model.rows));
  return principalDirections(model, m, SEED);
}

/**
 * The entry's name: a SHA-256 of the table's kind, rows, dim, the count asked and the seed, with the model
 * file's identity where the model came from one (its path, size, mtime, inode and device: a file written
 * again is another entry), else the bytes of exactly the rows principalDirections samples (a model made in
 * memory). The identity spares a fresh process the hash of those rows (~1 MB for the bundled model) and,
 * for a table read row by row, their reads.
 */
export function entryName(model: ModelData, m: number): Buffer {
  const { table, rows, dim } = model;
  const h = createHash('sha256').update(JSON.stringify({ v: ENTRY_VERSION, kind: table.constructor.name, rows, dim, m, seed: SEED }));
  if (model.file) {
    const f = model.file;
    return h.update(JSON.stringify({ file: f.path, size: f.size, mtimeMs: f.mtimeMs, ino: f.ino, dev: f.dev })).digest();
  }
  const bytes = new Uint8Array(table.buffer, table.byteOffset, table.byteLength);
  const rowBytes = dim * table.BYTES_PER_ELEMENT;
  for (const r of sampledRows(rows)) h.update(bytes.subarray(r * rowBytes, (r + 1) * rowBytes));
  return h.digest();
}

function readEntry(file: string, name: Buffer, m: number, dim: number): Float64Array[] | null {
  // Never more than an entry of m directions can be (a FIFO, a link, another user's file: a miss).
  const buf = readCacheEntry(file, HEADER_BYTES + m * dim * 8);
  if (!buf || buf.length < HEADER_BYTES) return null;
  if (!createHash('sha256').update(buf.subarray(HASH_BYTES)).digest().equals(buf.subarray(0, HASH_BYTES))) return null;
  if (!buf.subarray(HASH_BYTES, 2 * HASH_BYTES).equals(name)) return null;
  const count = buf.readUInt32LE(2 * HASH_BYTES);
  if (buf.readUInt32LE(2 * HASH_BYTES + 4) !== dim || count > m || buf.length !== HEADER_BYTES + count * dim * 8) return null;
  const out: Float64Array[] = [];
  for (let j = 0; j < count; j++) {
    const v = new Float64Array(dim);
    for (let d = 0; d < dim; d++) v[d] = buf.readDoubleLE(HEADER_BYTES + (j * dim + d) * 8);
    if (!v.every(Number.isFinite)) return null;
    out.push(v);
  }
  return out;
}

function writeEntry(file: string, name: Buffer, directions: Float64Array[], dim: number): void {
  const out = Buffer.alloc(HEADER_BYTES + directions.length * dim * 8);
  name.copy(out, HASH_BYTES);
  out.writeUInt32LE(directions.length, 2 * HASH_BYTES);
  out.writeUInt32LE(dim, 2 * HASH_BYTES + 4);
  directions.forEach((v, j) => { for (let d = 0; d < dim; d++) out.writeDoubleLE(v[d], HEADER_BYTES + (j * dim + d) * 8); });
  createHash('sha256').update(out.subarray(HASH_BYTES)).digest().copy(out, 0);
  // A read-only or full disk only costs the next process the computation again.
  writeCacheEntry(file, out, MAX_ENTRIES);
}
