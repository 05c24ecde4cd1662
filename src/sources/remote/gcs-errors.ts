// Turns a Cloud Storage JSON API error reply ({"error": {"code", "message", "errors": [{"reason"}]}})
// into a message that says what failed and how to fix it; and checks that a listing reply is one.
import { SimgrepError } from '../../errors.js';

export interface GcsErrorContext {
  bucket: string;
  /** Where requests go (the JSON API base). */
  endpoint: string;
  credentialSource: string;
  credentialHint: string;
  /** Whether requests were sent without credentials (STORAGE_EMULATOR_HOST). */
  anonymous: boolean;
  attempts: number;
  /** What was asked: a listing, an object's metadata, or its bytes. */
  op: 'list' | 'stat' | 'read';
}

export const READ_ROLE = 'storage.objects.list and storage.objects.get (the role Storage Object Viewer, roles/storage.objectViewer)';

/** The reply's error document, if it is one. */
export function parseGcsError(body: string): { reason?: string; message?: string } {
  try {
    const doc = JSON.parse(body) as { error?: { message?: string; errors?: { reason?: string }[] } };
    return { reason: doc.error?.errors?.[0]?.reason, message: doc.error?.message };
  } catch {
    return {};
  }
}

export function gcsErrorFor(status: number, body: string, ctx: GcsErrorContext): SimgrepError {
  const { reason, message } = parseGcsError(body);
  const said = `HTTP ${status}${reason ? ` ${reason}` : ''}${message ? `: ${short(message)}` : ''}`;
  const creds = `credentials from ${ctx.credentialSource}`;
  if (status === 401) {
    if (ctx.anonymous) return new SimgrepError('REMOTE_CREDENTIALS', `the endpoint asks for credentials (${said}), and none were sent: ${ctx.credentialHint}`);
    return new SimgrepError('REMOTE_CREDENTIALS', `the credentials were refused (${said}), ${creds}; ${ctx.credentialHint}`);
  }
  if (status === 403) {
    return new SimgrepError('REMOTE_ACCESS_DENIED', `access denied (${said}), ${creds}; it needs ${READ_ROLE} on bucket "${ctx.bucket}"`);
  }
  if (status === 404) {
    if (ctx.op === 'list' || /bucket does not exist/i.test(message ?? '')) {
      return new SimgrepError('PATH_NOT_FOUND', `bucket "${ctx.bucket}" does not exist at ${ctx.endpoint} (${said}); check the bucket name and the endpoint (--gcs-endpoint, STORAGE_EMULATOR_HOST)`);
    }
    return new SimgrepError('PATH_NOT_FOUND', `no such object (${said}); check the name`);
  }
  if (status === 412) {
    return new SimgrepError('REMOTE_CHANGED', `the object was replaced while being read (${said}): a new generation was written; search again`);
  }
  if (status >= 500 || status === 429 || status === 408) {
    return new SimgrepError('REMOTE_UNAVAILABLE', `the store failed with ${said} after ${ctx.attempts} attempts; try again later`);
  }
  return new SimgrepError('REMOTE_ERROR', `the store answered ${said}`);
}

export interface ListingReply { items: { name: string; size?: string; updated?: string; generation?: string }[]; nextPageToken?: string; prefixes?: string[] }

/** A listing reply parsed, or the error that says what came back instead (an HTML page, a cut body). */
export function parseListing(body: string, contentType: string | null): ListingReply {
  let doc: unknown;
  try { doc = JSON.parse(body); } catch { doc = undefined; }
  const reply = doc as Partial<ListingReply> | undefined;
  const itemsOk = reply !== undefined && reply !== null && typeof reply === 'object' && !Array.isArray(reply)
    && (reply.items === undefined || (Array.isArray(reply.items) && reply.items.every((i) => typeof i?.name === 'string')));
  if (itemsOk) {
    const prefixes = Array.isArray(reply!.prefixes) ? reply!.prefixes.filter((p): p is string => typeof p === 'string') : [];
    return { items: reply!.items ?? [], nextPageToken: typeof reply!.nextPageToken === 'string' && reply!.nextPageToken ? reply!.nextPageToken : undefined, prefixes };
  }
  const trimmed = body.trim();
  const what = trimmed === '' ? 'an empty body'
    : /^<(!doctype html|html)/i.test(trimmed) ? 'an HTML page'
      : doc === undefined && trimmed.startsWith('{') ? `JSON cut short (${trimmed.length} characters)`
        : `"${short(trimmed.slice(0, 60))}${trimmed.length > 60 ? '…' : ''}"`;
  return failListing(what, contentType);
}

function failListing(what: string, contentType: string | null): never {
  throw new SimgrepError('REMOTE_ERROR', `the listing request was answered with ${what} (${contentType ?? 'no content type'}), not a Cloud Storage listing; check that --gcs-endpoint (or STORAGE_EMULATOR_HOST) is the JSON API of the store`);
}

function short(s: string): string {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
