// Streams one object's bytes in bounded memory: small objects (size known, <= 8 MiB) arrive as one
// buffer, big ones in 1 MiB chunks; a transport failure mid-body resumes with a Range request from
// the last byte received (If-Match on the ETag, so a changed object is never spliced).
import { SimgrepError } from '../../errors.js';
import { TransportError, type OpenedResponse, type ResponseHead } from './http-client.js';
import { STREAM_CHUNK_BYTES, WHOLE_READ_BYTES } from '../source.js';
import { backoffMs, sleep } from './retry.js';

/** GETs the object with these extra headers (a Range and If-Match when resuming); resolves only with a 2xx response. */
export type OpenObject = (headers: Record<string, string>, signal?: AbortSignal) => Promise<OpenedResponse>;

export interface StreamObjectOptions { size?: number; retries: number; signal?: AbortSignal }


export async function* streamObject(open: OpenObject, o: StreamObjectOptions): AsyncGenerator<Uint8Array> {
  let opened = await open({}, o.signal);
  const etag = opened.res.headers.get('etag') ?? undefined;
  const length = o.size ?? contentLength(opened.res);
  const whole = length !== undefined && length <= WHOLE_READ_BYTES;
  let buf: Buffer = Buffer.allocUnsafe(whole ? length : STREAM_CHUNK_BYTES);
  let fill = 0;
  let offset = 0;
  let resumes = 0;
  // A body longer than the size the store declared (a listing, a HEAD) is cut off: the object
  // changed, or the server is broken, and buffering its size would have no end.
  const declared = opened.decoded ? undefined : length;
  for (;;) {
    try {
      for await (const chunk of opened.chunks()) {
        offset += chunk.length;
        if (declared !== undefined && offset > declared) {
          throw new SimgrepError('REMOTE_ERROR', `the object sent more than the ${declared} bytes it was listed with; it changed while being read, search again`);
        }
        let at = 0;
        while (at < chunk.length) {
          if (fill === buf.length) {
            // Only a body of unknown size gets here in whole mode: its chunks go on as a stream.
            yield buf;
            buf = Buffer.allocUnsafe(STREAM_CHUNK_BYTES);
            fill = 0;
          }
          const n = Math.min(chunk.length - at, buf.length - fill);
          buf.set(chunk.subarray(at, at + n), fill);
          fill += n;
          at += n;
        }
      }
      break;
    } catch (e) {
      // A decoded (gzip) body cannot resume by byte offset: its offsets are not the server's.
      if (!(e instanceof TransportError) || resumes >= o.retries || opened.decoded) throw e;
      resumes++;
      await sleep(backoffMs(resumes), o.signal);
      opened = await open({ range: `bytes=${offset}-`, ...(etag && { 'if-match': etag }) }, o.signal);
      if (opened.res.status !== 206 || !rangeStartsAt(opened.res, offset)) {
        opened.discard();
        throw new SimgrepError('REMOTE_UNAVAILABLE', `${e.message}; resuming at byte ${offset} failed: the server ignored the Range request (HTTP ${opened.res.status})`, { cause: e });
      }
    }
  }
  if (fill > 0) yield buf.subarray(0, fill);
}

function contentLength(res: ResponseHead): number | undefined {
  if (res.headers.get('content-encoding')) return undefined; // the encoded size, not the text's
  const raw = res.headers.get('content-length');
  const n = raw === null ? NaN : Number(raw);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

function rangeStartsAt(res: ResponseHead, offset: number): boolean {
  const m = /^bytes (\d+)-/.exec(res.headers.get('content-range') ?? '');
  return m !== null && Number(m[1]) === offset;
}


/** One page of a listing, and the store's cursor to the next (absent on the last page). */
export interface ListingPage<T> { items: T[]; cursor?: string }

/** A paginated listing as one stream: the next page is fetched while the caller consumes this one. */
export async function* pagedListing<T>(fetchPage: (cursor: string | undefined) => Promise<ListingPage<T>>): AsyncGenerator<T> {
  let next: Promise<ListingPage<T>> | null = fetchPage(undefined);
  // A store that hands back a cursor it already gave would be listed forever.
  const seen = new Set<string>();
  while (next) {
    const page: ListingPage<T> = await next;
    if (page.cursor && seen.has(page.cursor)) {
      yield* page.items;
      throw new SimgrepError('REMOTE_ERROR', `the store sent the same continuation token twice ("${page.cursor.slice(0, 40)}"), so the listing would never end; it was stopped (a bug in the store or a proxy in front of it)`);
    }
    if (page.cursor) seen.add(page.cursor);
    next = page.cursor ? fetchPage(page.cursor) : null;
    next?.catch(() => {}); // awaited on the next turn; this only marks it handled if we stop early
    yield* page.items;
  }
}
