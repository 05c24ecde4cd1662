// An int8 table read row by row, as a search meets its tokens, instead of whole: a search of a few files
// meets a few thousand of the bundled model's 87,727 rows, and reading all 45 MB (each page's first write
// a fault) cost a one-shot search ~0.2 s of system time. The table is a zero-filled SharedArrayBuffer of
// its full size (pages never written are never mapped) into which the rows met are read (pread) before
// anything reads them: the tokens' rows where lines are tokenized (embed/line-scorer.ts), the rows the
// pruning directions sample (embed/directions-cache.ts); completeRows reads the rest before any other use
// (a pool, an index, a workspace: searcher.ts). The kernels read the same bytes as from a whole read.
import { closeSync, fstatSync, openSync, read, readSync } from 'node:fs';
import { promisify } from 'node:util';
import { SimgrepError } from '../errors.js';
import type { EmbeddingTable, LazyRows, ModelData } from '../types.js';

const readAsync = promisify(read);

/** Open files of lazy tables, by their `loaded` array (closed once the table is whole, or released). */
const open = new Map<Uint8Array, number>();

/** A lazy table's state for `rows` rows of `rowBytes` bytes at `offset` of `file` (whose identity is `id`). */
export function lazyRowsOf(file: string, offset: number, rows: number, rowBytes: number, id: { size: number; mtimeMs: number; ino: number }): LazyRows {
  return { file, offset, rowBytes, size: id.size, mtimeMs: id.mtimeMs, ino: id.ino, loaded: new Uint8Array(new SharedArrayBuffer(rows + 1)) };
}

/** Whether every row of the model's table is in (true for a table read whole). */
export function rowsComplete(model: Pick<ModelData, 'lazyRows' | 'rows'>): boolean {
  return !model.lazyRows || model.lazyRows.loaded[model.rows] === 1;
}

/** Reads in the table rows of the token ids ids[from..to) (through the model's mapping) not yet read. */
export function ensureTokenRows(model: ModelData, ids: ArrayLike<number>, from: number, to: number): void {
  const lazy = model.lazyRows;
  if (!lazy || lazy.loaded[model.rows] === 1) return;
  const { loaded } = lazy;
  const { mapping } = model;
  let missing: number[] | null = null;
  for (let t = from; t < to; t++) {
    const row = mapping ? mapping[ids[t]] : ids[t];
    if (loaded[row] === 0) { loaded[row] = 2; (missing ??= []).push(row); }
  }
  if (missing) readRows(model.table, lazy, missing);
}

/** Reads in the given table rows not yet read. */
export function ensureRows(model: ModelData, rows: Iterable<number>): void {
  const lazy = model.lazyRows;
  if (!lazy || lazy.loaded[model.rows] === 1) return;
  const missing: number[] = [];
  for (const row of rows) if (lazy.loaded[row] === 0) { lazy.loaded[row] = 2; missing.push(row); }
  if (missing.length > 0) readRows(model.table, lazy, missing);
}

/** Completions under way, by the table's `loaded` array. */
const completing = new Map<Uint8Array, Promise<void>>();

/**
 * Reads in every row not yet read (the table's bytes in one read on libuv's threads, as loadModel reads a
 * whole table), so the table is what a whole read gives; then closes its file.
 */
export function completeRows(model: ModelData): Promise<void> {
  const lazy = model.lazyRows;
  if (!lazy || lazy.loaded[model.rows] === 1) return Promise.resolve();
  let p = completing.get(lazy.loaded);
  if (!p) {
    p = (async () => {
      const fd = fileOf(lazy);
      const bytes = bytesOf(model.table);
      // Rows already in are read again: the same bytes over the same bytes.
      for (let done = 0; done < bytes.length;) {
        const { bytesRead } = await readAsync(fd, bytes, done, Math.min(bytes.length - done, 64 << 20), lazy.offset + done);
        if (bytesRead === 0) throw changed(lazy, `it ended at byte ${lazy.offset + done}`);
        done += bytesRead;
      }
      lazy.loaded.fill(1);
      releaseRows(lazy);
    })().finally(() => completing.delete(lazy.loaded));
    completing.set(lazy.loaded, p);
  }
  return p;
}

/** Closes the lazy table's file, if open (a later read opens it again, checked as before). */
export function releaseRows(lazy: LazyRows | undefined): void {
  if (!lazy) return;
  const fd = open.get(lazy.loaded);
  if (fd === undefined) return;
  open.delete(lazy.loaded);
  try { closeSync(fd); } catch { /* already closed */ }
}

function bytesOf(table: EmbeddingTable): Uint8Array {
  return new Uint8Array(table.buffer, table.byteOffset, table.byteLength);
}

/** The rows (marked 2: being read) read in, runs of neighbouring rows in one read each, then marked 1. */
function readRows(table: EmbeddingTable, lazy: LazyRows, rows: number[]): void {
  rows.sort((a, b) => a - b);
  const fd = fileOf(lazy);
  const bytes = bytesOf(table);
  const { rowBytes } = lazy;
  try {
    for (let i = 0; i < rows.length;) {
      let j = i + 1;
      while (j < rows.length && rows[j] === rows[j - 1] + 1) j++;
      const at = rows[i] * rowBytes;
      readFully(fd, lazy, bytes.subarray(at, at + (j - i) * rowBytes), lazy.offset + at);
      i = j;
    }
  } catch (e) {
    for (const r of rows) if (lazy.loaded[r] === 2) lazy.loaded[r] = 0;
    throw e;
  }
  for (const r of rows) lazy.loaded[r] = 1;
}

function readFully(fd: number, lazy: LazyRows, into: Uint8Array, position: number): void {
  for (let done = 0; done < into.length;) {
    const n = readSync(fd, into, done, into.length - done, position + done);
    if (n === 0) throw changed(lazy, `it ended at byte ${position + done}`);
    done += n;
  }
}

/** The table's file, open (opened once, and checked to be the very file loadModel read: its size, mtime and inode). */
function fileOf(lazy: LazyRows): number {
  let fd = open.get(lazy.loaded);
  if (fd !== undefined) return fd;
  try { fd = openSync(lazy.file, 'r'); } catch (e) {
    throw changed(lazy, `it cannot be opened again (${(e as NodeJS.ErrnoException).code ?? e})`, e);
  }
  const st = fstatSync(fd);
  if (st.size !== lazy.size || st.mtimeMs !== lazy.mtimeMs || st.ino !== lazy.ino) {
    closeSync(fd);
    throw changed(lazy, 'it is not the file that was loaded (its size, time or inode differ)');
  }
  open.set(lazy.loaded, fd);
  return fd;
}

function changed(lazy: LazyRows, why: string, cause?: unknown): SimgrepError {
  return new SimgrepError('MODEL_CORRUPT', `${lazy.file}: the model file changed while in use: ${why}; run the search again`, { cause });
}
