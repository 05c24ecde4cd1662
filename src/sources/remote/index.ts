// Turns remote URIs into Sources: simgrep's unstorage driver for the URI's scheme, read through its
// streaming capabilities by the storage-source adapter. Settings (credentials, endpoints) are read
// when the source is first listed, so a problem with one URI is that source's warning, not a crash.
import { SimgrepError } from '../../errors.js';
import type { Source, SourceWarning } from '../source.js';
import { parseRemoteUri, redactUri, type RemoteUri } from '../uri.js';
import { resolveAzureSettings } from './azure-auth.js';
import { azureBlobDriver } from './azure-driver.js';
import { resolveS3Settings, type S3Settings } from './aws-config.js';
import type { StreamingDriver } from './capabilities.js';
import { resolveGcsSettings, type GcsSettings } from './gcs-auth.js';
import { gcsDriver } from './gcs-driver.js';
import { httpDriver } from './http-driver.js';
import type { WalkFilters } from '../filters.js';
import { resolveRemoteOptions, type RemoteOptions } from './options.js';
import { s3Driver } from './s3-driver.js';
import { remoteReason, storageSource, type StorageTarget } from './storage-source.js';

export type { RemoteOptions } from './options.js';

export function createRemoteSources(uris: string[], o: WalkFilters & { remote?: RemoteOptions }): Source[] {
  let resolved: ReturnType<typeof resolveRemoteOptions> | null = null;
  const options = () => (resolved ??= resolveRemoteOptions(o.remote));
  let s3: Promise<S3Settings> | null = null;
  const s3Settings = () => (s3 ??= resolveS3Settings(options().env, { s3Endpoint: options().s3Endpoint }));
  let gcs: Promise<GcsSettings> | null = null;
  const gcsSettings = () => (gcs ??= resolveGcsSettings(options().env, { gcsEndpoint: options().gcsEndpoint, timeoutMs: options().timeoutMs }));

  const driverFor = async (parsed: RemoteUri): Promise<StreamingDriver> => {
    const { timeoutMs, retries, env } = options();
    if (parsed.scheme === 's3') {
      const s = await s3Settings();
      return s3Driver({
        bucket: parsed.bucket, region: s.region, endpoint: s.endpoint, credentials: s.credentials, timeoutMs, retries,
        credentialSource: s.credentialSource, credentialHint: s.credentialHint,
      });
    }
    if (parsed.scheme === 'gs') {
      const s = await gcsSettings();
      return gcsDriver({ bucket: parsed.bucket, endpoint: s.endpoint, auth: s.auth, timeoutMs, retries, credentialSource: s.credentialSource, credentialHint: s.credentialHint });
    }
    if (parsed.scheme === 'az') return azureBlobDriver({ container: parsed.container, ...await resolveAzureSettings(env), timeoutMs, retries });
    return httpDriver({ base: parsed.url.origin, timeoutMs, retries });
  };

  return uris.map((uri) => {
    const label = redactUri(uri);
    return deferredSource(label, async () => {
      const parsed = parseRemoteUri(uri);
      return storageSource((await driverFor(parsed)).streaming, targetOf(parsed), label, o);
    });
  });
}

function targetOf(u: RemoteUri): StorageTarget {
  if (u.scheme === 'http') return { kind: 'object', key: `${u.url.pathname}${u.url.search}` };
  if (u.key === '' || u.key.endsWith('/')) return { kind: 'prefix', prefix: u.key };
  return { kind: 'object-or-prefix', key: u.key };
}

/**
 * The promise, or a rejection as soon as `signal` aborts: resolving credentials can wait on a
 * credential_process, SSO, STS or instance metadata, and the deadline (--timeout) must not.
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) { onAbort(); return; }
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** A source built on first listing; a failure to build it (bad URI, no credentials) is its warning. */
function deferredSource(label: string, build: () => Promise<Source>): Source {
  let inner: Source | null = null;
  let building: Promise<Source> | null = null;
  const warnings: SourceWarning[] = [];
  // A cluster worker reads entries another machine listed: the source is then built on first read.
  const ready = async (): Promise<Source> => (inner ??= await (building ??= build()));
  return {
    async *list(signal) {
      try { await untilAborted(ready(), signal); } catch (e) {
        if (signal?.aborted) return;
        const { code, reason } = remoteReason(e);
        warnings.push({ path: label, code, message: `${label}: ${reason}` });
        return;
      }
      yield* inner!.list(signal);
    },
    read: async (entry, signal) => (await ready()).read(entry, signal),
    async *stream(entry, signal) {
      let source: Source;
      try { source = await ready(); } catch (e) {
        throw new SimgrepError(remoteReason(e).code, `${entry.path}: ${remoteReason(e).reason}`, { cause: e });
      }
      yield* source.stream!(entry, signal);
    },
    drainWarnings: () => [...warnings.splice(0), ...(inner?.drainWarnings?.() ?? [])],
  };
}
