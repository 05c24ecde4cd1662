// Which indexed files a search covers and under which names (the paths as the user typed them; the ranker's
// path signals read them below the searched root), kept while the walk and the snapshot stay the same.
import { pathInfo, type PathInfo } from '../snapshot/path-info.js';
import { fileIndex, type Snapshot } from '../snapshot/snapshot.js';
import type { SourceWarning } from '../../sources/source.js';
import type { Walk } from '../changes/walk-cache.js';

export interface Coverage {
  /** Display path of each snapshot file the search covers (undefined: not covered), its rank path (Entry.rank) and that path's facts. */
  display: (string | undefined)[];
  ranks: (string | undefined)[];
  infos: (PathInfo | undefined)[];
  files: number;
  lines: number;
  bytes: number;
  binary: number;
  namedBinary: SourceWarning[];
}

const coverages = new WeakMap<Walk, { snap: Snapshot; coverage: Coverage }>();

/** Which snapshot files a walk covers, under which names (kept while the walk and snapshot are). */
export function coverage(snap: Snapshot, walk: Walk): Coverage {
  const cached = coverages.get(walk);
  if (cached && cached.snap === snap) return cached.coverage;
  const at = fileIndex(snap);
  const c: Coverage = { display: new Array(snap.files.length), ranks: new Array(snap.files.length), infos: new Array(snap.files.length), files: 0, lines: 0, bytes: 0, binary: 0, namedBinary: [] };
  // A file that two of the paths reach is covered once, under the first name (as a scan lists it: sources/fs.ts unique).
  const taken = new Uint8Array(snap.files.length);
  walk.entries.forEach((e, i) => {
    const f = at.get(walk.keys[i]);
    if (f === undefined) return; // unreadable: reported by the refresh
    if (taken[f]) return;
    taken[f] = 1;
    const file = snap.files[f];
    if (file.kind === 'binary') {
      c.binary++;
      if (e.named) c.namedBinary.push({ path: e.path, code: 'BINARY', message: `${e.path}: binary file (a NUL byte in its first 8 KiB), not searched` });
      return;
    }
    c.display[f] = e.path;
    // The ranking reads the path below the searched root, as the scan's walk gives it (Entry.rank).
    c.ranks[f] = e.rank ?? e.path;
    c.infos[f] = pathInfo(c.ranks[f]!);
    c.files++; c.lines += file.lines; c.bytes += Math.max(0, file.size); // -1: an index made before sizes read were kept
  });
  coverages.set(walk, { snap, coverage: c });
  return c;
}
