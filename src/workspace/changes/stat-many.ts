// The sizes, mtimes and ctimes of many local files, for a cold search's stale check: a stat each (~3 us),
// and above STAT_THREAD_FROM_FILES files half of them on a second thread (workers/stat.worker.ts;
// 150,000 files: 496 -> 370 ms on 2 cores, bench/walk-record.ts; below, starting the thread costs
// more than it saves).
import { statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { ioPathOf } from '../../sources/dir-listing.js';
import { builtWorkerFile } from '../../worker-file.js';

export const STAT_THREAD_FROM_FILES = 30_000;
/** Numbers per path in statMany's answer. */
export const STAT_FIELDS = 3;

/** [size, mtimeMs, ctimeMs] of each path (STAT_FIELDS numbers each), NaN for one that cannot be stat'ed; `threadFromFiles`: see STAT_THREAD_FROM_FILES. */
export async function statMany(paths: string[], threadFromFiles = STAT_THREAD_FROM_FILES): Promise<Float64Array> {
  const out = new Float64Array(paths.length * STAT_FIELDS).fill(NaN);
  const half = paths.length >> 1;
  const worker = paths.length >= threadFromFiles && half < paths.length ? builtWorkerFile('stat.worker.js') : null;
  const mine = worker ? half : paths.length;
  const theirs = worker ? onThread(worker, paths.slice(half)) : null;
  statInto(paths, 0, mine, out);
  const answer = theirs ? await theirs : null;
  if (answer) out.set(answer, mine * STAT_FIELDS);
  else statInto(paths, mine, paths.length, out); // no thread: this one does the rest
  return out;
}

/** Stats paths [from, to) into out's [size, mtimeMs, ctimeMs] triples (the thread runs the same). */
export function statInto(paths: string[], from: number, to: number, out: Float64Array): void {
  for (let i = from; i < to; i++) {
    try {
      // A name that is not valid UTF-8 is keyed with its bad bytes escaped: stat'ed by its raw bytes.
      const st = statSync(ioPathOf(paths[i]), { throwIfNoEntry: false });
      if (st) { out[STAT_FIELDS * i] = st.size; out[STAT_FIELDS * i + 1] = st.mtimeMs; out[STAT_FIELDS * i + 2] = st.ctimeMs; }
    } catch { /* NaN: unreadable */ }
  }
}

/** The thread's answer, or null when it failed (the caller stats those files itself). */
function onThread(file: string, paths: string[]): Promise<Float64Array | null> {
  return new Promise((resolve) => {
    let thread: Worker;
    try {
      thread = new Worker(file, { workerData: { paths: paths.join('\0') } });
    } catch {
      resolve(null);
      return;
    }
    thread.once('message', (m: Float64Array) => resolve(m.length === paths.length * STAT_FIELDS ? m : null));
    thread.once('error', () => resolve(null));
    thread.once('exit', () => resolve(null));
  });
}
