// An int8 table read row by row, as a search meets its tokens, instead of whole: a search of a few files
// meets a few thousand of the bundled model's 87,727 rows, and reading all 45 MB (each page's first write
// a fault) cost a one-shot search ~0.2 s of system time. The table is a zero-filled SharedArrayBuffer of
// its full size (pages never written are never mapped) into which the rows met are read (pread) before
// anything reads them: the tokens' rows where lines are tokenized (embed/line-scorer.ts), the rows the
// pruning directions sample (embed/directions-cache.ts); completeRows reads the rest before any other use
// (a pool, an index, a workspace: searcher.ts). The kernels read the same bytes as from a whole read.
import { closeSync, constants, fstatSync, openSync, read, readSync } from 'node:fs';
import { promisify } from 'node:util';
import { SimgrepError } from '../errors.js';
import type { EmbeddingTable, FileIdentity, LazyRows, ModelData } from '../types.js';

const readAsync = promisify(read);

/** The `loaded` mark (at index rows) of a table whose bytes a changed file may have overwritten: every later use throws. */
const SPOILT = 3;

/** A lazy table's state for `rows` rows of `rowBytes` bytes at `offset` of `file` (whose identity at load is `id`). */
export function lazyRowsOf(file: string, offset: number, rows: number, rowBytes: number, id: FileIdentity): LazyRows {
  const { size, mtimeMs, ctimeMs, ino, dev } = id;
  return { file, offset, rowBytes, id: { size, mtimeMs, ctimeMs, ino, dev }, loaded: new Uint8Array(new SharedArrayBuffer(rows + 1)) };
}

/** Whether every row of the model's table is in (true for a table read whole). */
export function rowsComplete(model: Pick<ModelData, 'lazyRows' | 'rows'>): boolean {
  return !model.lazyRows || model.lazyRows.loaded[model.rows] === 1;
}

/** Reads in the table rows of the token ids ids[from..to) (through the model's mapping) not yet read. */
export function ensureTokenRows(model: ModelData, ids: ArrayLike<number>, from: number, to: number): void {
  const lazy = model.lazyRows;
  if (!lazy || lazy.loaded[model.rows] === 1) return;
  if (lazy.loaded[model.rows] === SPOILT) spoilt(model, lazy);
  const { loaded } = lazy;
  const { mapping } = model;
  let missing: number[] | null = null;
  for (let t = from; t < to; t++) {
    const row = mapping ? mapping[ids[t]] : ids[t];
    if (loaded[row] === 0) { loaded[row] = 2; (missing ??= []).push(row); }
  }
  if (missing) readRows(model, lazy, missing);
}

/** Reads in the given table rows not yet read. */
export function ensureRows(model: ModelData, rows: Iterable<number>): void {
  const lazy = model.lazyRows;
  if (!lazy || lazy.loaded[model.rows] === 1) return;
  if (lazy.loaded[model.rows] === SPOILT) spoilt(model, lazy);
  const missing: number[] = [];
  for (const row of rows) if (lazy.loaded[row] === 0) { lazy.loaded[row] = 2; missing.push(row); }
  if (missing.length > 0) readRows(model, lazy, missing);
}

/** Completions under way, by the table's `loaded` array. */
const completing = new Map<Uint8Array, Promise<void>>();

/**
 * Reads in every row not yet read (the table's bytes in one read on libuv's threads, as loadModel reads a
 * whole table), so the table is what a whole read gives. It opens the file itself and closes it when done
 * (a searcher's close() never closes it under the read), and checks the open file is the one loaded before
 * and after the read: a file changed in between spoils the table (rows already in were read again).
 */
