// An unstorage driver for S3 and S3-compatible stores over the AWS SDK's S3Client (imported on first
// use, so importing simgrep costs nothing until an s3:// URI is read): ListObjectsV2 paginated under
// a prefix (the next page fetched while this one is consumed, a repeated token stopped) and HEAD through
// the SDK; the per-object GETs, the bulk of the requests, are signed with the SDK's endpoint, credentials
// and SigV4 signer but sent by the shared http-client (s3-signed-get.ts), resuming with a Range.
import type { S3Client } from '@aws-sdk/client-s3';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider, DeserializeMiddleware } from '@smithy/types';
import type { Readable } from 'node:stream';
import { defineDriver } from 'unstorage';
import { isSimgrepError } from '../../errors.js';
import type { ListedObject, StoreDriverOptions, StreamingCapabilities, StreamingDriver } from './capabilities.js';
import { storeDriver } from './capabilities.js';
import { boundedBytes, createHttpClient, MAX_DOCUMENT_BYTES, MAX_ERROR_BODY_BYTES, openedBody, TransportError, type OpenedResponse } from './http-client.js';
import { STALL_TIMEOUTS, keyOfListed, pagedListing, preconditionFailed, streamObject, type ListingPage } from './object-stream.js';
import { DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS } from './options.js';
import { isCompleteListing, s3ErrorFor, s3ListingNotXml, type S3ErrorContext } from './s3-errors.js';
import { transportCode } from './retry.js';
import { createSignedGet, type SignedGet } from './s3-signed-get.js';

export interface S3DriverOptions extends StoreDriverOptions {
  bucket: string;
  /** Default: AWS_REGION or the profile's region, else us-east-1. */
  region?: string;
  /** S3-compatible endpoint (path-style requests); absent = AWS. */
  endpoint?: URL | string;
  /** Keys, or a provider of them; absent = the AWS SDK's default Node credential chain. */
  credentials?: AwsCredentialIdentity | AwsCredentialIdentityProvider;
}

const PAGE_KEYS = 1000;

type Sdk = typeof import('@aws-sdk/client-s3');

