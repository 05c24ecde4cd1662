// What says a file may have changed since it was indexed: a local file by its size, mtime and ctime (a
// stat; as git does: an edit that keeps size and mtime, `touch -r` or `cp -p` after it, still moves the
// ctime, which no user can set back); an object by the size, last-modified time and ETag its store's
// listing gave (last-modified has one-second resolution: an overwrite within the second changes the
// ETag). When the listing gives no time (an https URL), the identity is unknown and the content hash
// decides, so the answer stays exact. A file's key in the index (its real path, or its URI) is made by
// sources/real-paths.ts fileKeys.
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import path from 'node:path';
import type { Entry } from '../../sources/source.js';
import { isRemoteUri } from '../../sources/uri.js';
import { UNKNOWN_CTIME } from '../snapshot/snapshot.js';

/**
 * `ctime`: a local file's ctime (ms); an object's ETag as a number (etagStamp), 0 when its listing gave
 * none. In the index, UNKNOWN_CTIME marks a state that must be hashed again (see there).
 */
export interface FileIdentity { size: number; mtime: number; ctime: number; known: boolean }

export { UNKNOWN_CTIME } from '../snapshot/snapshot.js';

/**
 * A file changed this recently before the run that stats it may change again within the same timestamp
 * tick (git's "racily clean" entries): an edit of the same size in the tick of the run's read leaves size,
 * mtime and ctime as they were. Times come in ticks of up to ~16 ms (Linux's coarse clock, before
 * 6.13's multigrain times; Windows' timer), hence RACY_MS; a file system that keeps whole seconds (ext3,
 * HFS+, FAT's 2 s, many network mounts: both times whole seconds) gets RACY_COARSE_MS, as walk-record.ts.
 */
export const RACY_MS = 50;
export const RACY_COARSE_MS = 2000;

/** Throws when a local file cannot be stat'ed (the caller reports it as unreadable). */
export function identityOf(entry: Entry): FileIdentity {
  if (!isRemoteUri(entry.path)) {
    const st = statSync((entry as Entry & { io?: Buffer }).io ?? entry.path);
    return { size: st.size, mtime: st.mtimeMs, ctime: st.ctimeMs, known: true };
  }
  const known = entry.size !== undefined && entry.modifiedMs !== undefined;
  return { size: entry.size ?? -1, mtime: entry.modifiedMs ?? -1, ctime: etagStamp(entry.etag), known };
}

/**
 * An ETag (or generation) as a number the index's ctime column holds: 48 bits of its SHA-256 (exact in
 * a double; two versions of one object collide with odds of 2^-48), 0 when there is none.
 */
export function etagStamp(etag: string | undefined): number {
  return etag === undefined || etag === '' ? 0 : parseInt(createHash('sha256').update(etag).digest('hex').slice(0, 12), 16) + 1;
}

/** True when the file is the one indexed with this size, mtime and ctime. */
export function sameIdentity(id: FileIdentity, indexed: { size: number; mtime: number; ctime: number }): boolean {
  return id.known && indexed.size === id.size && indexed.mtime === id.mtime && indexed.ctime === id.ctime;
}

/**
 * The identity an index run records for a file it read, the run having started at `startedMs` (before
 * its stat): a local file whose ctime is within RACY_MS of that start (or later) gets UNKNOWN_CTIME, so the next run
 * hashes it again rather than trust a stat that a same-tick edit would not have moved. The ctime alone
 * decides: every content write (and utimes) sets it to now, and no user can set it ahead, while an mtime
 * ahead of the clock (an archive from a host whose clock runs fast, `touch -d '+1 hour'`) would make
 * the file look racy on every run, read and committed again each time. Objects are kept as listed
 * (their ETag changes with every write).
 */
export function recordedIdentity(key: string, id: { size: number; mtime: number; ctime: number }, startedMs: number): { size: number; mtime: number; ctime: number } {
  const racyMs = id.mtime % 1000 === 0 && id.ctime % 1000 === 0 ? RACY_COARSE_MS : RACY_MS;
  if (isRemoteUri(key) || id.ctime < startedMs - racyMs) return id;
  return { ...id, ctime: UNKNOWN_CTIME };
}

/**
 * Whether a key lies under one of the roots (a directory or prefix; URIs compared as strings), each root
 * resolved once, not once per key.
 */
export function underAny(roots: readonly string[]): (key: string) => boolean {
  const under = roots.map((r) => {
    const sep = isRemoteUri(r) ? '/' : path.sep;
    const base = isRemoteUri(r) ? r.replace(/\/+$/, '') : path.resolve(r);
    return { base, prefix: base.endsWith(sep) ? base : base + sep };
  });
  return (key) => under.some((u) => key === u.base || key.startsWith(u.prefix));
}

/** True when the key lies under the root (underAny of that one root). */
export function isUnder(key: string, root: string): boolean {
  return underAny([root])(key);
}

/**
 * The indexed files under none of the workspace's roots (real paths, as its meta keeps them): left by an
 * older simgrep that keyed a tree reached through a symlink by the link's path (the tree then indexed
 * twice). Every run that saves drops them. None when the roots are not known.
 */
export function orphanKeys(keys: Iterable<string>, roots: readonly string[]): string[] {
  // Local files only: a URI root is kept as typed (`S3://b/p`, a host in capitals, a token in the query)
  // while its keys are the listing's canonical URIs, and the doubling healed here was of local links.
  const local = roots.filter((r) => !isRemoteUri(r));
  if (local.length === 0) return [];
  const under = underAny(local);
  const out: string[] = [];
  for (const k of keys) if (!isRemoteUri(k) && !under(k)) out.push(k);
  return out;
}
