// A local file read whole on the calling thread only when that is safe: a regular file (a FIFO swapped in
// would block the thread forever, a device would never end), not through a link, at most `maxBytes` (a
// 300 MB file held the MCP engine for 2 s and ~700 MB: mend47a). Anything else is null: the caller goes without.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** Not O_NOFOLLOW where the platform has none (Windows): a link there is read as the file it names. */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/** The bytes of `file`, or null: absent, a link, not a regular file, over `maxBytes` (then or while read), unreadable. */
export function readSmallFile(file: string, maxBytes: number): Buffer | null {
  let fd: number;
  try { fd = openSync(file, READ_FLAGS); } catch { return null; }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > maxBytes) return null;
    // Read to the end, one byte past stat's size at most: a file that grew since is left alone, as a huge one.
    const buf = Buffer.allocUnsafe(st.size + 1);
    let at = 0;
    for (;;) {
      if (at === buf.length) return null;
      const n = readSync(fd, buf, at, buf.length - at, at);
      if (n === 0) return buf.subarray(0, at);
      at += n;
    }
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
