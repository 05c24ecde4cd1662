// Plain http(s):// reads go through here: node:http(s) on keep-alive agents (half the CPU of fetch
// per byte), a timeout to the response headers and between body chunks, retries with backoff on
// transient statuses and transport failures, and a per-source "down" latch so that once an endpoint
// has stopped answering the rest fail fast instead of each waiting out its own retries. The S3 driver's
// signed object GETs come through here too; the SDK calls (S3 listings, Azure) hand their bodies to
// openedBody() for the same reading.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { SimgrepError } from '../../errors.js';
import { redactUri } from '../uri.js';
import { DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS } from './options.js';
import { backoffMs, isTransientCode, sleep, transportCode, TRANSIENT_STATUS } from './retry.js';

export interface RequestSpec {
  method: 'GET' | 'HEAD';
  url: URL;
  headers?: Record<string, string>;
  /** Follow 3xx Location. */
  followRedirects?: boolean;
  /** The request target exactly as signed, where `url`'s parser would rewrite it (S3 keys may hold `.` and `..` segments). */
  rawPath?: string;
}

/** Per request: the time allowed until the response headers and between body chunks, and retries of a transient failure. */
export interface RequestTuning { timeoutMs?: number; retries?: number }

export type HttpClientOptions = RequestTuning;

/** A transport failure (no usable response): refused, reset, timed out, unresolvable. */
export class TransportError extends Error {
  constructor(readonly code: string, readonly endpoint: string, readonly attempts: number, readonly timeoutMs: number, options?: { cause?: unknown }) {
    super(describeTransport(code, endpoint, attempts, timeoutMs), options);
    this.name = 'TransportError';
  }
}

export class TimeoutError extends Error { readonly code = 'TIMEOUT'; }

export interface ResponseHead {
  status: number;
  statusText: string;
  headers: { get(name: string): string | null };
}

export interface OpenedResponse {
  readonly res: ResponseHead;
  /** How many tries it took (transient statuses are retried before a response is returned). */
  readonly attempts: number;
  /** The body was content-encoded (gzip, deflate, br) and chunks() gives it decoded. */
  readonly decoded: boolean;
  /** The body in chunks as they arrive; the idle timer runs while waiting for each. Throws TransportError. */
  chunks(): AsyncGenerator<Uint8Array>;
  /**
   * The whole (small) body as text: listings and error documents. More than `maxBytes` (default
   * MAX_DOCUMENT_BYTES) decoded bytes is no such document: the read stops and REMOTE_ERROR says so.
   */
  text(maxBytes?: number): Promise<string>;
  /** Drops the rest of the body. */
  discard(): void;
}

export interface HttpClient {
  readonly timeoutMs: number;
  readonly retries: number;
  /** Sends one request, retrying transient failures; returns the final response whatever its status. */
  open(spec: RequestSpec, signal?: AbortSignal): Promise<OpenedResponse>;
}

const MAX_REDIRECTS = 5;
/**
 * The most a listing page or an error document may hold (decoded). A page of 1,000 keys of 1,024 bytes,
 * URL-encoded, is under 4 MiB; a reply that goes on past this (a body that never ends, a gzip bomb)
 * would otherwise be gathered in memory until the process dies.
 */
export const MAX_DOCUMENT_BYTES = 32 << 20;
/** The most an error document (or a stat's small JSON) may hold: small, anything bigger is not one. */
export const MAX_ERROR_BODY_BYTES = 65_536;
const MAX_SOCKETS = 16;
// One pool per process: connections are reused across sources and searches; idle ones never keep
// the process alive (the agent unrefs them).
const agents = { http: new HttpAgent({ keepAlive: true, maxSockets: MAX_SOCKETS }), https: new HttpsAgent({ keepAlive: true, maxSockets: MAX_SOCKETS }) };
/** The process's pool for a URL's scheme (the Azure driver's client takes its connections from it too: azure-http.ts). */
export const agentFor = (https: boolean): HttpAgent => (https ? agents.https : agents.http);

