// A local file read whole on the calling thread only when that is safe: a regular file (a FIFO would block
// the thread forever, a device would never end), not through a link, at most `maxBytes`, and the same size
// from the stat to the last byte. Anything else is null: the caller goes without (a cache miss, a compact
// match with no signature). simgrep's caches (model/cache-entry.ts) also ask that the file be this user's.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** Not O_NOFOLLOW where the platform has none (Windows): a link there is read as the file it names. */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/**
 * The bytes of `file`, or null: absent, a link, not a regular file, over `maxBytes`, shortened or grown while
 * read, unreadable, or (`ownUser`) another user's. `shared`: read into a SharedArrayBuffer (worker threads
 * then get its parts without a copy).
 */
export function readRegularFile(file: string, maxBytes: number, o: { ownUser?: boolean; shared?: boolean } = {}): Buffer | null {
  let fd: number;
  try { fd = openSync(file, READ_FLAGS); } catch { return null; }
  try {
    const st = fstatSync(fd);
    const uid = o.ownUser ? process.getuid?.() : undefined;
    if (!st.isFile() || (uid !== undefined && st.uid !== uid) || st.size > maxBytes) return null;
    const buf = o.shared ? Buffer.from(new SharedArrayBuffer(st.size)) : Buffer.allocUnsafe(st.size);
    let at = 0;
    while (at < buf.length) {
      const n = readSync(fd, buf, at, buf.length - at, at);
      if (n === 0) return null; // shortened while read
      at += n;
    }
    // One byte more would mean it grew since the stat: a file being written is left alone.
    return readSync(fd, Buffer.allocUnsafe(1), 0, 1, at) === 0 ? buf : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
