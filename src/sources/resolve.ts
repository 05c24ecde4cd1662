// Paths -> Sources: local paths share one walker; each remote URI (s3://, gs://, https://, az://) gets a
// remote source, whose code (and unstorage) is only loaded when a URI is present.
import { createFsSource, type FsSourceOptions } from './fs.js';
import type { RemoteOptions } from './remote/options.js';
import type { Source } from './source.js';
import { isRemoteUri } from './uri.js';

export type PathSourceOptions = Omit<FsSourceOptions, 'paths'> & { remote?: RemoteOptions };

export async function sourcesForPaths(paths: string[], o: PathSourceOptions): Promise<Source[]> {
  const local = paths.filter((p) => !isRemoteUri(p));
  const uris = paths.filter(isRemoteUri);
  const sources: Source[] = [];
  if (local.length > 0) sources.push(createFsSource({ ...o, paths: local }));
  if (uris.length > 0) {
    const { createRemoteSources } = await import('./remote/index.js');
    sources.push(...createRemoteSources(uris, o));
  }
  return sources;
}
