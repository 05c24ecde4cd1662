// The HTTP client the Azure driver gives @azure/storage-blob (its public `httpClient` option): node:http
// as the SDK's own client does (its proxy agent kept), except that a body the SDK would gather whole (a
// listing page, an error document) is read up to a bound, as S3's and Cloud Storage's are (http-client.ts
// MAX_DOCUMENT_BYTES, MAX_ERROR_BODY_BYTES): a reply that never ends grew memory until the process died.
// Bodies the SDK asks to stream (a blob's download) go back as the socket's stream, as before.
import { request as httpRequest, type Agent as HttpAgent, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { HttpHeaders, HttpOperationResponse, IHttpClient, WebResource } from '@azure/storage-blob';
import { agentFor, boundedBytes, MAX_DOCUMENT_BYTES, MAX_ERROR_BODY_BYTES } from './http-client.js';

export function boundedAzureHttpClient(): IHttpClient {
  return {
    async sendRequest(req: WebResource): Promise<HttpOperationResponse> {
      const url = new URL(req.url);
      const res = await send(url, req);
      const status = res.statusCode ?? 0;
      const headers = responseHeaders(res);
      if (req.method === 'HEAD') { res.resume(); return { request: req, status, headers }; }
      const streamed = req.streamResponseStatusCodes?.has(Number.POSITIVE_INFINITY) || req.streamResponseStatusCodes?.has(status);
      if (streamed) return { request: req, status, headers, readableStreamBody: res };
      // A listing page may be large; any other gathered body is an error document or a small reply.
      const listing = status < 300 && url.searchParams.get('comp') === 'list';
      const body = await boundedBytes(res, listing ? MAX_DOCUMENT_BYTES : MAX_ERROR_BODY_BYTES, url.origin);
      return { request: req, status, headers, bodyAsText: body.toString('utf8') };
    },
  };
}

/** One request; resolves at the response headers. The SDK's abort signal (the driver's timeout per try) cuts it. */
function send(url: URL, req: WebResource): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const https = url.protocol === 'https:';
    const out = (https ? httpsRequest : httpRequest)(url, {
      method: req.method, headers: req.headers.rawHeaders(), agent: (req.agent as HttpAgent | undefined) ?? agentFor(https),
    });
    const signal = req.abortSignal;
    const onAbort = () => out.destroy(Object.assign(new Error('The operation was aborted.'), { name: 'AbortError' }));
    if (signal?.aborted) { onAbort(); } else signal?.addEventListener('abort', onAbort);
    const done = () => signal?.removeEventListener('abort', onAbort);
    out.on('response', (res) => { res.on('close', done); resolve(res); });
    out.on('error', (e) => { done(); reject(e); });
    const body: unknown = typeof req.body === 'function' ? (req.body as () => unknown)() : req.body;
    if (typeof body === 'string' || body instanceof Uint8Array) out.end(body); else out.end();
  });
}

function responseHeaders(res: IncomingMessage): HttpHeaders {
  const raw: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) raw[name] = Array.isArray(value) ? value.join(', ') : value;
  return headersOf(raw);
}

/** The SDK's HttpHeadersLike over a plain record of lowercase names. */
function headersOf(raw: Record<string, string>): HttpHeaders {
  const h: HttpHeaders = {
    set: (name, value) => { raw[name.toLowerCase()] = String(value); },
    get: (name) => raw[name.toLowerCase()],
    contains: (name) => name.toLowerCase() in raw,
    remove: (name) => { const had = name.toLowerCase() in raw; delete raw[name.toLowerCase()]; return had; },
    rawHeaders: () => ({ ...raw }),
    headersArray: () => Object.entries(raw).map(([name, value]) => ({ name, value })),
    headerNames: () => Object.keys(raw),
    headerValues: () => Object.values(raw),
    clone: () => headersOf({ ...raw }),
    toJson: () => ({ ...raw }),
  };
  return h;
}
