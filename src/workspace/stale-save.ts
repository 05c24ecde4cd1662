// What a workspace search does with the files it found changed since the index saw them: saves them under the
// lock (queued behind this process's other calls, saving only what a call before it left unsaved), and holds
// the walk cache's state for them until that save has ended (search-run.ts is the search that asks).
import { SimgrepError } from '../errors.js';
import type { Entry } from '../sources/source.js';
import type { IndexReport } from './build/indexer.js';
import type { Walk, WalkState } from './changes/walk-cache.js';
import { staleEntries } from './changes/walks.js';
import { isLock, tryLock, type Lock, type LockInfo } from './lock.js';
import type { OpenWorkspace, SnapshotNotes } from './open.js';
import { indexAndPublish } from './publish.js';
import type { Snapshot } from './snapshot/snapshot.js';

/** The walk's changes a search took to save, settled once (WalkState.settle). */
export class Held {
  private fn: WalkState['settle'];
  private over = false;
  private saving = false;

  /** The walk came back (after the search ended: a deadline cut it while it waited, and it is given back). */
  take(fn: WalkState['settle']): void {
    if (this.over) fn?.(false);
    else this.fn = fn;
  }

  /** `left`: given back unsaved, only the files in these directories changed (WalkState.settle). */
  settle(saved: boolean, left?: ReadonlySet<string>): void {
    const fn = this.fn;
    this.fn = undefined;
    fn?.(saved, left);
  }

  /**
   * Settled by the save under way when it ends, though the search ends first: cut by its deadline, the search
   * leaves the save writing (save42: before, the cut gave the walk back as unsaved while the save still wrote,
   * and the next search walked the whole tree and read the files again beside it).
   */
  after(saved: Promise<boolean>): void {
    this.saving = true;
    void saved.then((ok) => this.settle(ok));
  }

  /** The search ended: what it did not say it saved (and no save of its own still writes) is given back. */
  end(): void {
    this.over = true;
    if (!this.saving) this.settle(false);
  }
}

/**
 * Until a search has saved what changed, another search of the same paths checks it again: it is not told
 * nothing changed while this one's save still writes (an aborted search's save runs to its end; before
 * mend41b a search run beside it answered from the index before it, saying fresh).
 */
export function heldWalk(walked: Promise<WalkState>, held: Held): Promise<WalkState> {
  return walked.then((state) => { held.take(state.settle); return state; });
}

/**
 * What saving the stale files came to: done (null: none was stale any more), refused by another process's
 * lock, or failed on the disk.
 */
export type Saved = { report: IndexReport | null; holder?: undefined } | { holder: LockInfo; report?: undefined } | { errno: string; holder?: undefined; report?: undefined };

/**
 * Saves what of `stale` (a walk of the stale files) the index does not hold now (the caller's turn for the
 * lock came): a call before it in the queue may have saved them (another search's save of the same changes,
 * an index run), and then none is read again (save42: before, a search beside another's save read them all
 * again for its own answer, beside the save). `seen`: the snapshot they were found stale against.
 */
export async function saveLeft(ws: OpenWorkspace, paths: string[], stale: Walk, seen: Snapshot, notes: SnapshotNotes): Promise<Saved> {
  const now = await ws.loadSnapshot(undefined, notes);
  const left = now === seen ? stale.entries : await staleEntries(now, stale, ws.statThreadFromFiles);
  return left.length === 0 ? { report: null } : saveStale(ws, paths, left, notes);
}

/** `saving`, or an ABORTED rejection when `signal` aborts before it has `begun` (while it waits for its turn for the lock). */
export function untilBegun<T>(saving: Promise<T>, begun: () => boolean, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return saving;
  let stop = () => {};
  const aborted = new Promise<never>((_, reject) => {
    stop = () => { if (!begun()) reject(new SimgrepError('ABORTED', 'the search was aborted')); };
    if (signal.aborted) stop(); else signal.addEventListener('abort', stop, { once: true });
  });
  aborted.catch(() => {});
  return Promise.race([saving, aborted]).finally(() => signal.removeEventListener('abort', stop));
}

/** The walk's entries in `entries` (found stale), with their keys. */
export function only(walk: Walk, entries: Entry[]): Walk {
  const wanted = new Set(entries);
  const at = walk.entries.flatMap((e, i) => (wanted.has(e) ? [i] : []));
  return { entries: at.map((i) => walk.entries[i]), keys: at.map((i) => walk.keys[i]), warnings: [] };
}

/** Saves the stale files to the index under the lock (the caller queued in this process). */
export async function saveStale(ws: OpenWorkspace, paths: string[], stale: Entry[], notes: SnapshotNotes): Promise<Saved> {
  const file = ws.lockFile();
  let got: Lock | LockInfo | null = null;
  try {
    got = file ? tryLock(file) : null;
    if (got && !isLock(got)) return { holder: got };
    return { report: await indexAndPublish(ws, await ws.store(false), paths, { entries: stale, notes }) };
  } catch (e) {
    const errno = diskErrno(e);
    if (errno) return { errno };
    throw e;
  } finally {
    if (got && isLock(got)) got.release();
  }
}

/** The errno of a write that failed on the disk (full, read-only, no permission), named as the system does. */
function diskErrno(e: unknown): string | null {
  const text = [e, (e as Error)?.cause].map((x) => `${(x as NodeJS.ErrnoException)?.code ?? ''} ${(x as Error)?.message ?? ''}`).join(' ');
  if (/ENOSPC|No space left|os error 28/i.test(text)) return 'ENOSPC: the disk is full';
  if (/EDQUOT|quota/i.test(text)) return 'EDQUOT: the disk quota is used up';
  if (/EROFS|Read-only file system|os error 30/i.test(text)) return 'EROFS: the file system is read-only';
  if (/EACCES|EPERM|Permission denied|os error 13/i.test(text)) return 'EACCES: no permission to write the index';
  return null;
}
