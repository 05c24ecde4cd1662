// An unstorage driver for Google Cloud Storage over the JSON API: objects.list one page at a time under
// a prefix, objects.get for metadata and (alt=media) for the bytes, each sent by the shared http-client
// (its timeouts, retries, down latch and Range resume, as the S3 GETs) and signed with a token from
// Application Default Credentials (@google-cloud/storage's auth client, imported on first use). A
// resumed read asks for the generation it started with (ifGenerationMatch): a replaced object answers
// 412, which object-stream reads again from its start or reports as changed, never spliced.
import { defineDriver } from 'unstorage';
import type { ListedObject, StoreDriverOptions, StreamingCapabilities, StreamingDriver } from './capabilities.js';
import { storeDriver } from './capabilities.js';
import { jsonApiBase, resolveGcsSettings, type GcsAuth } from './gcs-auth.js';
import { gcsErrorFor, parseListing, type GcsErrorContext } from './gcs-errors.js';
import { createHttpClient, MAX_ERROR_BODY_BYTES, type OpenedResponse } from './http-client.js';
import { STALL_TIMEOUTS, keyOfListed, pagedListing, preconditionFailed, streamObject, type ListingPage } from './object-stream.js';
import { DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS } from './options.js';

export interface GcsDriverOptions extends StoreDriverOptions {
  bucket: string;
  /** The JSON API base (default https://storage.googleapis.com/storage/v1); an origin gets /storage/v1 added. */
  endpoint?: URL | string;
  /**
   * What signs requests: absent = Application Default Credentials through @google-cloud/storage;
   * null = none (an emulator, a public bucket); or any { getRequestHeaders } such as a GoogleAuth.
   */
  auth?: GcsAuth | null;
}

const PAGE_OBJECTS = 1000;
/** Only what the walk uses: a page of 1,000 objects is then ~100 KB instead of ~1 MB. */
const LIST_FIELDS = 'nextPageToken,prefixes,items(name,size,updated,generation)';

function createGcsDriver(o: GcsDriverOptions): StreamingDriver {
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const retries = o.retries ?? DEFAULT_RETRIES;
  const http = createHttpClient({ timeoutMs, retries });
  const bucketPath = `/b/${encodeURIComponent(o.bucket)}/o`;
  let settings: Promise<{ base: string; auth: GcsAuth | null; credentialSource: string; credentialHint: string }> | null = null;

  const resolve = () => (settings ??= (async () => {
    if (o.auth !== undefined) {
      const base = o.endpoint === undefined ? 'https://storage.googleapis.com/storage/v1' : jsonApiBase(String(o.endpoint), 'the endpoint');
      return { base, auth: o.auth, credentialSource: o.credentialSource ?? (o.auth ? 'the driver options' : 'none (requests sent unsigned)'), credentialHint: o.credentialHint ?? 'check the credentials' };
    }
    const s = await resolveGcsSettings(process.env, { gcsEndpoint: o.endpoint === undefined ? undefined : String(o.endpoint), timeoutMs });
    return { base: s.endpoint, auth: s.auth, credentialSource: o.credentialSource ?? s.credentialSource, credentialHint: o.credentialHint ?? s.credentialHint };
  })());

  /** One GET with a fresh token; any reply that is not 2xx becomes the error that says how to fix it. */
  async function get(path: string, query: Record<string, string | undefined>, headers: Record<string, string>, op: GcsErrorContext['op'], signal?: AbortSignal): Promise<OpenedResponse> {
    const s = await resolve();
    const url = new URL(`${s.base}${path}`);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, v);
    const signed = s.auth ? await s.auth.getRequestHeaders(s.base) : {};
    const opened = await http.open({ method: 'GET', url, headers: { ...signed, ...headers } }, signal);
    if (opened.res.status < 300 || (opened.res.status === 412 && query.ifGenerationMatch !== undefined)) return opened;
    const body = await opened.text(MAX_ERROR_BODY_BYTES).catch(() => '');
    throw gcsErrorFor(opened.res.status, body, {
      bucket: o.bucket, endpoint: s.base, credentialSource: s.credentialSource, credentialHint: s.credentialHint, anonymous: s.auth === null, attempts: opened.attempts, op,
    });
  }

  async function listPage(prefix: string, recursive: boolean, pageToken: string | undefined, signal?: AbortSignal): Promise<ListingPage<ListedObject>> {
    const opened = await get(bucketPath, {
      prefix: prefix || undefined, delimiter: recursive ? undefined : '/', maxResults: String(o.pageSize ?? PAGE_OBJECTS), pageToken, fields: LIST_FIELDS,
    }, {}, 'list', signal);
    const page = parseListing(await opened.text(), opened.res.headers.get('content-type'));
    const items = page.items.map((i) => ({ key: i.name, size: finite(Number(i.size)), modifiedMs: finite(Date.parse(i.updated ?? '')), etag: typeof i.generation === 'string' ? i.generation : undefined }));
    return { items, cursor: page.nextPageToken, prefixes: page.prefixes };
  }

  /** The bytes; stored gzip comes as it is stored (decoded here) instead of transcoded, whose length is not the listed size. */
  async function openMedia(key: string, headers: Record<string, string>, signal?: AbortSignal): Promise<OpenedResponse> {
    const { 'if-match': generation, ...rest } = headers;
    const opened = await get(`${bucketPath}/${encodeURIComponent(key)}`, { alt: 'media', ifGenerationMatch: generation }, { ...rest, 'accept-encoding': 'gzip' }, 'read', signal);
    if (opened.res.status === 412) {
      // Another generation was written since the read began: object-stream's to handle.
      opened.discard();
      return preconditionFailed();
    }
    // object-stream resumes with If-Match on the "etag" it saw first: for GCS that is the generation.
    const head = opened.res;
    return { ...opened, res: { ...head, headers: { get: (n) => head.headers.get(n === 'etag' ? 'x-goog-generation' : n) } } };
  }

  const streaming: StreamingCapabilities = {
    listObjects: (prefix, { recursive, signal }) => pagedListing((token) => listPage(prefix, recursive, token, signal), { keyOf: keyOfListed, stallMs: STALL_TIMEOUTS * timeoutMs }),
    async statObject(key, { signal }) {
      try {
        const opened = await get(`${bucketPath}/${encodeURIComponent(key)}`, { fields: 'size' }, {}, 'stat', signal);
        const meta = JSON.parse(await opened.text(MAX_ERROR_BODY_BYTES)) as { size?: string };
        return { size: finite(Number(meta.size)) };
      } catch (e) {
        // A missing object is null; a missing bucket says so (its 404 names the bucket).
        if ((e as { code?: string }).code === 'PATH_NOT_FOUND' && !/^bucket /.test((e as Error).message)) return null;
        throw e;
      }
    },
    streamObject: (key, { size, signal }) => streamObject((headers, sig) => openMedia(key, headers, sig), { size, retries, signal }),
    uriOf: (key) => `gs://${o.bucket}/${key}`,
  };

  return storeDriver('simgrep-gcs', o, streaming);
}

function finite(n: number): number | undefined {
  return Number.isFinite(n) ? n : undefined;
}

/** unstorage driver factory: createStorage({ driver: gcsDriver({ bucket }) }) signs in with Application Default Credentials. */
export const gcsDriver = defineDriver(createGcsDriver) as typeof createGcsDriver;