export function completeRows(model: ModelData): Promise<void> {
  const lazy = model.lazyRows;
  if (!lazy || lazy.loaded[model.rows] === 1) return Promise.resolve();
  let p = completing.get(lazy.loaded);
  if (!p) {
    p = (async () => {
      spoilt(model, lazy);
      const fd = openChecked(lazy);
      let began = false;
      try {
        const bytes = bytesOf(model.table);
        // Rows already in are read again: the same bytes over the same bytes, checked below.
        for (let done = 0; done < bytes.length;) {
          began = true;
          let bytesRead: number;
          try {
            ({ bytesRead } = await readAsync(fd, bytes, done, Math.min(bytes.length - done, 64 << 20), lazy.offset + done));
          } catch (e) {
            throw changed(lazy, `it could not be read (${(e as NodeJS.ErrnoException).code ?? e})`, e);
          }
          if (bytesRead === 0) throw changed(lazy, `it ended at byte ${lazy.offset + done}`);
          done += bytesRead;
        }
        checkSame(fd, lazy);
        lazy.loaded.fill(1);
      } catch (e) {
        if (began && !sameFile(fd, lazy)) lazy.loaded[model.rows] = SPOILT;
        throw e;
      } finally {
        closeSync(fd);
      }
    })().finally(() => completing.delete(lazy.loaded));
    completing.set(lazy.loaded, p);
  }
  return p;
}

function bytesOf(table: EmbeddingTable): Uint8Array {
  return new Uint8Array(table.buffer, table.byteOffset, table.byteLength);
}

/**
 * The rows (marked 2: being read) read in, runs of neighbouring rows in one read each, then marked 1; the
 * file opened for this run and closed after it, checked to be the file loaded before and after the reads.
 * Any failure marks them 0 again (not read), so a later call reads them or fails as well, never sums zeros.
 */
function readRows(model: ModelData, lazy: LazyRows, rows: number[]): void {
  let fd: number | undefined;
  try {
    spoilt(model, lazy);
    rows.sort((a, b) => a - b);
    fd = openChecked(lazy);
    const bytes = bytesOf(model.table);
    const { rowBytes } = lazy;
    for (let i = 0; i < rows.length;) {
      let j = i + 1;
      while (j < rows.length && rows[j] === rows[j - 1] + 1) j++;
      const at = rows[i] * rowBytes;
      readFully(fd, lazy, bytes.subarray(at, at + (j - i) * rowBytes), lazy.offset + at);
      i = j;
    }
    checkSame(fd, lazy);
  } catch (e) {
    for (const r of rows) if (lazy.loaded[r] === 2) lazy.loaded[r] = 0;
    throw e;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  for (const r of rows) lazy.loaded[r] = 1;
}

function readFully(fd: number, lazy: LazyRows, into: Uint8Array, position: number): void {
  for (let done = 0; done < into.length;) {
    let n: number;
    try { n = readSync(fd, into, done, into.length - done, position + done); } catch (e) {
      throw changed(lazy, `it could not be read (${(e as NodeJS.ErrnoException).code ?? e})`, e);
    }
    if (n === 0) throw changed(lazy, `it ended at byte ${position + done}`);
    done += n;
  }
}

/** The table's file, opened and checked to be the very file loadModel read (its size, times, inode and device). */
function openChecked(lazy: LazyRows): number {
  let fd: number;
  // Without blocking: a FIFO put in the file's place since the load would hold this thread forever (it then
  // fails checkSame, as any other file would).
  try { fd = openSync(lazy.file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)); } catch (e) {
    throw changed(lazy, `it cannot be opened again (${(e as NodeJS.ErrnoException).code ?? e})`, e);
  }
  try { checkSame(fd, lazy); } catch (e) { closeSync(fd); throw e; }
  return fd;
}

function checkSame(fd: number, lazy: LazyRows): void {
  if (!sameFile(fd, lazy)) throw changed(lazy, 'it is not the file that was loaded (its size, times, inode or device differ)');
}

function sameFile(fd: number, lazy: LazyRows): boolean {
  let st;
  try { st = fstatSync(fd); } catch { return false; }
  const { id } = lazy;
  return st.size === id.size && st.mtimeMs === id.mtimeMs && st.ctimeMs === id.ctimeMs && st.ino === id.ino && st.dev === id.dev;
}

function spoilt(model: ModelData, lazy: LazyRows): void {
  if (lazy.loaded[model.rows] === SPOILT) throw changed(lazy, 'it changed while its rows were read, so rows already read may be from either version');
}

function changed(lazy: LazyRows, why: string, cause?: unknown): SimgrepError {
  return new SimgrepError('MODEL_CORRUPT', `${lazy.file}: the model file changed while in use: ${why}; run the search again (a library searcher: create another)`, { cause });
}
