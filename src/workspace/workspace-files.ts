// What a workspace keeps beside its tables, and the checks on its directory: the snapshot file's
// place, the model fingerprint, the default name of a --index-dir workspace, merged roots, a
// refusal to write into a directory that holds anything else, and the size on disk.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SimgrepError } from '../errors.js';
import { simgrepCacheDir } from '../model/tokenizer-file.js';
import type { ModelData } from '../types.js';
import { INFO_FILE } from './registry.js';

export const SNAPSHOT_FILE = 'snapshot.bin';
/** What was appended since the snapshot file (snapshot-file.ts's deltaPathOf). */
const SNAPSHOT_DELTA_FILE = 'snapshot.delta.bin';
/** The prose documents' line statistics (snapshot/prose-stats-file.ts's proseStatsPathOf). */
const PROSE_STATS_FILE = 'snapshot.prose.bin';
/** Its delta (snapshot/prose-stats-layers.ts's proseStatsDeltaPathOf). */
const PROSE_STATS_DELTA_FILE = 'snapshot.prose.delta.bin';

/** Next to a local index; for an object-store index, in the local cache. */
export function snapshotPath(dir: string, remote: boolean): string {
  if (!remote) return path.join(dir, SNAPSHOT_FILE);
  return path.join(cacheDir(), 'snapshots', `${createHash('sha1').update(dir).digest('hex').slice(0, 16)}.bin`);
}

const fingerprints = new WeakMap<ModelData, string>();

/**
 * What the vectors depend on: the model's id, shape and a sample of its table. Kept per loaded model
 * (its table never changes once loaded): every search checks it, and the sample costs 0.1-0.8 ms.
 */
export function modelFingerprint(model: ModelData): string {
  let f = fingerprints.get(model);
  if (f === undefined) fingerprints.set(model, (f = fingerprintOf(model)));
  return f;
}

function fingerprintOf(model: ModelData): string {
  const h = createHash('sha256').update(`${model.rows}\0${model.dim}\0${model.normalize}\0${model.maxLength}`);
  const t = model.table;
  const step = Math.max(1, Math.floor(t.length / 4096));
  const sample = new Float64Array(Math.ceil(t.length / step));
  for (let i = 0, j = 0; i < t.length; i += step, j++) sample[j] = t[i];
  h.update(new Uint8Array(sample.buffer));
  return h.digest('hex').slice(0, 32);
}

/** The cache for object-store snapshots (a temporary one when caching is off). */
function cacheDir(): string {
  return simgrepCacheDir() ?? path.join(tmpdir(), 'simgrep-cache');
}

export function workspaceNameOf(dir: string): string {
  const base = dir.replace(/\/+$/, '').split('/').pop() ?? 'workspace';
  return base.replace(/[^A-Za-z0-9._-]/g, '_') || 'workspace';
}

export function mergeRoots(old: string[], added: string[]): string[] {
  const all = [...new Set([...old, ...added])].sort();
  return all.filter((r) => !all.some((o) => o !== r && r.startsWith(o.endsWith(path.sep) ? o : o + path.sep)));
}

/** A directory that holds other things than a workspace is refused, never written into. */
export function checkNotForeign(dir: string): void {
  if (!existsSync(dir)) return;
  let names: string[];
  try { names = readdirSync(dir); } catch (e) {
    throw new SimgrepError('INDEX_UNREADABLE', `cannot read the index directory ${dir}: ${(e as NodeJS.ErrnoException).code ?? e}; check its permissions`);
  }
  // staging/: a cluster build's per-shard staging databases (cluster/staging.ts), dropped after its merge.
  const ours = new Set(['chunks.lance', 'files.lance', 'meta.lance', 'staging', INFO_FILE, SNAPSHOT_FILE, SNAPSHOT_DELTA_FILE, PROSE_STATS_FILE, PROSE_STATS_DELTA_FILE, '.simgrep-lock']);
  const foreign = names.filter((n) => !ours.has(n) && ![INFO_FILE, SNAPSHOT_FILE, SNAPSHOT_DELTA_FILE, PROSE_STATS_FILE, PROSE_STATS_DELTA_FILE].some((f) => n.startsWith(`${f}.`)));
  if (foreign.length > 0) {
    throw new SimgrepError('INDEX_UNREADABLE', `${dir} is not a simgrep workspace (it holds ${foreign.slice(0, 3).join(', ')}${foreign.length > 3 ? ', ...' : ''}); pass an empty or new directory as --index-dir`);
  }
}

export function diskUsage(p: string): number {
  let total = 0;
  try {
    const st = statSync(p);
    if (!st.isDirectory()) return st.size;
    for (const n of readdirSync(p)) total += diskUsage(path.join(p, n));
  } catch { /* vanished while counting */ }
  return total;
}

/** Which files these paths are and how they stand (inode, size, change times; `-` for one missing): equal while none is replaced or written. */
export function filesStamp(...files: string[]): string {
  return files.map((f) => {
    const s = statSync(f, { throwIfNoEntry: false, bigint: true });
    return s ? `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}` : '-';
  }).join('|');
}
