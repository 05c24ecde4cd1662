// An unstorage driver for Azure Blob Storage over @azure/storage-blob (imported on first use): List
// Blobs one page at a time under a prefix, Get Blob Properties, streamed and resumable downloads;
// the SDK signs (Shared Key, SAS or a Microsoft Entra ID token). simgrep keeps a timeout to the
// response headers per try, retries transient failures, the down latch and the messages.
import type { TokenCredential } from '@azure/core-auth';
import type { ContainerClient } from '@azure/storage-blob';
import type { Readable } from 'node:stream';
import { defineDriver } from 'unstorage';
import { isSimgrepError, SimgrepError } from '../../errors.js';
import { boundedAzureHttpClient } from './azure-http.js';
import type { ListedObject, StoreDriverOptions, StreamingCapabilities, StreamingDriver } from './capabilities.js';
import { storeDriver } from './capabilities.js';
import { openedBody, TimeoutError, TransportError, type OpenedResponse } from './http-client.js';
import { STALL_TIMEOUTS, keyOfListed, pagedListing, preconditionFailed, streamObject, type ListingPage } from './object-stream.js';
import { DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS } from './options.js';
import { backoffMs, isTransientCode, sleep, transportCode, TRANSIENT_STATUS } from './retry.js';

export interface AzureBlobDriverOptions extends StoreDriverOptions {
  container: string;
  /** A connection string: AccountKey or SharedAccessSignature, BlobEndpoint or EndpointSuffix, or UseDevelopmentStorage=true. */
  connectionString?: string;
  account?: string;
  /** Blob service endpoint, e.g. https://acct.blob.core.windows.net (the default) or http://127.0.0.1:10000/devstoreaccount1. */
  endpoint?: URL | string;
  /** Base64 account key (Shared Key), a SAS token, or a Microsoft Entra ID credential such as @azure/identity's DefaultAzureCredential. */
  accountKey?: string;
  sasToken?: string;
  credential?: TokenCredential;
}

const PAGE_BLOBS = 5000;

interface AzureFailure { name?: string; code?: string; statusCode?: number; message?: string; details?: { errorCode?: string } }

