// Streams one object's bytes in bounded memory: small objects (size known, <= 8 MiB) arrive as one
// buffer, big ones in 1 MiB chunks; a transport failure mid-body resumes with a Range request from
// the last byte received (If-Match on the ETag). A resumed reply must be the same version as the first
// (object-version.ts): a changed object is read again from the start while none of it was handed on,
// else the read fails as changed. Two versions are never spliced into one text.
import { SimgrepError } from '../../errors.js';
import { TransportError, type OpenedResponse } from './http-client.js';
import { STREAM_CHUNK_BYTES, WHOLE_READ_BYTES } from '../source.js';
import { backoffMs, sleep } from './retry.js';
import { byteCount, changeOf, contentLength, ifMatchOf, rangeStartsAt, versionOf, type ObjectVersion } from './object-version.js';

/**
 * GETs the object with these extra headers (a Range and If-Match when resuming); resolves only with a
 * 2xx response, or with the 412 answer to an If-Match (the object changed since).
 */
export type OpenObject = (headers: Record<string, string>, signal?: AbortSignal) => Promise<OpenedResponse>;

export interface StreamObjectOptions { size?: number; retries: number; signal?: AbortSignal }

/** Reads of a changed object started again from the beginning, at most (each one a whole new read). */
const MAX_RESTARTS = 1;

