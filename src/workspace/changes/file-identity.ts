// What says a file may have changed since it was indexed, and its key in the index: a local file by
// its absolute path, size and mtime (a stat); an object by its URI and the size and last-modified time
// its store's listing gave. When the listing gives no time (an https URL), the identity is unknown and
// the content hash decides, so the answer stays exact.
import { statSync } from 'node:fs';
import path from 'node:path';
import type { Entry } from '../../sources/source.js';
import { isRemoteUri } from '../../sources/uri.js';

export interface FileIdentity { size: number; mtime: number; known: boolean }

export function fileKey(p: string): string {
  return isRemoteUri(p) ? p : path.resolve(p);
}

/** Throws when a local file cannot be stat'ed (the caller reports it as unreadable). */
export function identityOf(entry: Entry): FileIdentity {
  if (!isRemoteUri(entry.path)) {
    const st = statSync((entry as Entry & { io?: Buffer }).io ?? entry.path);
    return { size: st.size, mtime: st.mtimeMs, known: true };
  }
  const known = entry.size !== undefined && entry.modifiedMs !== undefined;
  return { size: entry.size ?? -1, mtime: entry.modifiedMs ?? -1, known };
}

/** True when the file is the one indexed with this size and mtime. */
export function sameIdentity(id: FileIdentity, indexed: { size: number; mtime: number }): boolean {
  return id.known && indexed.size === id.size && indexed.mtime === id.mtime;
}

/** True when the key lies under the root (a directory or prefix; URIs compared as strings). */
export function isUnder(key: string, root: string): boolean {
  const sep = isRemoteUri(root) ? '/' : path.sep;
  const r = isRemoteUri(root) ? root.replace(/\/+$/, '') : path.resolve(root);
  return key === r || key.startsWith(r.endsWith(sep) ? r : r + sep);
}