function createAzureBlobDriver(o: AzureBlobDriverOptions): StreamingDriver {
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const retries = o.retries ?? DEFAULT_RETRIES;
  let client: Promise<ContainerClient> | null = null;
  let account = o.account ?? 'unknown';
  let shownEndpoint = '';
  /** Set once the endpoint stopped answering: later calls fail at once instead of each retrying. */
  let down: TransportError | null = null;
  const creds = `credentials from ${o.credentialSource ?? 'the driver options'}`;

  async function containerClient(): Promise<ContainerClient> {
    const sdk = await import('@azure/storage-blob');
    // simgrep retries itself, with a timeout per try (the SDK's would also cut slow bodies), and reads
    // the bodies the SDK gathers (listings, error documents) up to a bound (azure-http.ts).
    const pipeline = { retryOptions: { maxTries: 1 }, httpClient: boundedAzureHttpClient() };
    let service;
    if (o.connectionString) {
      try {
        service = sdk.BlobServiceClient.fromConnectionString(o.connectionString, pipeline);
      } catch (e) {
        throw new SimgrepError('REMOTE_CREDENTIALS', `AZURE_STORAGE_CONNECTION_STRING is not usable (${(e as Error).message}); copy the whole string from the portal (Access keys), or use UseDevelopmentStorage=true for Azurite`, { cause: e });
      }
    } else {
      if (!o.account) throw new SimgrepError('BAD_FLAG', 'azureBlobDriver needs an account (or a connectionString)');
      const endpoint = `${(o.endpoint ? new URL(o.endpoint).href : `https://${o.account}.blob.core.windows.net`).replace(/\/+$/, '')}`;
      const credential = o.accountKey ? new sdk.StorageSharedKeyCredential(o.account, o.accountKey) : o.credential ?? (o.sasToken ? new sdk.AnonymousCredential() : await defaultCredential());
      service = new sdk.BlobServiceClient(o.sasToken && !o.accountKey ? `${endpoint}?${o.sasToken.replace(/^\?/, '')}` : endpoint, sdk.newPipeline(credential, pipeline));
    }
    account = service.accountName || account;
    shownEndpoint = new URL(service.url).origin;
    return service.getContainerClient(o.container);
  }

  /** Runs one SDK call (resolving at the response headers) with a timeout per try and retries of transient failures. */
  async function send<T>(call: (c: ContainerClient, abortSignal: AbortSignal) => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    const c = await (client ??= containerClient());
    for (let attempt = 1; ; attempt++) {
      if (down) throw down;
      signal?.throwIfAborted();
      const ctl = new AbortController();
      const timer = setTimeout(() => ctl.abort(new TimeoutError('timed out')), timeoutMs);
      const onAbort = () => ctl.abort(signal!.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        return await call(c, ctl.signal);
      } catch (e) {
        if (signal?.aborted) throw signal.reason;
        if (isSimgrepError(e)) throw e; // a reply past its bound (azure-http.ts): said as it is, never retried
        const err = e as AzureFailure;
        const code = ctl.signal.aborted ? 'TIMEOUT' : err.statusCode === undefined ? transportCode(e) ?? err.code : undefined;
        const transient = code !== undefined ? isTransientCode(code) || code === 'REQUEST_SEND_ERROR' : TRANSIENT_STATUS.has(err.statusCode!);
        if (transient && attempt <= retries) {
          await sleep(backoffMs(attempt), signal);
          continue;
        }
        if (code !== undefined && err.statusCode === undefined) {
          down = new TransportError(code === 'REQUEST_SEND_ERROR' ? transportCode(e) ?? 'EUNKNOWN' : code, shownEndpoint, attempt, timeoutMs, { cause: e });
          throw down;
        }
        throw azureError(err, attempt);
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      }
    }
  }

  function azureError(err: AzureFailure, attempts: number): Error {
    if (err instanceof SimgrepError) return err;
    const status = err.statusCode ?? 0;
    const code = err.code ?? err.details?.errorCode;
    const tag = code ? ` (${code})` : ` (HTTP ${status})`;
    const hint = o.credentialHint ?? 'check the key';
    switch (code) {
      case 'ContainerNotFound':
        return new SimgrepError('PATH_NOT_FOUND', `container "${o.container}" does not exist in account "${account}"${tag}; check the container name and the account`);
      case 'BlobNotFound':
        return new SimgrepError('PATH_NOT_FOUND', `no such blob${tag}; check the name`);
      case 'AuthenticationFailed':
      case 'InvalidAuthenticationInfo':
        return new SimgrepError('REMOTE_CREDENTIALS', `the account key, SAS token or sign-in token was rejected${tag}, ${creds}; ${hint}`);
      case 'AuthorizationFailure':
        // Azurite (and some proxies) answer a bad Shared Key signature this way, not with AuthenticationFailed.
        return new SimgrepError('REMOTE_ACCESS_DENIED', `access denied${tag}, ${creds}: the key or SAS token does not match the account, or may not read and list container "${o.container}"; ${hint}`);
      case 'AuthorizationPermissionMismatch':
      case 'AuthorizationResourceTypeMismatch':
      case 'InsufficientAccountPermissions':
        return new SimgrepError('REMOTE_ACCESS_DENIED', `access denied${tag}, ${creds}; it needs read and list permission on container "${o.container}"`);
      default:
        break;
    }
    if (err.name === 'CredentialUnavailableError' || err.name === 'AuthenticationError' || err.name === 'AggregateAuthenticationError') {
      return new SimgrepError('REMOTE_CREDENTIALS', `no sign-in token (${firstLine(err.message ?? '')}), ${creds}; ${hint}`);
    }
    if (status === 404) return new SimgrepError('PATH_NOT_FOUND', `not found${tag}; check the account, container and name`);
    if (status === 401 || status === 403) return new SimgrepError('REMOTE_ACCESS_DENIED', `access denied${tag}, ${creds}`);
    if (status >= 500 || status === 429) return new SimgrepError('REMOTE_UNAVAILABLE', `the store failed with HTTP ${status}${code ? ` ${code}` : ''} after ${attempts} attempts; try again later`);
    const message = firstLine(err.message ?? '');
    return new SimgrepError('REMOTE_ERROR', `the store answered ${status ? `HTTP ${status}` : 'with an error'}${code ? ` ${code}` : ''}${message ? `: ${message}` : ''}`);
  }

  async function listPage(prefix: string, recursive: boolean, marker: string | undefined, signal?: AbortSignal): Promise<ListingPage<ListedObject>> {
    const byPage = { continuationToken: marker, maxPageSize: o.pageSize ?? PAGE_BLOBS };
    return send(async (c, abortSignal) => {
      const pages = recursive ? c.listBlobsFlat({ prefix, abortSignal }).byPage(byPage) : c.listBlobsByHierarchy('/', { prefix, abortSignal }).byPage(byPage);
      const page = (await pages.next()).value as { segment: { blobItems: { name: string; properties: { contentLength?: number; lastModified?: Date; etag?: string } }[]; blobPrefixes?: { name: string }[] }; continuationToken?: string } | undefined;
      const items = (page?.segment.blobItems ?? []).map((b) => ({ key: b.name, size: b.properties.contentLength, modifiedMs: b.properties.lastModified?.getTime(), etag: b.properties.etag }));
      return { items, cursor: page?.continuationToken || undefined, prefixes: (page?.segment.blobPrefixes ?? []).map((p) => p.name) };
    }, signal);
  }

  async function openBlob(key: string, headers: Record<string, string>, signal?: AbortSignal): Promise<OpenedResponse> {
    const offset = Number(/^bytes=(\d+)-$/.exec(headers.range ?? '')?.[1] ?? 0);
    const res = await send((c, abortSignal) => c.getBlobClient(key).download(offset, undefined, {
      abortSignal, maxRetryRequests: 0, conditions: headers['if-match'] ? { ifMatch: headers['if-match'] } : undefined,
    }).catch((e: unknown) => {
      // The blob changed since the read began: streamObject restarts or reports it.
      if (headers['if-match'] && (e as { statusCode?: number }).statusCode === 412) return null;
      throw e;
    }), signal);
    if (res === null) return preconditionFailed();
    const head: Record<string, string | undefined> = {
      etag: res.etag, 'last-modified': res.lastModified?.toUTCString(), 'content-length': res.contentLength?.toString(), 'content-range': res.contentRange,
      'content-encoding': res.contentEncoding, 'content-type': res.contentType,
    };
    return openedBody(res.readableStreamBody as Readable, { status: res.contentRange ? 206 : 200, statusText: '', headers: { get: (name) => head[name] ?? null } }, {
      endpoint: shownEndpoint, attempts: 1, timeoutMs, signal,
    });
  }

  const streaming: StreamingCapabilities = {
    listObjects: (prefix, { recursive, signal }) => pagedListing((marker) => listPage(prefix, recursive, marker, signal), { keyOf: keyOfListed, stallMs: STALL_TIMEOUTS * timeoutMs }),
    async statObject(key, { signal }) {
      try {
        const props = await send((c, abortSignal) => c.getBlobClient(key).getProperties({ abortSignal }), signal);
        return { size: props.contentLength };
      } catch (e) {
        // A HEAD has no body: a missing blob is a plain 404, a missing container names itself in x-ms-error-code.
        if ((e as SimgrepError).code === 'PATH_NOT_FOUND' && !/ContainerNotFound/.test((e as Error).message)) return null;
        throw e;
      }
    },
    streamObject: (key, { size, signal }) => streamObject((headers, sig) => openBlob(key, headers, sig), { size, retries, signal }),
    uriOf: (key) => `az://${o.container}/${key}`,
  };

  return storeDriver('simgrep-azure-blob', o, streaming);
}

async function defaultCredential(): Promise<TokenCredential> {
  const { DefaultAzureCredential } = await import('@azure/identity');
  return new DefaultAzureCredential();
}

function firstLine(s: string): string {
  const line = s.split('\n')[0].trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** unstorage driver factory: createStorage({ driver: azureBlobDriver({ container, account, endpoint, accountKey }) }). */
export const azureBlobDriver = defineDriver(createAzureBlobDriver) as typeof createAzureBlobDriver;
