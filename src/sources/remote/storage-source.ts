// The remote Source adapter: any unstorage Storage becomes a Source. Drivers with simgrep's streaming
// capabilities are listed page by page and read in bounded memory; any other driver goes through
// unstorage's own getKeys/getItemRaw (the fallback). Filters mean what they mean for a local walk.
// Every failure becomes a per-source warning or a per-object error that names the URI.
import type { Storage } from 'unstorage';
import { isSimgrepError, SimgrepError, type ErrorCode } from '../../errors.js';
import { collectBytes, type Entry, type Source, type SourceWarning } from '../source.js';
import { streamingOf, toRawKey, type StreamingCapabilities } from './capabilities.js';
import { TransportError } from './http-client.js';
import { isHiddenPath, nameFilterOf, tooLargeMessage, type WalkFilters } from '../filters.js';
import { byteCount } from './object-version.js';
import { readAhead } from './read-ahead.js';

/** What a URI names: everything under a prefix, exactly one object, or an object else a "directory". */
export type StorageTarget =
  | { kind: 'prefix'; prefix: string }
  | { kind: 'object'; key: string }
  | { kind: 'object-or-prefix'; key: string };

export interface StorageSourceOptions extends WalkFilters {
  /** unstorage base key to search under ('' or absent = the whole storage). */
  base?: string;
  /** Prefix for result names of a storage without simgrep's capabilities (default "storage:"). */
  name?: string;
}

interface RemoteEntry extends Entry { key: string; prefetched?: Promise<Uint8Array> }

/** Small objects fetched ahead of the pipeline (latency hidden behind the search), and how many. */
export const READ_AHEAD = { depth: 32, maxObjectBytes: 1 << 20 };

/** A Source over a caller's own unstorage Storage (library API). */
export function createStorageSource(storage: Storage, o: StorageSourceOptions = {}): Source {
  const base = (o.base ?? '').replace(/[/\\]/g, ':').replace(/^:+|:+$/g, '');
  const mount = storage.getMount(base);
  const caps = streamingOf(mount.driver);
  if (caps) {
    const relative = toRawKey(base.slice(mount.base.replace(/:$/, '').length).replace(/^:/, ''));
    return storageSource(caps, { kind: 'prefix', prefix: relative ? `${relative}/` : '' }, caps.uriOf(relative), o);
  }
  return plainStorageSource(storage, base, o.name ?? 'storage:', o);
}

/** The streaming path: `label` is the URI the user gave (redacted), used in listing messages. */
export function storageSource(caps: StreamingCapabilities, target: StorageTarget, label: string, filters: WalkFilters): Source {
  const warnings: SourceWarning[] = [];
  const names = nameFilterOf(filters);
  /** Set when the store stopped answering: nothing more is handed out, and one line says so. */
  let stopped: TransportError | null = null;
  let listingFailed = false;
  const warn = (path: string, code: string, message: string) => warnings.push({ path, code, message });

  const tooLarge = (uri: string, size: number | undefined): boolean => {
    if (filters.maxFileBytes === undefined || size === undefined || size <= filters.maxFileBytes) return false;
    warn(uri, 'TOO_LARGE', tooLargeMessage(uri, size, filters.maxFileBytes));
    return true;
  };
  /** What a walk keeps of a listed key (explicitly named objects skip these filters, as locally). */
  const wanted = (key: string, rel: string, size: number | undefined): boolean => {
    if (key.endsWith('/')) return false; // a "directory" marker object
    if (!filters.hidden && isHiddenPath(rel)) return false;
    // Globs see the key relative to the prefix the user gave, as a local walk sees a path below its root.
    if (!names.listed(rel)) return false;
    return !tooLarge(caps.uriOf(key), size);
  };

  async function* walk(prefix: string, signal: AbortSignal | undefined, emptyMessage: string): AsyncGenerator<RemoteEntry> {
    let listed = 0;
    try {
      for await (const o of caps.listObjects(prefix, { recursive: filters.recursive ?? true, signal })) {
        if (stopped) break;
        listed++;
        const size = byteCount(o.size);
        if (wanted(o.key, o.key.slice(prefix.length), size)) yield { path: caps.uriOf(o.key), size, key: o.key, ...(o.modifiedMs !== undefined && { modifiedMs: o.modifiedMs }), ...(o.etag && { etag: o.etag }) };
      }
      if (listed === 0 && !stopped) warn(label, 'PATH_NOT_FOUND', emptyMessage);
    } catch (e) {
      if (signal?.aborted) return;
      listingFailed = true;
      const { code, reason } = remoteReason(e);
      warn(label, code, listed === 0 ? `${label}: ${reason}` : `${label}: listing stopped after ${listed} objects: ${reason}`);
    }
  }

  async function* entries(signal?: AbortSignal): AsyncGenerator<RemoteEntry> {
    if (target.kind === 'prefix') {
      yield* walk(target.prefix, signal, `${label}: no object under this prefix; check the bucket/container and prefix`);
      return;
    }
    const uri = caps.uriOf(target.key);
    try {
      // A single object: stat it only when the size cap needs its size or it may be a "directory".
      const got = target.kind === 'object' && filters.maxFileBytes === undefined ? { size: undefined } : await caps.statObject(target.key, { signal });
      const stat = got && { size: byteCount(got.size) };
      if (stat) {
        // Named by the user, as a local file named on the command line: a binary one is said, not skipped quietly.
        if (!tooLarge(uri, stat.size)) yield { path: uri, size: stat.size, key: target.key, named: true };
        return;
      }
      if (target.kind === 'object') { warn(uri, 'PATH_NOT_FOUND', `${uri}: not found (HTTP 404); check the URL`); return; }
    } catch (e) {
      if (signal?.aborted) return;
      const err = asSourceError(e, uri);
      warn(uri, err.code, err.message);
      return;
    }
    yield* walk(`${target.key}/`, signal, `${label}: no such object, and no object under ${label}/; check the name`);
  }

  return {
    async *list(signal) {
      const fetchWhole = async (e: RemoteEntry): Promise<Uint8Array> => {
        try {
          return await collectBytes(caps.streamObject(e.key, { size: e.size, signal }));
        } catch (err) {
          if (err instanceof TransportError) stopped ??= err;
          throw err;
        }
      };
      let handedOut = 0;
      const listed = filters.listOnly ? entries(signal) : readAhead(entries(signal), fetchWhole, READ_AHEAD);
      for await (const e of listed) {
        if (signal?.aborted || stopped) break;
        handedOut++;
        yield e;
      }
      if (stopped && !listingFailed) {
        warn(label, 'REMOTE_UNAVAILABLE', `${label}: stopped after ${handedOut} objects, the rest were not searched: ${stopped.message}`);
      }
    },
    read(entry, signal) {
      return collectBytes(this.stream!(entry, signal));
    },
    async *stream(entry, signal) {
      const { key, size, prefetched } = entry as RemoteEntry;
      try {
        if (prefetched) yield await prefetched;
        else yield* caps.streamObject(key, { size, signal });
      } catch (e) {
        if (signal?.aborted) throw new SimgrepError('ABORTED', 'the search was aborted');
        if (e instanceof TransportError) stopped ??= e;
        throw asSourceError(e, entry.path);
      }
    },
    drainWarnings() { return warnings.splice(0); },
  };
}

