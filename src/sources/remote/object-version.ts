// Which version of an object a reply carries, so that a read resumed after a cut continues the bytes it
// started with: the ETag (else Last-Modified) and the total size of the first reply must be the second's.
// If-Match alone is not enough: some stores (s3rver, some S3-compatible ones, plain file servers)
// ignore it and serve the new version's tail.
import type { ResponseHead } from './http-client.js';

export interface ObjectVersion { etag?: string; lastModified?: string; length?: number }

/** The version a (first, whole-object) reply carries; `length`: its body's size where known and not content-encoded. */
export function versionOf(res: ResponseHead, length: number | undefined): ObjectVersion {
  return { etag: res.headers.get('etag') ?? undefined, lastModified: res.headers.get('last-modified') ?? undefined, length };
}

/**
 * The If-Match to send when resuming: a strong ETag only (a weak one never matches under If-Match's
 * strong comparison; it is still compared with the reply's).
 */
export function ifMatchOf(v: ObjectVersion): string | undefined {
  return v.etag !== undefined && !v.etag.startsWith('W/') ? v.etag : undefined;
}

/** How the object that answered `res` differs from `first`, in words; null where the store says it is the same. */
export function changeOf(first: ObjectVersion, res: ResponseHead): string | null {
  if (res.status === 412) return `it no longer has ETag ${first.etag} (HTTP 412 to If-Match)`;
  const etag = res.headers.get('etag');
  if (first.etag !== undefined && etag !== first.etag) return `its ETag was ${first.etag}, now ${etag ?? 'none'}`;
  const modified = res.headers.get('last-modified');
  // Last-Modified decides only where there is no ETag: it has one-second resolution.
  if (first.etag === undefined && first.lastModified !== undefined && modified !== first.lastModified) {
    return `it was last modified ${first.lastModified}, now ${modified ?? 'no date'}`;
  }
  const total = totalLength(res);
  if (first.length !== undefined && total !== undefined && total !== first.length) return `its size was ${first.length} bytes, now ${total}`;
  return null;
}

/** The body's size from Content-Length, unless it is content-encoded (then the encoded size, not the text's). */
export function contentLength(res: ResponseHead): number | undefined {
  if (res.headers.get('content-encoding')) return undefined;
  return count(res.headers.get('content-length'));
}

/** Whether a 206 reply's Content-Range starts at `offset`. */
export function rangeStartsAt(res: ResponseHead, offset: number): boolean {
  const m = /^bytes (\d+)-/.exec(res.headers.get('content-range') ?? '');
  return m !== null && Number(m[1]) === offset;
}

/** The whole object's size a reply states: Content-Range's total on a 206 ("bytes 5-9/10"), else its Content-Length. */
function totalLength(res: ResponseHead): number | undefined {
  if (res.status !== 206) return contentLength(res);
  return count(/^bytes \d+-\d+\/(\d+)$/.exec(res.headers.get('content-range') ?? '')?.[1] ?? null);
}

/**
 * A size a store listed, as a byte count: anything but a whole number from 0 up (a store that lists -5 or 1.5
 * bytes) is unknown, so the object is streamed and its bytes counted rather than a buffer of that size made.
 */
export function byteCount(n: number | undefined): number | undefined {
  return n !== undefined && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

function count(raw: string | null): number | undefined {
  const n = raw === null ? NaN : Number(raw);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}
