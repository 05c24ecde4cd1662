// Cuts a listing into shards as it streams in: by bytes, so shards cost about the same to search, and
// by count, so a shard of tiny files stays a small job. A file is never split: its chunks and windows
// stay whole, which is what makes a shard's top-k exact.
import { statSync } from 'node:fs';
import type { Entry, Source, SourceWarning } from '../sources/source.js';
import { isRemoteUri } from '../sources/uri.js';
import type { ShardEntry } from './protocol.js';

/** Measured (bench/cluster.ts, docs/SCALING.md): per-shard overhead stays near 1% of a shard's time. */
export const DEFAULT_SHARD_BYTES = 16 << 20;
export const MAX_SHARD_ENTRIES = 4000;
/** What an entry of unknown size (an https body) is counted as. */
const UNKNOWN_SIZE = 1 << 20;

export interface ListedShard { entries: ShardEntry[]; bytes: number }

export async function* cutShards(
  sources: Source[], o: { shardBytes: number; signal?: AbortSignal; onWarnings: (w: SourceWarning[]) => void },
): AsyncGenerator<ListedShard> {
  let entries: ShardEntry[] = [];
  let bytes = 0;
  for (let s = 0; s < sources.length; s++) {
    for await (const e of sources[s].list(o.signal)) {
      o.onWarnings(sources[s].drainWarnings?.() ?? []);
      entries.push(toShardEntry(s, e));
      bytes += e.size ?? sizeOf(e);
      if (bytes >= o.shardBytes || entries.length >= MAX_SHARD_ENTRIES) {
        yield { entries, bytes };
        entries = [];
        bytes = 0;
      }
    }
    o.onWarnings(sources[s].drainWarnings?.() ?? []);
  }
  if (entries.length > 0) yield { entries, bytes };
}

/** A local walk does not stat its files (only --max-filesize needs sizes): the coordinator does, to cut by bytes. */
function sizeOf(e: Entry): number {
  if (isRemoteUri(e.path)) return UNKNOWN_SIZE;
  try { return statSync((e as Entry & { io?: Buffer }).io ?? e.path).size; } catch { return 0; }
}

function toShardEntry(s: number, e: Entry): ShardEntry {
  const { key, io } = e as Entry & { key?: string; io?: Buffer };
  return {
    s, path: e.path,
    ...(e.size !== undefined && { size: e.size }),
    ...(e.modifiedMs !== undefined && { modifiedMs: e.modifiedMs }),
    ...(e.etag !== undefined && { etag: e.etag }),
    ...(e.named && { named: true }),
    ...(e.rank !== undefined && { rank: e.rank }),
    ...(key !== undefined && { key }),
    ...(io !== undefined && { io: io.toString('base64') }),
  };
}