export async function* streamObject(open: OpenObject, o: StreamObjectOptions): AsyncGenerator<Uint8Array> {
  let opened = await open({}, o.signal);
  let resumes = 0;
  let restarts = 0;
  /** Whether any byte went to the caller: from then on a changed object cannot be read again. */
  let handedOn = false;
  // A restart's size is its reply's: the listing's (o.size) described the version before.
  let first = begin(opened, byteCount(o.size) ?? contentLength(opened.res));
  let { buf } = first;
  let fill = 0;
  let offset = 0;
  for (;;) {
    try {
      for await (const chunk of opened.chunks()) {
        offset += chunk.length;
        // A body longer than the size the store declared (a listing, a HEAD) is cut off: the object
        // changed, or the server is broken, and buffering its size would have no end.
        if (first.declared !== undefined && offset > first.declared) {
          throw new SimgrepError('REMOTE_CHANGED', `the object sent more than the ${first.declared} bytes it was listed with; it changed while being read, search again`);
        }
        let at = 0;
        while (at < chunk.length) {
          if (fill === buf.length) {
            // Only a body of unknown size gets here in whole mode: its chunks go on as a stream.
            handedOn = true;
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
      const ifMatch = ifMatchOf(first.version);
      opened = await open({ range: `bytes=${offset}-`, ...(ifMatch && { 'if-match': ifMatch }) }, o.signal);
      const changed = changeOf(first.version, opened.res);
      if (changed === null) {
        if (opened.res.status === 206 && rangeStartsAt(opened.res, offset)) continue;
        opened.discard();
        throw new SimgrepError('REMOTE_UNAVAILABLE', `${e.message}; resuming at byte ${offset} failed: the server ignored the Range request (HTTP ${opened.res.status})`, { cause: e });
      }
      if (handedOn || restarts >= MAX_RESTARTS) {
        opened.discard();
        const read = handedOn ? `only its first ${offset - fill} bytes were read` : 'it changed again when read anew, so none of it was read';
        throw new SimgrepError('REMOTE_CHANGED', `the object changed while it was being read (${changed}, found when resuming at byte ${offset}); ${read}: search again`, { cause: e });
      }
      // Nothing was handed on yet: read the new version from its first byte instead (a store that
      // ignored the Range has sent that whole version already).
      restarts++;
      if (opened.res.status !== 200) {
        opened.discard();
        opened = await open({}, o.signal);
      }
      first = begin(opened, contentLength(opened.res));
      buf = first.buf;
      fill = 0;
      offset = 0;
    }
  }
  // A body that ends clean short of its declared size is not the object as listed: which bytes are
  // missing cannot be told, so it is reported as a read error (the length a longer one is cut at, above).
  if (first.declared !== undefined && offset < first.declared) throw shortBody(offset, first.declared, contentLength(opened.res));
  if (fill > 0) yield buf.subarray(0, fill);
}

/** Why a body of `got` bytes is not the `declared` bytes: a whole newer version (its reply said so), or a cut one. */
function shortBody(got: number, declared: number, replyLength: number | undefined): SimgrepError {
  return new SimgrepError('REMOTE_CHANGED', replyLength === got
    ? `the object is ${got} bytes now, not the ${declared} bytes it was listed with: it changed since it was listed (or the store lists a wrong size); search again`
    : `the object's body ended after ${got} of its ${declared} bytes: it changed while being read, or the store or a proxy cut it short; search again`);
}

/** What a read keeps of its first reply: the version to hold resumes to, the size it may not pass, its buffer. */
function begin(opened: OpenedResponse, length: number | undefined): { version: ObjectVersion; declared: number | undefined; buf: Buffer } {
  const whole = length !== undefined && length <= WHOLE_READ_BYTES;
  return {
    version: versionOf(opened.res, opened.decoded ? undefined : contentLength(opened.res)),
    declared: opened.decoded ? undefined : length,
    buf: Buffer.allocUnsafe(whole ? length : STREAM_CHUNK_BYTES),
  };
}

/** The answer a driver gives for a resumed GET its store refused with 412 (If-Match failed): the object changed. */
export function preconditionFailed(): OpenedResponse {
  return {
    res: { status: 412, statusText: 'Precondition Failed', headers: { get: () => null } },
    attempts: 1,
    decoded: false,
    async *chunks() { /* no body */ },
    text: async () => '',
    discard() {},
  };
}

/** A listed object's key, for pagedListing's repeat check. */
export const keyOfListed = (o: { key: string }): string => o.key;

/**
 * One page of a listing, and the store's cursor to the next (absent on the last page). `prefixes`: the
 * "directories" a listing by delimiter (not recursive) rolled its keys into: a page that names a prefix
 * not named before is progress, as a page with an object is.
 */
export interface ListingPage<T> { items: T[]; cursor?: string; prefixes?: string[] }

/**
 * How long (in remote timeouts: 10 minutes at the default 30 s) a listing may go on under fresh
 * continuation tokens with pages of neither an object nor a new prefix before it is stopped as endless.
 * Honest stores send such pages: S3 past the delete markers of a versioned bucket (millions of them under
 * one prefix give thousands of empty pages), Azure past deleted blobs (documented: an empty page with a
 * next marker), Cloud Storage and S3 directory buckets after a scan that ran out of time, S3-compatible
 * stores that repeat one common prefix on the pages of the keys under it. A count of pages would stop a
 * fast honest store and let a slow endless one run long; time without progress bounds both alike.
 */
export const STALL_TIMEOUTS = 20;

export interface PagedListingOptions<T> {
  /** An object's key (S3, Cloud Storage, Azure): pages are checked for repeats. */
  keyOf?: (item: T) => string;
  /** Time without progress, in ms, before the listing is stopped (STALL_TIMEOUTS remote timeouts). */
  stallMs: number;
}

/**
 * A paginated listing as one stream: the next page is fetched while the caller consumes this one. With
 * `keyOf`, a page of objects whose first and last keys are those of an earlier page repeats the listing:
 * fresh continuation tokens over the same keys would list (and read) them forever, so the listing is
 * stopped there. No order is assumed (S3 directory buckets do not list in key order), and a page that
 * starts with the key the page before ended with is a duplicate, not a repeat. Over a finite set of keys
 * an endless listing must repeat a (first, last) pair; one pair is kept per page of objects. Pages without
 * an object count by their prefixes: one naming none not named before is no progress, bounded by time
 * (`stallMs`) as an empty page is (S3-compatible stores name one prefix on several pages in a row).
 */
export async function* pagedListing<T>(fetchPage: (cursor: string | undefined) => Promise<ListingPage<T>>, o: PagedListingOptions<T>): AsyncGenerator<T> {
  const { keyOf, stallMs } = o;
  let next: Promise<ListingPage<T>> | null = fetchPage(undefined);
  // A store that hands back a cursor it already gave would be listed forever.
  const seen = new Set<string>();
  /** Each page of objects' first and last key so far (JSON of the pair). */
  const spans = new Set<string>();
  /** The prefixes named so far (a listing by delimiter yields each once, so these are as many as it lists). */
  const prefixesSeen = new Set<string>();
  let idlePages = 0;
  let progressAt = performance.now();
  while (next) {
    const page: ListingPage<T> = await next;
    let fresh = false;
    for (const p of page.prefixes ?? []) if (!prefixesSeen.has(p)) { prefixesSeen.add(p); fresh = true; }
    if (page.items.length > 0 || fresh) {
      idlePages = 0;
      progressAt = performance.now();
    } else if (page.cursor) {
      // Nothing new, yet the store says there is more: bounded by time without progress.
      idlePages++;
      const idleMs = performance.now() - progressAt;
      if (idleMs >= stallMs) throw stalled(idlePages, idleMs);
    }
    if (keyOf && page.items.length > 0) {
      const first = keyOf(page.items[0]!);
      const last = keyOf(page.items[page.items.length - 1]!);
      const span = JSON.stringify([first, last]);
      if (spans.has(span)) {
        throw new SimgrepError('REMOTE_ERROR', `the store's next page, from "${shownKey(first)}" to "${shownKey(last)}", was listed before under another continuation token: this listing repeats itself and would never end; it was stopped (a bug in the store or a proxy in front of it)`);
      }
      spans.add(span);
    }
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

function stalled(pages: number, idleMs: number): SimgrepError {
  return new SimgrepError('REMOTE_ERROR', `the store sent ${pages} pages in a row with no object and no new prefix in them over ${Math.round(idleMs / 1000)} s, each under a fresh continuation token, so the listing was stopped: a versioned bucket whose prefix holds millions of delete markers (S3) or deleted blobs (Azure) lists such pages honestly (list a narrower prefix, clean up the old versions, or give more time with $SIMGREP_REMOTE_TIMEOUT_MS: the bound is ${STALL_TIMEOUTS} remote timeouts); else the store or a proxy in front of it answers "more" forever. The objects listed before were searched`);
}

/** A key as a message shows it: control characters escaped, at most 80 characters. */
function shownKey(key: string): string {
  const cut = key.length > 80 ? `${key.slice(0, 80)}…` : key;
  return JSON.stringify(cut).slice(1, -1);
}
