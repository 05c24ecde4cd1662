// An unstorage driver for plain http(s):// files (a URL names one file; there is no listing):
// streamed, resumable GETs with retries and timeouts, HEAD only when a size is needed.
import { defineDriver } from 'unstorage';
import { SimgrepError } from '../../errors.js';
import { collectBytes } from '../source.js';
import { redactUri } from '../uri.js';
import type { StreamingCapabilities, StreamingDriver } from './capabilities.js';
import { toRawKey } from './capabilities.js';
import { createHttpClient, type OpenedResponse, type RequestTuning } from './http-client.js';
import { streamObject } from './object-stream.js';

export interface HttpDriverOptions extends RequestTuning {
  /** Origin the keys are relative to, e.g. https://example.com; a raw key is a path with its query. */
  base: string;
}

function createHttpDriver(o: HttpDriverOptions): StreamingDriver {
  const origin = new URL(o.base).origin;
  const client = createHttpClient({ timeoutMs: o.timeoutMs, retries: o.retries });
  const urlOf = (key: string) => new URL(key.startsWith('/') ? key : `/${key}`, origin);

  const fail = async (opened: OpenedResponse): Promise<never> => {
    opened.discard();
    const { status } = opened.res;
    if (status === 404 || status === 410) throw new SimgrepError('PATH_NOT_FOUND', `not found (HTTP ${status}); check the URL`);
    if (status === 401 || status === 403) {
      throw new SimgrepError('REMOTE_ACCESS_DENIED', `access denied (HTTP ${status}); simgrep sends no credentials to http(s) URLs: use a signed URL, or download the file and search it locally`);
    }
    if (status >= 500 || status === 429 || status === 408) {
      throw new SimgrepError('REMOTE_UNAVAILABLE', `the server failed with HTTP ${status} after ${opened.attempts} attempts; try again later`);
    }
    throw new SimgrepError('REMOTE_ERROR', `the server answered HTTP ${status} ${opened.res.statusText}`.trimEnd());
  };

  const streaming: StreamingCapabilities = {
    // eslint-disable-next-line require-yield
    async *listObjects() {
      throw new SimgrepError('BAD_FLAG', 'http(s) URLs cannot be listed; name each file');
    },
    async statObject(key, { signal }) {
      const opened = await client.open({ method: 'HEAD', url: urlOf(key), followRedirects: true }, signal);
      opened.discard();
      const { status } = opened.res;
      if (status === 404 || status === 410) return null;
      // Servers that refuse HEAD (405, signed GET-only URLs) still get a GET: the size is then unknown.
      const size = status < 300 ? Number(opened.res.headers.get('content-length') ?? NaN) : NaN;
      return { size: Number.isFinite(size) ? size : undefined };
    },
    streamObject(key, { size, signal }) {
      return streamObject(async (headers, sig) => {
        const opened = await client.open({ method: 'GET', url: urlOf(key), headers, followRedirects: true }, sig);
        // A 412 to If-Match (the file changed since the read began) is streamObject's to handle.
        if (opened.res.status >= 300 && !(opened.res.status === 412 && headers['if-match'])) return fail(opened);
        return opened;
      }, { size, retries: client.retries, signal });
    },
    uriOf: (key) => redactUri(urlOf(key).href),
  };

  const get = async (key: string): Promise<Buffer | null> => {
    try {
      return await collectBytes(streaming.streamObject(toRawKey(key), {}));
    } catch (e) {
      if (e instanceof SimgrepError && e.code === 'PATH_NOT_FOUND') return null;
      throw e;
    }
  };
  return {
    name: 'simgrep-http',
    options: o,
    streaming,
    hasItem: async (key) => (await streaming.statObject(toRawKey(key), {})) !== null,
    getItemRaw: (key) => get(key),
    getItem: async (key) => (await get(key))?.toString('utf8') ?? null,
    getMeta: (key) => streaming.statObject(toRawKey(key), {}),
    getKeys: () => [],
  };
}

/** unstorage driver factory: createStorage({ driver: httpDriver({ base: 'https://example.com' }) }). */
export const httpDriver = defineDriver(createHttpDriver) as typeof createHttpDriver;
