// Whether a local file or root a workspace holds is gone for good (workspace prune, an index run after a
// killed one): lstat says it does not exist (ENOENT) or a part of it is no longer a directory (ENOTDIR).
// Any other failure (EACCES, EIO, ESTALE, ENOTCONN, ELOOP) may pass, so the path is kept: existsSync is
// false for all of them, and dropped a root behind an unmounted or unreadable directory.
import { lstatSync } from 'node:fs';
import { ioPathOf } from './dir-listing.js';

/** `key` as a workspace keys a local path (escaped bytes undone: dir-listing.ts ioPathOf). */
export function isGone(key: string): boolean {
  try { lstatSync(ioPathOf(key)); return false; } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR';
  }
}
