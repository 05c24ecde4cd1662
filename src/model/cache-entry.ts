// One file of simgrep's caches (the compiled tokenizers, the kernel's pruning directions): read only when
// it is a regular file of this user's no larger than expected (a FIFO, a link, another user's file or a
// huge one is a miss, never a hang or a whole read), written by a temp file and a rename, the oldest
// entries dropped past a count and the temp files of a killed writer removed. A failure is only a miss.
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readRegularFile } from '../regular-file.js';

/** A temp file this old is left over from a crash or a full disk (a write takes milliseconds). */
const STALE_TEMP_MS = 10 * 60_000;

/**
 * The bytes of the entry at `file`, or null: absent, not a regular file, not this user's, over `maxBytes`,
 * unreadable. `shared`: read into a SharedArrayBuffer (worker threads then get its parts without a copy).
 */
export function readCacheEntry(file: string, maxBytes: number, o: { shared?: boolean } = {}): Buffer | null {
  return readRegularFile(file, maxBytes, { ownUser: true, shared: o.shared });
}

/** Writes `bytes` to `file` whole (temp file + rename), keeping at most `maxEntries` *.bin files in its directory. */
export function writeCacheEntry(file: string, bytes: Uint8Array, maxEntries: number): void {
  const dir = path.dirname(file);
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    mkdirSync(dir, { recursive: true });
    // Before the write: on a full disk the space they hold may be what this write needs.
    dropStaleTemps(dir);
    writeFileSync(tmp, bytes, { mode: 0o600 });
    renameSync(tmp, file);
    dropOldEntries(dir, maxEntries);
  } catch {
    // A read-only or full disk, or a cache directory that cannot be entered or lies under a file, only
    // costs the next run the work again; a partial temp file must not stay (each run would add one).
    try { rmSync(tmp, { force: true }); } catch { /* nothing of ours there */ }
  }
}

/** Removes temp files that a crashed or out-of-space run left (a live writer's is seconds old). */
function dropStaleTemps(dir: string): void {
  const now = Date.now();
  for (const n of readdirSync(dir)) {
    if (!n.endsWith('.tmp')) continue;
    const f = path.join(dir, n);
    try { if (now - statSync(f).mtimeMs > STALE_TEMP_MS) rmSync(f, { force: true }); } catch { /* gone, or not ours */ }
  }
}

function dropOldEntries(dir: string, maxEntries: number): void {
  const names = readdirSync(dir).filter((n) => n.endsWith('.bin'));
  if (names.length <= maxEntries) return;
  const aged = names.map((n) => { try { return { n, t: statSync(path.join(dir, n)).mtimeMs }; } catch { return { n, t: 0 }; } }).sort((a, b) => a.t - b.t);
  for (const e of aged.slice(0, names.length - maxEntries)) { try { rmSync(path.join(dir, e.n), { force: true }); } catch { /* another's */ } }
}
