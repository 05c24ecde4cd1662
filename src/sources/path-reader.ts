// Reads any entry by its path alone: a local file through the fs source, an s3://, gs://, az:// or http(s)://
// URI through the remote source of its bucket, container or host (made once per store). The workspace
// index reads back files it listed earlier this way: its candidates, a snapshot rebuilt from the store.
import type { RemoteOptions } from './remote/options.js';
import { ioPathOf } from './dir-listing.js';
import { createFsSource } from './fs.js';
import type { Entry, Source } from './source.js';
import { parseRemoteUri, isRemoteUri } from './uri.js';

export function createPathReader(o: { remote?: RemoteOptions } = {}): Source {
  const local = createFsSource({ paths: [] });
  const stores = new Map<string, Promise<Source>>();

  /** The remote source of the URI's store, and the entry as that source reads it (by raw key). */
  const remoteOf = async (entry: Entry): Promise<{ source: Source; entry: Entry }> => {
    const u = parseRemoteUri(entry.path);
    const base = u.scheme === 'http' ? `${u.url.origin}/` : `${u.scheme}://${u.scheme === 'az' ? u.container : u.bucket}/`;
    const key = u.scheme === 'http' ? `${u.url.pathname}${u.url.search}` : u.key;
    let source = stores.get(base);
    if (!source) {
      source = import('./remote/index.js').then(({ createRemoteSources }) => createRemoteSources([base], { remote: o.remote })[0]);
      stores.set(base, source);
    }
    return { source: await source, entry: { ...entry, key } as Entry };
  };

  /** A name that is not valid UTF-8 was keyed with its bad bytes escaped: it is opened by its raw bytes (fs.ts's io). */
  const localEntry = (entry: Entry): Entry => {
    const io = ioPathOf(entry.path);
    return typeof io === 'string' ? entry : { ...entry, io } as Entry;
  };

  return {
    async *list() { /* reads only */ },
    async read(entry, signal) {
      if (!isRemoteUri(entry.path)) return local.read(localEntry(entry), signal);
      const r = await remoteOf(entry);
      return r.source.read(r.entry, signal);
    },
    async *stream(entry, signal) {
      if (!isRemoteUri(entry.path)) { yield* local.stream!(localEntry(entry), signal); return; }
      const r = await remoteOf(entry);
      yield* r.source.stream!(r.entry, signal);
    },
  };
}
