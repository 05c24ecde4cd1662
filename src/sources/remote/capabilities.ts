// The capabilities simgrep's drivers add around unstorage's Driver: listing page by page as the
// store answers (getKeys returns one array at the end), stat, and streaming reads (unstorage has
// none). They take the store's raw '/'-separated keys, because unstorage's colon keys cannot carry
// ':' or '?'. Any other unstorage driver still works through the core fallback in storage-source.ts.
import type { Driver } from 'unstorage';
import { collectBytes } from '../source.js';
import type { RequestTuning } from './http-client.js';

export interface ListedObject { key: string; size?: number; modifiedMs?: number; etag?: string }

/** What the listing stores' drivers (s3, az) take besides where the store is and how to sign. */
export interface StoreDriverOptions extends RequestTuning {
  /** Keys per listing page (default and maximum: the store's own limit). */
  pageSize?: number;
  /** For messages: where the credentials came from and how to fix them. */
  credentialSource?: string;
  credentialHint?: string;
}

export interface StreamingCapabilities {
  /** Objects under a raw prefix ('' = all), streamed page by page; `recursive: false` stops at the next '/'. */
  listObjects(prefix: string, o: { recursive: boolean; signal?: AbortSignal }): AsyncIterable<ListedObject>;
  /** The object's size, or null when there is no such object. */
  statObject(key: string, o: { signal?: AbortSignal }): Promise<{ size?: number } | null>;
  /** The object's bytes in bounded memory; `size` (from the listing) lets small objects come whole. */
  streamObject(key: string, o: { size?: number; signal?: AbortSignal }): AsyncIterable<Uint8Array>;
  /** How results name a key, e.g. s3://bucket/key. */
  uriOf(key: string): string;
}

export type StreamingDriver = Driver & { streaming: StreamingCapabilities };

export function streamingOf(driver: Driver | undefined): StreamingCapabilities | undefined {
  return (driver as Partial<StreamingDriver> | undefined)?.streaming;
}

/** unstorage key (colons) <-> raw store key ('/'). */
export const toRawKey = (key: string): string => key.replace(/:/g, '/');
export const toStorageKey = (raw: string): string => raw.replace(/\//g, ':');

/** The core unstorage methods of a listing store (s3, az), all built on its streaming capabilities. */
export function storeDriver<O>(name: string, options: O, streaming: StreamingCapabilities): StreamingDriver {
  const read = async (key: string): Promise<Buffer | null> =>
    ((await streaming.statObject(toRawKey(key), {})) ? collectBytes(streaming.streamObject(toRawKey(key), {})) : null);
  return {
    name,
    options,
    streaming,
    hasItem: async (key) => (await streaming.statObject(toRawKey(key), {})) !== null,
    getItemRaw: read,
    getItem: async (key) => (await read(key))?.toString('utf8') ?? null,
    getMeta: (key) => streaming.statObject(toRawKey(key), {}),
    async getKeys(base) {
      const prefix = base ? `${toRawKey(base).replace(/\/+$/, '')}/` : '';
      const keys: string[] = [];
      for await (const obj of streaming.listObjects(prefix, { recursive: true })) keys.push(toStorageKey(obj.key));
      return keys;
    },
  };
}