export function createHttpClient(o: HttpClientOptions): HttpClient {
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const retries = o.retries ?? DEFAULT_RETRIES;
  let down: TransportError | null = null;

  /** One attempt: resolves at the response headers, or rejects (timeout, transport error, abort). */
  function send(url: URL, spec: RequestSpec, signal?: AbortSignal): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const https = url.protocol === 'https:';
      const req = (https ? httpsRequest : httpRequest)(url, { method: spec.method, headers: spec.headers, agent: agentFor(https), ...(spec.rawPath && { path: spec.rawPath }) });
      const onAbort = () => req.destroy(signal!.reason);
      const timer = setTimeout(() => req.destroy(new TimeoutError('timed out')), timeoutMs);
      const done = () => { clearTimeout(timer); signal?.removeEventListener('abort', onAbort); };
      signal?.addEventListener('abort', onAbort, { once: true });
      req.on('response', (res) => { done(); resolve(res); });
      req.on('error', (e) => { done(); reject(e); });
      req.end();
    });
  }

  async function open(spec: RequestSpec, signal?: AbortSignal): Promise<OpenedResponse> {
    let url = spec.url;
    let redirects = 0;
    for (let attempt = 1; ; attempt++) {
      if (down) throw down;
      signal?.throwIfAborted();
      let res: IncomingMessage;
      try {
        res = await send(url, spec, signal);
      } catch (e) {
        if (signal?.aborted) throw signal.reason;
        const code = transportCode(e) ?? 'EUNKNOWN';
        if (isTransientCode(code) && attempt <= retries) {
          await sleep(backoffMs(attempt), signal);
          continue;
        }
        down = new TransportError(code, url.origin, attempt, timeoutMs, { cause: e });
        throw down;
      }
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (spec.followRedirects && status >= 300 && status < 400 && location) {
        res.resume();
        if (redirects >= MAX_REDIRECTS) {
          throw new SimgrepError('REMOTE_ERROR', `too many redirects (more than ${MAX_REDIRECTS}, the last to ${redactUri(new URL(location, url).href)}); the server redirects in a loop: check the URL`);
        }
        const next = new URL(location, url);
        // Only to http(s): node:http refused a file: or other scheme as "the request to null failed
        // (ERR_INVALID_PROTOCOL)", which named neither the redirect nor where it led.
        if (next.protocol !== 'http:' && next.protocol !== 'https:') {
          throw new SimgrepError('REMOTE_ERROR', `the server redirected to ${redactUri(next.href)}, which is not an http or https URL; simgrep follows redirects only to http and https: check the URL`);
        }
        url = next;
        redirects++;
        attempt--;
        continue;
      }
      if (TRANSIENT_STATUS.has(status) && attempt <= retries) {
        res.resume();
        await sleep(backoffMs(attempt, header(res, 'retry-after')), signal);
        continue;
      }
      return openedBody(res, responseHead(res), { endpoint: url.origin, attempts: attempt, timeoutMs, signal });
    }
  }

  return { timeoutMs, retries, open };
}

/** A response body (node:http's, or the one an SDK hands back) as an OpenedResponse: decoded per its
 * Content-Encoding, an idle timer while waiting for each chunk, transport failures as TransportError. */
