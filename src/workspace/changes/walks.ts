// The walks a workspace checks for changes — listed, or read back from a walk record when nothing they
// depend on changed — and which walked files the snapshot does not know with their size, mtime and ctime.
import path from 'node:path';
import { SimgrepError } from '../../errors.js';
import { createFsSource, isGlob, type FsSourceOptions } from '../../sources/fs.js';
import { fileKeys, type FileKeyOf } from '../../sources/real-paths.js';
import type { Entry, Source } from '../../sources/source.js';
import type { IgnoreStack } from '../../sources/ignore-rules.js';
import { isRemoteUri } from '../../sources/uri.js';
import { fileIndex, type Snapshot } from '../snapshot/snapshot.js';
import { identityOf, sameIdentity } from './file-identity.js';
import { STAT_FIELDS, statMany } from './stat-many.js';
import type { Walk } from './walk-cache.js';
import { loadWalkRecord, saveWalkRecord, walkRecordFile } from './walk-record.js';

/** The walk an index run of `paths` checks for changes (its filters are the defaults), as kept by recordedWalk. */
export const indexWalkKey = (paths: string[]): string => JSON.stringify(['index', paths]);

/** A walk of the sources: the entries, their keys in the index (`keyOf`: fileKeys of the roots walked), and the listing's warnings. */
export async function listWalk(sources: Source[], keyOf: FileKeyOf, signal?: AbortSignal): Promise<Walk> {
  const found: Entry[] = [];
  for (const source of sources) for await (const e of source.list(signal)) found.push(e);
  // A source stops listing quietly when aborted: a cut walk is no walk (never recorded, never cached).
  // ABORTED, not the signal's reason (throwIfAborted: a raw DOMException AbortError escaped ws.search, trial33).
  if (signal?.aborted) throw new SimgrepError('ABORTED', 'aborted while listing the files');
  return { entries: found, keys: found.map((e) => keyOf(e.path)), warnings: sources.flatMap((s) => s.drainWarnings?.() ?? []) };
}

/**
 * The walk of local paths: as recorded by the last walk of them when no directory or ignore file it
 * depends on changed since (walk-record.ts), else walked (and recorded).
 */
export async function recordedWalk(walkKey: string, paths: string[], filters: Omit<FsSourceOptions, 'paths'>, signal?: AbortSignal, pathFacts = false): Promise<Walk> {
  const file = filters.maxFileBytes === undefined && !paths.some(isGlob) ? walkRecordFile(JSON.stringify([process.cwd(), walkKey])) : null;
  const recorded = file ? loadWalkRecord(file) : null;
  if (recorded) return recorded;
  const listed: string[] = [];
  const rules = new Map<string, IgnoreStack>();
  const startedMs = Date.now();
  const walk = await listWalk([createFsSource({ paths, ...filters, onListed: (d, r) => { listed.push(d); if (r) rules.set(d, r); } })], fileKeys(paths), signal);
  if (file) saveWalkRecord(file, walk, { roots: paths, listed, rules: !filters.noIgnore, startedMs, pathFacts });
  return { ...walk, dirs: listed, rules };
}

/**
 * The walked files the snapshot does not know with their size, mtime and ctime (new, changed, unreadable);
 * with `changedDirs`, only files in those directories can have changed. The local files it knows
 * are stat'ed together (on two threads from `threadFromFiles` files: stat-many.ts).
 */
export async function staleEntries(snap: Snapshot, walk: Walk, threadFromFiles: number, changedDirs?: Set<string>): Promise<Entry[]> {
  const at = fileIndex(snap);
  const stale = new Uint8Array(walk.entries.length);
  /** Local files the snapshot knows: their walk index, and their file index in the snapshot. */
  const local: number[] = [];
  const known: number[] = [];
  // A file two of the walked paths reach (a directory and its subdirectory, a link and its target) is looked at once, under the first.
  const twice = new Set<string>();
  walk.entries.forEach((e, i) => {
    const key = walk.keys[i];
    if (twice.has(key)) return;
    twice.add(key);
    const f = at.get(key);
    if (f === undefined) { stale[i] = 1; return; }
    if (changedDirs && !changedDirs.has(path.dirname(key))) return;
    // Objects (their listing's size and time) and names kept as bytes are looked at one by one.
    if (isRemoteUri(e.path) || (e as { io?: unknown }).io !== undefined) {
      try { stale[i] = sameIdentity(identityOf(e), snap.files[f]) ? 0 : 1; } catch { stale[i] = 1; }
    } else {
      local.push(i);
      known.push(f);
    }
  });
  const stats = await statMany(local.map((i) => walk.entries[i].path), threadFromFiles);
  local.forEach((i, j) => {
    const at = STAT_FIELDS * j;
    const size = stats[at];
    stale[i] = size === size && sameIdentity({ size, mtime: stats[at + 1], ctime: stats[at + 2], known: true }, snap.files[known[j]]) ? 0 : 1;
  });
  return walk.entries.filter((_, i) => stale[i] === 1);
}

/** True when these entries come to `limit` bytes or less (an unreadable one counts as none: the run reports it; one of unknown size as too many). */
export function fewBytes(entries: Entry[], limit: number): boolean {
  let bytes = 0;
  for (const e of entries) {
    let size = 0;
    try { size = identityOf(e).size; } catch { /* reported by the run */ }
    bytes += size < 0 ? Infinity : size;
    if (bytes > limit) return false;
  }
  return true;
}