/** The fallback for drivers without streaming: unstorage's getKeys, getMeta and getItemRaw. */
function plainStorageSource(storage: Storage, base: string, name: string, filters: WalkFilters): Source {
  const warnings: SourceWarning[] = [];
  const names = nameFilterOf(filters);
  const display = (key: string) => `${name}${toRawKey(key)}`;
  return {
    async *list() {
      const label = display(base);
      let keys: string[];
      try { keys = await storage.getKeys(base); } catch (e) {
        warnings.push({ path: label, code: 'REMOTE_ERROR', message: `${label}: listing failed: ${(e as Error).message}` });
        return;
      }
      for (const key of keys.sort()) {
        const rel = toRawKey(key.slice(base.length));
        if (!filters.hidden && isHiddenPath(rel)) continue;
        if (filters.recursive === false && rel.replace(/^\//, '').includes('/')) continue;
        if (!names.listed(rel.replace(/^\//, ''))) continue;
        let size: number | undefined;
        if (filters.maxFileBytes !== undefined) {
          let meta: Record<string, unknown> = {};
          try { meta = await storage.getMeta(key); } catch { /* size unknown: searched anyway */ }
          size = typeof meta.size === 'number' ? meta.size : undefined;
          if (size !== undefined && size > filters.maxFileBytes) {
            warnings.push({ path: display(key), code: 'TOO_LARGE', message: tooLargeMessage(display(key), size, filters.maxFileBytes) });
            continue;
          }
        }
        yield { path: display(key), size, key } as RemoteEntry;
      }
    },
    async read(entry) {
      const value = await storage.getItemRaw((entry as RemoteEntry).key);
      return toBytes(value);
    },
    drainWarnings() { return warnings.splice(0); },
  };
}

function toBytes(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (value === null || value === undefined) return new Uint8Array(0);
  return new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value));
}

/** The code and message of a driver failure, without the URI. */
export function remoteReason(e: unknown): { code: ErrorCode; reason: string } {
  if (isSimgrepError(e)) return { code: e.code, reason: e.message };
  if (e instanceof TransportError) return { code: 'REMOTE_UNAVAILABLE', reason: e.message };
  return { code: 'REMOTE_ERROR', reason: (e as Error)?.message ?? String(e) };
}

/** A driver failure as a SimgrepError that names the URI. */
export function asSourceError(e: unknown, uri: string): SimgrepError {
  const { code, reason } = remoteReason(e);
  return new SimgrepError(code, `${uri}: ${reason}`, { cause: e });
}