export function openedBody(res: Readable, head: ResponseHead, o: { endpoint: string; attempts: number; timeoutMs: number; signal?: AbortSignal }): OpenedResponse {
  const { endpoint, attempts, timeoutMs, signal } = o;
  const onAbort = () => res.destroy(signal!.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  res.on('close', () => signal?.removeEventListener('abort', onAbort));
  const encoding = head.headers.get('content-encoding');
  const decoder = decoderFor(encoding);
  // Decoding runs in a zlib stream; the idle timer still watches the server's bytes.
  const body: AsyncIterable<Buffer> = decoder ? res.pipe(decoder) : res;
  if (decoder) {
    res.on('error', (e) => decoder.destroy(e));
    // While the body is read, its errors reach the reader through the iterator's own listener. Once the reader
    // has stopped (--max-filesize met, a binary file, a stop), the cut body still ends the decoder mid-stream:
    // its Z_BUF_ERROR ("unexpected end of file") had no listener then and killed the process (trust47).
    decoder.on('error', () => {});
  }
  async function* chunks(): AsyncGenerator<Uint8Array> {
    const it = body[Symbol.asyncIterator]();
    let complete = false;
    try {
      for (;;) {
        // The idle timer runs only while we wait on the server, never while the consumer is busy.
        const idle = setTimeout(() => res.destroy(new TimeoutError('timed out')), timeoutMs);
        let step: IteratorResult<Buffer>;
        try { step = await it.next(); } catch (e) {
          if (signal?.aborted) throw signal.reason;
          if (decoder && isZlibError(e)) {
            throw new SimgrepError('REMOTE_ERROR', `the body is marked Content-Encoding: ${encoding} but does not decode (${(e as Error).message}); the server sent it damaged`);
          }
          throw new TransportError(transportCode(e) ?? 'EUNKNOWN', endpoint, attempts, timeoutMs, { cause: e });
        } finally {
          clearTimeout(idle);
        }
        if (step.done) { complete = true; return; }
        yield step.value;
      }
    } finally {
      if (!complete) { res.destroy(); decoder?.destroy(); }
    }
  }
  return {
    res: head,
    attempts,
    decoded: decoder !== null,
    chunks,
    async text(maxBytes = MAX_DOCUMENT_BYTES) {
      return (await boundedBytes(chunks(), maxBytes, endpoint)).toString('utf8');
    },
    discard() {
      // A small rest is drained so the connection is reused; a big one is cut.
      if (Number(head.headers.get('content-length') ?? Infinity) <= MAX_ERROR_BODY_BYTES) res.resume(); else res.destroy();
    },
  };
}

/** A body's bytes up to `maxBytes`; one byte more ends the read (the generator's finally cuts the socket). */
export async function boundedBytes(body: AsyncIterable<Uint8Array>, maxBytes: number, endpoint: string): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  let total = 0;
  for await (const part of body) {
    total += part.length;
    if (total > maxBytes) throw documentTooLarge(endpoint, maxBytes);
    parts.push(part);
  }
  return Buffer.concat(parts, total);
}

/** The error for a listing or error document past its bound. */
export function documentTooLarge(endpoint: string, maxBytes: number): SimgrepError {
  return new SimgrepError('REMOTE_ERROR', `${endpoint} sent a reply over ${maxBytes >= 1 << 20 ? `${maxBytes / (1 << 20)} MiB` : `${maxBytes} bytes`} where a listing page or an error document was expected (none is that large), so the read was stopped: check that the endpoint is the storage service you meant`);
}

function responseHead(res: IncomingMessage): ResponseHead {
  return { status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', headers: { get: (name) => header(res, name) } };
}

/** A decoder for the body's Content-Encoding; null for identity (or one we do not know: bytes as sent). */
function decoderFor(encoding: string | null) {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip': case 'x-gzip': return createGunzip();
    case 'deflate': return createInflate();
    case 'br': return createBrotliDecompress();
    default: return null;
  }
}

function isZlibError(e: unknown): boolean {
  const code = (e as { code?: unknown })?.code;
  return typeof code === 'string' && code.startsWith('Z_');
}

function header(res: IncomingMessage, name: string): string | null {
  const v = res.headers[name.toLowerCase()];
  return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
}

function describeTransport(code: string, endpoint: string, attempts: number, timeoutMs: number): string {
  const tries = attempts === 1 ? '1 attempt' : `${attempts} attempts`;
  switch (code) {
    case 'TIMEOUT':
    case 'ETIMEDOUT':
      return `${endpoint} did not answer within ${timeoutMs} ms (${tries}); the server is slow or down: check it, or raise SIMGREP_REMOTE_TIMEOUT_MS`;
    case 'ECONNREFUSED':
      return `cannot connect to ${endpoint}: connection refused (${tries}); is the server running and the endpoint right?`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot resolve the host of ${endpoint} (${code}); check the URL or the endpoint setting`;
    case 'ECONNRESET':
    case 'EPIPE':
      return `the connection to ${endpoint} was closed by the server (${code}, ${tries}); check the server's health`;
    default:
      return `the request to ${endpoint} failed (${code}, ${tries})`;
  }
}
