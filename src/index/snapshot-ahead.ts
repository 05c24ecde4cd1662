// A big snapshot read on another thread while the caller does other work (a cold search walks the
// tree and stats its files meanwhile): reading a 1M-line index's snapshot and widening its vectors
// takes a cold process ~60 ms, which then overlap. The files are opened here first, so the thread
// reads exactly the files this process will read postings from. Small snapshots, and a checkout
// whose worker file is not built, are read on the calling thread.
import { statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { builtWorkerFile } from '../worker-file.js';
import type { Snapshot } from './snapshot.js';
import { readSnapshotBytes, type SnapshotBytes } from './snapshot-bytes.js';
import { openSnapshotFiles, readSnapshotFile, snapshotOf } from './snapshot-file.js';

/** Base files smaller than this are read on the calling thread (a thread takes ~30 ms to start). */
export const AHEAD_FROM_BYTES = 16 << 20;

export interface SnapshotAhead {
  readonly version: string;
  /** Whether another thread reads it. */
  readonly threaded: boolean;
  /** The snapshot, or null when its files are missing, damaged or of another version. */
  read(): Promise<Snapshot | null>;
}

/** Starts reading the snapshot of `version` from `file` (and its delta); `fromBytes`: see AHEAD_FROM_BYTES. */
export function readSnapshotAhead(file: string, version: string, fromBytes = AHEAD_FROM_BYTES): SnapshotAhead {
  const worker = Number.isFinite(fromBytes) && sizeOf(file) >= fromBytes ? builtWorkerFile('snapshot-read.worker.js') : null;
  const fds = worker && openSnapshotFiles(file);
  if (!fds) return { version, threaded: false, read: async () => readSnapshotFile(file, version) };
  // The snapshot is built as soon as the thread answers (it then owns the files: nothing leaks if
  // read() is never called); a thread that fails leaves the reading to this one.
  const snapshot = new Promise<Snapshot | null>((resolve) => {
    let settled = false;
    const settle = (read: SnapshotBytes | null | undefined) => {
      if (settled) return;
      settled = true;
      resolve(snapshotOf(fds, read === undefined ? readSnapshotBytes(fds, version) : read));
    };
    let thread: Worker;
    try {
      thread = new Worker(worker!, { workerData: { fds, version } });
    } catch {
      settle(undefined); // no thread to be had (a resource limit): read here
      return;
    }
    thread.once('message', (m: SnapshotBytes | null) => settle(m));
    thread.once('error', () => settle(undefined));
    // Not unref()'d: a process whose only work left is waiting for it would exit without its answer.
    thread.once('exit', () => settle(undefined));
  });
  return { version, threaded: true, read: () => snapshot };
}

/** The file's size; -1 when it cannot be stat'ed (missing, or a cache path that is not a directory: read then fails the usual way). */
function sizeOf(file: string): number {
  try { return statSync(file, { throwIfNoEntry: false })?.size ?? -1; } catch { return -1; }
}
