// Prose files of a workspace search, read whole from disk as a scan reads them: their lines are ranked
// with the file's own document frequencies (rank/prose.ts), which chunk candidates cannot give, so the
// index answers exactly as a scan would by scanning them.
import type { Entry, Source } from '../../sources/source.js';
import { isProsePath } from '../../rank/prose.js';
import type { Snapshot } from '../snapshot/snapshot.js';

/** Files of this many bytes in all, or fewer, are scored on the calling thread (as the searcher's rule). */
const SMALL_BYTES = 2 << 20;

/** The covered files split in two: display paths with the prose files left out, and the prose files as a Source. */
export function splitProse(snap: Snapshot, display: (string | undefined)[], reader: Source): { display: (string | undefined)[]; prose: Source | null } {
  const entries: Entry[] = [];
  const rest = display.map((path, f) => {
    if (path === undefined || !isProsePath(path)) return path;
    entries.push({ path, size: snap.files[f].size });
    return undefined;
  });
  if (entries.length === 0) return { display, prose: null };
  const bytes = entries.reduce((sum, e) => sum + (e.size ?? 0), 0);
  return {
    display: rest,
    prose: {
      small: bytes <= SMALL_BYTES,
      async *list() { yield* entries; },
      read: (entry, signal) => reader.read(entry, signal),
      ...(reader.stream && { stream: (entry: Entry, signal?: AbortSignal) => reader.stream!(entry, signal) }),
    },
  };
}