function createS3Driver(o: S3DriverOptions): StreamingDriver {
  const endpoint = o.endpoint === undefined ? undefined : new URL(o.endpoint);
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const retries = o.retries ?? DEFAULT_RETRIES;
  const shownEndpoint = endpoint?.origin ?? `https://s3.${o.region ?? 'us-east-1'}.amazonaws.com`;
  let client: S3Client | null = null;
  const http = createHttpClient({ timeoutMs, retries });
  let signedGet: Promise<SignedGet | null> | null = null;
  /** Set once the endpoint stopped answering: later calls fail at once instead of each retrying. */
  let down: TransportError | null = null;
  const ctx = (): S3ErrorContext => ({
    bucket: o.bucket, endpoint: shownEndpoint, region: o.region ?? 'us-east-1',
    credentialSource: o.credentialSource ?? 'the driver options', credentialHint: o.credentialHint ?? 'check the access key and secret',
  });

  /** Runs one SDK call; every failure comes back as a TransportError or a SimgrepError that says how to fix it. */
  async function send<T>(call: (s3: S3Client, sdk: Sdk, o: { abortSignal?: AbortSignal }) => Promise<T>, signal: AbortSignal | undefined, method: 'HEAD' | 'GET'): Promise<T> {
    if (down) throw down;
    signal?.throwIfAborted();
    const sdk = await import('@aws-sdk/client-s3');
    client ??= newClient(sdk);
    try {
      return await call(client, sdk, { abortSignal: signal });
    } catch (e) {
      if (signal?.aborted) throw signal.reason;
      throw asS3Error(e, method);
    }
  }

  function newClient(sdk: Sdk): S3Client {
    // simgrep pins its SDK release: the SDK's notice about the Node versions of its future releases is
    // for simgrep's maintainers, not something a user of the CLI can act on.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    const s3 = new sdk.S3Client({
      region: o.region ?? 'us-east-1',
      endpoint: endpoint?.href,
      forcePathStyle: endpoint !== undefined,
      credentials: o.credentials,
      maxAttempts: retries + 1,
      // An idle limit on the socket (to the headers, and between body bytes) and on connecting.
      requestHandler: { connectionTimeout: timeoutMs, socketTimeout: timeoutMs },
      // No x-amz-checksum-mode header: some S3-compatible stores refuse it, and reads stay plain streams.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    s3.middlewareStack.add(listingCheck, { step: 'deserialize', name: 'simgrepListingCheck', priority: 'low' });
    return s3;
  }

  function asS3Error(e: unknown, method: 'HEAD' | 'GET'): Error {
    const err = e as { name?: string; message?: string; $metadata?: { httpStatusCode?: number; attempts?: number }; $response?: { headers?: Record<string, string> } };
    const status = err.$metadata?.httpStatusCode;
    const attempts = err.$metadata?.attempts ?? 1;
    if (isSimgrepError(e)) return e;
    if (status === undefined) {
      // The SDK names resets TimeoutError too: the errno code, where there is one, says which it was.
      const code = transportCode(e) ?? (err.name === 'TimeoutError' ? 'TIMEOUT' : undefined);
      if (code !== undefined) {
        down = new TransportError(code, shownEndpoint, attempts, timeoutMs, { cause: e });
        return down;
      }
      return e as Error;
    }
    const headers = err.$response?.headers ?? {};
    // HEAD answers have no body, so their status decides (the SDK names them NotFound, Forbidden, …).
    const code = method === 'HEAD' || err.name === 'UnknownError' || err.name === 'Unknown' || /^\d+$/.test(err.name ?? '') ? undefined : err.name;
    const message = code && err.message && err.message !== 'UnknownError' ? err.message : undefined;
    return s3ErrorFor(status, code, message, headers['x-amz-bucket-region'] ?? null, { ...ctx(), attempts }, { cause: e });
  }

  async function listPage(prefix: string, recursive: boolean, token: string | undefined, signal?: AbortSignal): Promise<ListingPage<ListedObject>> {
    const page = await send((s3, sdk, opts) => s3.send(new sdk.ListObjectsV2Command({
      Bucket: o.bucket, Prefix: prefix, MaxKeys: o.pageSize ?? PAGE_KEYS, ContinuationToken: token, EncodingType: 'url', Delimiter: recursive ? undefined : '/',
    }), opts), signal, 'GET');
    // Keys come URL-encoded when the store honours encoding-type=url (it says so); some do not.
    const decode = (k: string) => (page.EncodingType === 'url' ? decodeURIComponent(k.replace(/\+/g, ' ')) : k);
    const objects = (page.Contents ?? []).map((c) => ({ key: decode(c.Key ?? ''), size: Number.isFinite(c.Size) ? c.Size : undefined, modifiedMs: c.LastModified?.getTime(), etag: c.ETag }));
    const prefixes = (page.CommonPrefixes ?? []).map((c) => decode(c.Prefix ?? ''));
    return { items: objects, cursor: page.IsTruncated ? page.NextContinuationToken : undefined, prefixes };
  }

  async function openObject(key: string, headers: Record<string, string>, signal?: AbortSignal): Promise<OpenedResponse> {
    if (down) throw down;
    signal?.throwIfAborted();
    const get = await (signedGet ??= signedGetter());
    if (!get) return sdkOpenObject(key, headers, signal);
    try {
      return await get(key, headers, signal);
    } catch (e) {
      if (signal?.aborted) throw signal.reason;
      if (e instanceof TransportError) down = e;
      throw e;
    }
  }

  async function signedGetter(): Promise<SignedGet | null> {
    const sdk = await import('@aws-sdk/client-s3');
    client ??= newClient(sdk);
    // Where the SDK's endpoint rules cannot be followed here, GETs go through the SDK (slower, same answers).
    return createSignedGet(client, o.bucket, http, (e) => asS3Error(e, 'GET')).catch(() => null);
  }

  /** A GET through the SDK's GetObject: for the stores whose endpoint rules ask for more than SigV4. */
  async function sdkOpenObject(key: string, headers: Record<string, string>, signal?: AbortSignal): Promise<OpenedResponse> {
    const out = await send((s3, sdk, opts) => s3.send(new sdk.GetObjectCommand({ Bucket: o.bucket, Key: key, Range: headers.range, IfMatch: headers['if-match'] }), opts).catch((e: unknown) => {
      // The object changed since the read began: streamObject restarts or reports it.
      if (headers['if-match'] && (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 412) return null;
      throw e;
    }), signal, 'GET');
    if (out === null) return preconditionFailed();
    const head: Record<string, string | undefined> = {
      etag: out.ETag, 'last-modified': out.LastModified?.toUTCString(), 'content-length': out.ContentLength?.toString(), 'content-range': out.ContentRange,
      'content-encoding': out.ContentEncoding, 'content-type': out.ContentType,
    };
    return openedBody(out.Body as Readable, { status: out.ContentRange ? 206 : 200, statusText: '', headers: { get: (name) => head[name] ?? null } }, {
      endpoint: shownEndpoint, attempts: out.$metadata.attempts ?? 1, timeoutMs, signal,
    });
  }

  const streaming: StreamingCapabilities = {
    listObjects: (prefix, { recursive, signal }) => pagedListing((token) => listPage(prefix, recursive, token, signal), { keyOf: keyOfListed, stallMs: STALL_TIMEOUTS * timeoutMs }),
    async statObject(key, { signal }) {
      try {
        const head = await send((s3, sdk, opts) => s3.send(new sdk.HeadObjectCommand({ Bucket: o.bucket, Key: key }), opts), signal, 'HEAD');
        return { size: head.ContentLength };
      } catch (e) {
        // A 404 to HEAD means no such object (a missing bucket is found out by the listing).
        if ((e as { code?: string }).code === 'PATH_NOT_FOUND') return null;
        throw e;
      }
    },
    streamObject: (key, { size, signal }) => streamObject((headers, sig) => openObject(key, headers, sig), { size, retries, signal }),
    uriOf: (key) => `s3://${o.bucket}/${key}`,
  };

  return storeDriver('simgrep-s3', o, streaming);
}

/**
 * Between the transport and the SDK's parsers. The SDK gathers every reply body it parses (a listing,
 * an error document) whole: each is read here instead, up to MAX_DOCUMENT_BYTES, so a body that never
 * ends or a gzip bomb stops the request rather than the process. GetObject's 2xx body, an object's bytes,
 * is streamed and left alone; its error document is read up to MAX_ERROR_BODY_BYTES, as the signed GET's
 * is (s3-signed-get.ts). And the SDK reads any 200 reply to ListObjectsV2, an HTML console page or an
 * empty body, as an empty listing: a listing reply that is not a whole ListBucketResult document is
 * refused with a message that says what came back. Exported for its test.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- one middleware for every command's types
export const listingCheck: DeserializeMiddleware<any, any> = (next, context) => async (args) => {
  const result = await next(args);
  const response = result.response as { statusCode?: number; headers?: Record<string, string>; body?: unknown };
  const getObject = context.commandName === 'GetObjectCommand';
  if ((getObject && (response.statusCode ?? 0) < 300) || !isReadable(response.body)) return result;
  const endpoint = originOf(args.request as { protocol?: string; hostname?: string; port?: number } | undefined);
  const maxBytes = getObject ? MAX_ERROR_BODY_BYTES : MAX_DOCUMENT_BYTES;
  const bytes = await boundedBytes(response.body, maxBytes, endpoint).finally(() => (response.body as Readable).destroy());
  if (context.commandName === 'ListObjectsV2Command' && response.statusCode === 200) {
    const text = bytes.toString('utf8');
    if (!isCompleteListing(text)) throw s3ListingNotXml(response.headers?.['content-type'], text);
  }
  response.body = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  return result;
};

function originOf(req: { protocol?: string; hostname?: string; port?: number } | undefined): string {
  if (!req?.hostname) return 'the S3 endpoint';
  return `${req.protocol ?? 'https:'}//${req.hostname}${req.port ? `:${req.port}` : ''}`;
}

function isReadable(body: unknown): body is Readable {
  return typeof (body as Readable | undefined)?.[Symbol.asyncIterator] === 'function';
}

/** unstorage driver factory: createStorage({ driver: s3Driver({ bucket, region, credentials, endpoint }) }). */
export const s3Driver = defineDriver(createS3Driver) as typeof createS3Driver;
