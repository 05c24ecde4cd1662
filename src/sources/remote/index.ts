// Turns remote URIs into Sources: one unstorage Storage per URI, mounted with simgrep's driver for
// its scheme, read through the storage-source adapter. Settings (credentials, endpoints) are read
// when the source is first listed, so a problem with one URI is that source's warning, not a crash.
import { createStorage } from 'unstorage';
import type { Source, SourceWarning } from '../source.js';
import { parseRemoteUri, redactUri, type RemoteUri } from '../uri.js';
import { resolveAzureSettings } from './azure-auth.js';
import { azureBlobDriver } from './azure-driver.js';
import { resolveS3Settings, type S3Settings } from './aws-config.js';
import { streamingOf, type StreamingDriver } from './capabilities.js';
import { httpDriver } from './http-driver.js';
import { resolveRemoteOptions, type RemoteOptions, type WalkFilters } from './options.js';
import { s3Driver } from './s3-driver.js';
import { remoteReason, storageSource, type StorageTarget } from './storage-source.js';

export type { RemoteOptions } from './options.js';

export function createRemoteSources(uris: string[], o: WalkFilters & { remote?: RemoteOptions }): Source[] {
  let resolved: ReturnType<typeof resolveRemoteOptions> | null = null;
  const options = () => (resolved ??= resolveRemoteOptions(o.remote));
  let s3: Promise<S3Settings> | null = null;
  const s3Settings = () => (s3 ??= resolveS3Settings(options().env, { s3Endpoint: options().s3Endpoint }));

  return uris.map((uri) => deferredSource(redactUri(uri), async () => {
    const parsed = parseRemoteUri(uri);
    const { timeoutMs, retries, env } = options();
    const label = redactUri(uri);
    let driver: StreamingDriver;
    if (parsed.scheme === 's3') {
      const s = await s3Settings();
      driver = s3Driver({
        bucket: parsed.bucket, region: s.region, endpoint: s.endpoint, credentials: s.credentials!, timeoutMs, retries,
        credentialSource: s.credentialSource, credentialHint: s.credentialHint,
      });
    } else if (parsed.scheme === 'az') {
      const s = resolveAzureSettings(env);
      driver = azureBlobDriver({ container: parsed.container, ...s, timeoutMs, retries });
    } else {
      driver = httpDriver({ base: parsed.url.origin, timeoutMs, retries });
    }
    const storage = createStorage({ driver });
    return storageSource(streamingOf(storage.getMount('').driver)!, targetOf(parsed), label, o);
  }));
}

function targetOf(u: RemoteUri): StorageTarget {
  if (u.scheme === 'http') return { kind: 'object', key: `${u.url.pathname}${u.url.search}` };
  if (u.key === '' || u.key.endsWith('/')) return { kind: 'prefix', prefix: u.key };
  return { kind: 'object-or-prefix', key: u.key };
}

/** A source built on first listing; a failure to build it (bad URI, no credentials) is its warning. */
function deferredSource(label: string, build: () => Promise<Source>): Source {
  let inner: Source | null = null;
  const warnings: SourceWarning[] = [];
  const ready = (): Source => {
    if (!inner) throw new Error(`${label} was read before it was listed`);
    return inner;
  };
  return {
    async *list(signal) {
      try { inner = await build(); } catch (e) {
        const { code, reason } = remoteReason(e);
        warnings.push({ path: label, code, message: `${label}: ${reason}` });
        return;
      }
      yield* inner.list(signal);
    },
    read: (entry, signal) => ready().read(entry, signal),
    stream: (entry, signal) => ready().stream!(entry, signal),
    drainWarnings: () => [...warnings.splice(0), ...(inner?.drainWarnings?.() ?? [])],
  };
}
