// What says a file may have changed since it was indexed: a local file by its size and mtime (a stat);
// an object by the size and last-modified time its store's listing gave. When the listing gives no time
// (an https URL), the identity is unknown and the content hash decides, so the answer stays exact. A
// file's key in the index (its real path, or its URI) is made by sources/real-paths.ts fileKeys.
import { statSync } from 'node:fs';
import path from 'node:path';
import type { Entry } from '../../sources/source.js';
import { isRemoteUri } from '../../sources/uri.js';

export interface FileIdentity { size: number; mtime: number; known: boolean }

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
