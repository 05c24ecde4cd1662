// An unstorage driver for S3 and S3-compatible stores, written with defineDriver because the stock
// one ignores the prefix, stops at 1,000 keys and cannot stream: ListObjectsV2 paginated under a
// prefix (the next page fetched while this one is consumed), ranged and resumable streaming GETs,
// SigV4 signing, retries and timeouts from the shared HTTP client.
import { defineDriver } from 'unstorage';
import type { ListedObject, StoreDriverOptions, StreamingCapabilities, StreamingDriver } from './capabilities.js';
import { storeDriver } from './capabilities.js';
import { createHttpClient, type OpenedResponse } from './http-client.js';
import { objectReads, pagedListing, type ListingPage } from './object-stream.js';
import { s3Failure, type S3ErrorContext } from './s3-errors.js';
import { buildQuery, encodeRfc3986, signV4, type AwsCredentials } from './sigv4.js';
import { isComplete, notAListing, xmlBlocks, xmlText } from './xml.js';

export interface S3DriverOptions extends StoreDriverOptions {
  bucket: string;
  region: string;
  /** S3-compatible endpoint (path-style requests); absent = AWS. */
  endpoint?: URL | string;
  credentials: AwsCredentials;
}

const PAGE_KEYS = 1000;

function createS3Driver(o: S3DriverOptions): StreamingDriver {
  const endpoint = o.endpoint === undefined ? undefined : new URL(o.endpoint);
  const virtualHost = !endpoint && /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/.test(o.bucket);
  const base = endpoint
    ? `${endpoint.origin}${endpoint.pathname.replace(/\/+$/, '')}/${encodeRfc3986(o.bucket)}`
    : virtualHost ? `https://${o.bucket}.s3.${o.region}.amazonaws.com` : `https://s3.${o.region}.amazonaws.com/${encodeRfc3986(o.bucket)}`;
  const client = createHttpClient({
    timeoutMs: o.timeoutMs,
    retries: o.retries,
    sign: (spec) => signV4({ method: spec.method, url: spec.url, headers: spec.headers, region: o.region }, o.credentials),
  });
  const ctx = (attempts?: number): S3ErrorContext => ({
    bucket: o.bucket, endpoint: new URL(base).origin, region: o.region, attempts,
    credentialSource: o.credentialSource ?? 'the driver options', credentialHint: o.credentialHint ?? 'check the access key and secret',
  });
  const objectUrl = (key: string) => new URL(`${base}/${encodeRfc3986(key, true)}`);

  async function fail(opened: OpenedResponse, method: string): Promise<never> {
    throw await s3Failure(opened, method, ctx(opened.attempts));
  }

  async function listPage(prefix: string, recursive: boolean, token: string | undefined, signal?: AbortSignal): Promise<ListingPage<ListedObject>> {
    const query = buildQuery({
      'list-type': '2', prefix, 'max-keys': String(o.pageSize ?? PAGE_KEYS), 'continuation-token': token,
      'encoding-type': 'url', delimiter: recursive ? undefined : '/',
    });
    const opened = await client.open({ method: 'GET', url: new URL(`${base}${endpoint || !virtualHost ? '' : '/'}?${query}`) }, signal);
    if (opened.res.status !== 200) return fail(opened, 'GET');
    const xml = await opened.text();
    if (!isComplete(xml, 'ListBucketResult')) throw notAListing(opened, xml, 'an S3 listing (ListBucketResult)', 'check that --s3-endpoint (or AWS_ENDPOINT_URL) is the S3 API of the store, not its web console');
    // Keys come URL-encoded when the store honours encoding-type=url (it says so); some do not.
    const urlEncoded = xmlText(xml, 'EncodingType') === 'url';
    const decode = (k: string) => (urlEncoded ? decodeURIComponent(k.replace(/\+/g, ' ')) : k);
    const objects = xmlBlocks(xml, 'Contents').map((c) => {
      const size = Number(xmlText(c, 'Size'));
      return { key: decode(xmlText(c, 'Key') ?? ''), size: Number.isFinite(size) ? size : undefined };
    });
    const truncated = xmlText(xml, 'IsTruncated') === 'true';
    return { items: objects, cursor: truncated ? xmlText(xml, 'NextContinuationToken') : undefined };
  }

  const streaming: StreamingCapabilities = {
    listObjects: (prefix, { recursive, signal }) => pagedListing((token) => listPage(prefix, recursive, token, signal)),
    ...objectReads({ client, urlOf: objectUrl, isMissing: (res) => res.status === 404, fail }),
    uriOf: (key) => `s3://${o.bucket}/${key}`,
  };

  return storeDriver('simgrep-s3', o, streaming);
}

/** unstorage driver factory: createStorage({ driver: s3Driver({ bucket, region, credentials, endpoint }) }). */
export const s3Driver = defineDriver(createS3Driver) as typeof createS3Driver;
