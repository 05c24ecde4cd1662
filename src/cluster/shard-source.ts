// A shard as a Source: the entries a coordinator listed, read through this machine's own sources for
// the same roots (so with this machine's credentials), local paths resolved from the coordinator's
// directory. A local root this machine cannot see is one warning, not one per file.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { collectBytes, type Entry, type Source, type SourceWarning } from '../sources/source.js';
import { readAhead } from '../sources/remote/read-ahead.js';
import { READ_AHEAD } from '../sources/remote/storage-source.js';
import { isRemoteUri, withoutTrailingSlashes } from '../sources/uri.js';
import type { ShardEntry } from './protocol.js';

export interface ShardSourceOptions {
  entries: ShardEntry[];
  /** This machine's sources for the job's roots, in the order the coordinator built them. */
  sources: Source[];
  roots: string[];
  /** The coordinator's working directory: relative local paths are resolved from it. */
  cwd: string;
  host: string;
}

type Listed = Entry & { s: number; key?: string; io?: Buffer | string };

export function createShardSource(o: ShardSourceOptions): Source {
  const warnings: SourceWarning[] = [];
  const sourceOf = (e: Entry) => o.sources[(e as Listed).s];

  async function* entries(): AsyncGenerator<Listed> {
    const hidden = await invisibleRoots(o.roots, o.cwd);
    // Each hidden root's trailing slashes cut once, not once an entry (the job's roots are the queue's word).
    const hiddenBases = hidden.map(withoutTrailingSlashes);
    for (const root of hidden) {
      warnings.push({
        path: root, code: 'PATH_NOT_FOUND',
        message: `${root}: not found on worker ${o.host}; local paths are searched by workers only when every worker sees the same filesystem (NFS, a shared volume)`,
      });
    }
    for (const e of o.entries) {
      if (!isRemoteUri(e.path) && hiddenBases.some((r) => underRoot(e.path, r))) continue;
      const io = e.io !== undefined ? Buffer.from(e.io, 'base64') : undefined;
      // Ranked by the path the coordinator's walk gave it (ShardEntry.rank), as on one machine.
      const entry: Listed = { path: e.path, size: e.size, named: e.named, s: e.s, key: e.key, ...(e.rank !== undefined && { rank: e.rank }) };
      if (!isRemoteUri(e.path)) entry.io = resolveIo(io ?? e.path, o.cwd);
      yield entry;
    }
  }

  return {
    list(signal) {
      const fetchWhole = (e: Listed) => collectBytes(sourceOf(e).stream!(e, signal));
      // Small remote objects are fetched ahead, as on one machine; local reads are fast enough as they are.
      // (A local entry's "prefetch" is a rejection nobody reads: the fs source reads the file itself.)
      return readAhead(entries(), (e) => (isRemoteUri(e.path) ? fetchWhole(e) : Promise.reject(new Error('local'))), READ_AHEAD);
    },
    read: (entry, signal) => sourceOf(entry).read(entry, signal),
    stream(entry, signal) {
      const source = sourceOf(entry);
      return source.stream ? source.stream(entry, signal) : (async function* () { yield await source.read(entry, signal); })();
    },
    drainWarnings: () => [...warnings.splice(0), ...o.sources.flatMap((s) => s.drainWarnings?.() ?? [])],
  };
}

async function invisibleRoots(roots: string[], cwd: string): Promise<string[]> {
  const local = roots.filter((r) => !isRemoteUri(r) && !/[*?[\]{}]/.test(r));
  const seen = await Promise.all(local.map((r) => stat(path.resolve(cwd, r)).then(() => true, () => false)));
  return local.filter((_, i) => !seen[i]);
}

/** `r` (a root without its trailing slashes) holds `p`. */
function underRoot(p: string, r: string): boolean {
  return p === r || p.startsWith(`${r}/`) || r === '.';
}

function resolveIo(io: string | Buffer, cwd: string): string | Buffer {
  if (typeof io === 'string') return path.resolve(cwd, io);
  return io[0] === 0x2f ? io : Buffer.concat([Buffer.from(`${cwd}/`), io]);
}
