// A loopback fake of the Cloud Storage JSON API, because no real GCS server runs here (Google ships
// none; fake-gcs-server is a Go binary, not installable offline). It serves what simgrep sends,
// as GCS documents it: objects.list (prefix, delimiter, maxResults, pageToken), objects.get for metadata
// and with alt=media (Range, ifGenerationMatch, x-goog-generation, gzip stored objects transcoded
// unless the client accepts gzip), and GCS's JSON error documents. Beside it, on the same port, the two
// token sources Application Default Credentials can be pointed at: an STS endpoint for a workload
// identity federation file (GOOGLE_APPLICATION_CREDENTIALS) and a GCE metadata server (GCE_METADATA_HOST).
// Only bearer tokens it handed out for a known subject are accepted; others get GCS's 401 or 403.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { listenLocal } from './http-server.js';

export interface FakeObject { body: Buffer; generation: number; updated: Date; contentEncoding?: string }

export interface FakeGcs {
  /** http://127.0.0.1:PORT: the JSON API is under /storage/v1, STS at /v1/token, metadata at /computeMetadata/v1. */
  origin: string;
  /** host:port, for GCE_METADATA_HOST. */
  host: string;
  buckets: Map<string, Map<string, FakeObject>>;
  /** "GET /storage/v1/b/…?…" for every storage request, in order. */
  requests: string[];
  /** Writes (or replaces: a new generation) an object. */
  put(bucket: string, name: string, body: string | Buffer, o?: { contentEncoding?: string }): void;
  /** Sends only this many bytes of the next media GET of `name`, then drops the connection. */
  cutNextRead(name: string, bytes: number, then?: () => void): void;
  /** Answers the next `times` storage requests with this status (GCS's error document), or this raw body as a 200 (a proxy's page). */
  failNext(times: number, reply: { status: number } | { body: string; contentType: string }): void;
  /** The Range header of every media GET, in order ('' without one). */
  ranges: string[];
  /** Writes a workload identity federation file that trades `subject` for a token at this STS. */
  federationConfig(subjectTokenFile: string): object;
  stop(): Promise<void>;
}

/** Subjects the STS (and metadata server) trade for tokens, and what the store then does with each token. */
export const SUBJECTS = { reader: 'subject-of-the-reader', stranger: 'subject-without-access', revoked: 'subject-whose-token-was-revoked' } as const;
const TOKENS: Record<string, { token: string; access: 'read' | 'none' | 'revoked' }> = {
  [SUBJECTS.reader]: { token: 'ya29.reader-token', access: 'read' },
  [SUBJECTS.stranger]: { token: 'ya29.stranger-token', access: 'none' },
  [SUBJECTS.revoked]: { token: 'ya29.revoked-token', access: 'revoked' },
};

/** A token the store accepts (for drivers given their auth directly, without ADC). */
export const READER_AUTH = { getRequestHeaders: async () => ({ Authorization: `Bearer ${TOKENS[SUBJECTS.reader].token}` }) };

export async function startFakeGcs(o: { anonymous?: boolean; metadataSubject?: string } = {}): Promise<FakeGcs> {
  const buckets = new Map<string, Map<string, FakeObject>>();
  const requests: string[] = [];
  const cuts = new Map<string, { bytes: number; then?: () => void }>();
  const ranges: string[] = [];
  let failing: { times: number; reply: { status: number } | { body: string; contentType: string } } | null = null;
  let generation = 1_700_000_000_000_000;

  const handler = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url!, 'http://x');
    if (url.pathname === '/v1/token' && req.method === 'POST') return sts(req, res);
    if (url.pathname.startsWith('/computeMetadata/')) return metadata(req, res, url, o.metadataSubject);
    requests.push(`${req.method} ${req.url}`);
    if (failing && failing.times-- > 0) {
      const r = failing.reply;
      if ('status' in r) return fail(res, r.status, r.status === 503 ? 'backendError' : 'error', r.status === 503 ? 'Backend Error' : 'Error');
      res.writeHead(200, { 'content-type': r.contentType }).end(r.body);
      return;
    }
    const m = /^\/storage\/v1\/b\/([^/]+)\/o(?:\/([^/]+))?$/.exec(url.pathname);
    if (!m || req.method !== 'GET') return fail(res, 404, 'notFound', 'Not Found');
    const bucket = decodeURIComponent(m[1]);
    const name = m[2] === undefined ? undefined : decodeURIComponent(m[2]);
    const denied = authCheck(req, o.anonymous === true, name === undefined ? 'storage.objects.list' : 'storage.objects.get', bucket);
    if (denied) return fail(res, denied.status, denied.reason, denied.message);
    const objects = buckets.get(bucket);
    if (!objects) return fail(res, 404, 'notFound', 'The specified bucket does not exist.');
    if (name === undefined) return json(res, list(bucket, objects, url.searchParams));
    const obj = objects.get(name);
    if (!obj) return fail(res, 404, 'notFound', `No such object: ${bucket}/${name}`);
    const want = url.searchParams.get('ifGenerationMatch');
    if (want !== null && want !== String(obj.generation)) return fail(res, 412, 'conditionNotMet', 'At least one of the pre-conditions you specified did not hold.');
    if (url.searchParams.get('alt') !== 'media') return json(res, resource(bucket, name, obj));
    ranges.push(String(req.headers.range ?? ''));
    return media(req, res, name, obj);
  };

  function list(bucket: string, objects: Map<string, FakeObject>, q: URLSearchParams) {
    const prefix = q.get('prefix') ?? '';
    const delimiter = q.get('delimiter');
    const max = Math.min(Number(q.get('maxResults') ?? 1000) || 1000, 1000);
    const after = q.get('pageToken') ? Buffer.from(q.get('pageToken')!, 'base64url').toString() : '';
    // Items and prefixes in one name order, as GCS pages them.
    const entries: { name: string; prefix: boolean }[] = [];
    const seen = new Set<string>();
    for (const name of [...objects.keys()].sort(byBytes)) {
      if (!name.startsWith(prefix)) continue;
      const cut = delimiter ? name.indexOf(delimiter, prefix.length) : -1;
      if (cut >= 0) {
        const p = name.slice(0, cut + delimiter!.length);
        if (!seen.has(p)) { seen.add(p); entries.push({ name: p, prefix: true }); }
      } else {
        entries.push({ name, prefix: false });
      }
    }
    const rest = entries.filter((e) => byBytes(e.name, after) > 0);
    const page = rest.slice(0, max);
    const items = page.filter((e) => !e.prefix).map((e) => resource(bucket, e.name, objects.get(e.name)!));
    const prefixes = page.filter((e) => e.prefix).map((e) => e.name);
    return {
      kind: 'storage#objects',
      ...(rest.length > max && { nextPageToken: Buffer.from(page[page.length - 1].name).toString('base64url') }),
      ...(prefixes.length > 0 && { prefixes }),
      ...(items.length > 0 && { items }),
    };
  }

  function media(req: IncomingMessage, res: ServerResponse, name: string, obj: FakeObject) {
    const head: Record<string, string | number> = { 'x-goog-generation': String(obj.generation), 'content-type': 'application/octet-stream', etag: `"g${obj.generation}"` };
    let body = obj.body;
    if (obj.contentEncoding === 'gzip') {
      if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
        head['content-encoding'] = 'gzip';
      } else {
        // Decompressive transcoding: GCS serves the text and ignores Range.
        body = gunzipSync(body);
        res.writeHead(200, { ...head, 'content-length': body.length }).end(body);
        return;
      }
    }
    const range = /^bytes=(\d+)-(\d*)$/.exec(String(req.headers.range ?? ''));
    let status = 200;
    if (range) {
      const start = Number(range[1]);
      const end = range[2] ? Math.min(Number(range[2]), body.length - 1) : body.length - 1;
      if (start >= body.length) return fail(res, 416, 'requestedRangeNotSatisfiable', 'The requested range cannot be satisfied.');
      head['content-range'] = `bytes ${start}-${end}/${body.length}`;
      body = body.subarray(start, end + 1);
      status = 206;
    }
    const cut = cuts.get(name);
    if (cut) {
      cuts.delete(name);
      res.writeHead(status, { ...head, 'content-length': body.length });
      res.write(body.subarray(0, cut.bytes), () => { cut.then?.(); setTimeout(() => res.destroy(), 20); });
      return;
    }
    res.writeHead(status, { ...head, 'content-length': body.length }).end(body);
  }

  const { server, origin } = await listenLocal((req, res) => { handler(req, res).catch((e) => { res.writeHead(500).end(String(e)); }); });
  return {
    origin,
    host: new URL(origin).host,
    buckets,
    requests,
    put(bucket, name, body, po = {}) {
      if (!buckets.has(bucket)) buckets.set(bucket, new Map());
      buckets.get(bucket)!.set(name, { body: Buffer.from(body), generation: ++generation, updated: new Date(), contentEncoding: po.contentEncoding });
    },
    cutNextRead(name, bytes, then) { cuts.set(name, { bytes, then }); },
    failNext(times, reply) { failing = { times, reply }; },
    ranges,
    federationConfig: (subjectTokenFile) => ({
      type: 'external_account',
      audience: '//iam.googleapis.com/projects/123456/locations/global/workloadIdentityPools/test-pool/providers/test-provider',
      subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
      token_url: `${origin}/v1/token`,
      credential_source: { file: subjectTokenFile },
    }),
    stop: () => closeServer(server),
  };
}

/** null when the request may go on; else the status and GCS's wording for it. */
function authCheck(req: IncomingMessage, anonymous: boolean, permission: string, bucket: string): { status: number; reason: string; message: string } | null {
  const auth = req.headers.authorization;
  if (!auth) {
    if (anonymous) return null;
    return { status: 401, reason: 'required', message: `Anonymous caller does not have ${permission} access to the Google Cloud Storage bucket. Permission '${permission}' denied on resource (or it may not exist).` };
  }
  const token = /^Bearer (.+)$/.exec(auth)?.[1];
  const who = Object.entries(TOKENS).find(([, t]) => t.token === token);
  if (!who || who[1].access === 'revoked') return { status: 401, reason: 'authError', message: 'Invalid Credentials' };
  if (who[1].access === 'none') {
    return { status: 403, reason: 'forbidden', message: `${who[0]}@example.iam.gserviceaccount.com does not have ${permission} access to the Google Cloud Storage bucket. Permission '${permission}' denied on resource (or it may not exist).` };
  }
  void bucket;
  return null;
}

/** RFC 8693 token exchange, as Google's STS answers it. */
async function sts(req: IncomingMessage, res: ServerResponse) {
  const form = new URLSearchParams(await readBody(req));
  const grant = TOKENS[form.get('subject_token') ?? ''];
  if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:token-exchange' || !grant) {
    res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid_grant', error_description: 'The subject token is invalid or expired.' }));
    return;
  }
  json(res, { access_token: grant.token, issued_token_type: 'urn:ietf:params:oauth:token-type:access_token', token_type: 'Bearer', expires_in: 3600 });
}

/** The GCE metadata server's token for the VM's service account (Metadata-Flavor: Google both ways). */
function metadata(req: IncomingMessage, res: ServerResponse, url: URL, subject: string | undefined) {
  const flavor = { 'metadata-flavor': 'Google' };
  if (req.headers['metadata-flavor'] !== 'Google') { res.writeHead(403, flavor).end('Missing Metadata-Flavor: Google header'); return; }
  if (url.pathname === '/computeMetadata/v1/instance' || url.pathname === '/computeMetadata/v1/instance/') { res.writeHead(200, flavor).end('attributes/\nservice-accounts/\n'); return; }
  if (url.pathname === '/computeMetadata/v1/instance/service-accounts/default/token' && subject) {
    res.writeHead(200, { ...flavor, 'content-type': 'application/json' }).end(JSON.stringify({ access_token: TOKENS[subject].token, expires_in: 3599, token_type: 'Bearer' }));
    return;
  }
  res.writeHead(404, flavor).end('Not Found');
}

function resource(bucket: string, name: string, obj: FakeObject) {
  return {
    kind: 'storage#object', id: `${bucket}/${name}/${obj.generation}`, name, bucket, generation: String(obj.generation), metageneration: '1',
    size: String(obj.body.length), updated: obj.updated.toISOString(), timeCreated: obj.updated.toISOString(), ...(obj.contentEncoding && { contentEncoding: obj.contentEncoding }),
  };
}

function fail(res: ServerResponse, status: number, reason: string, message: string) {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify({ error: { code: status, message, errors: [{ message, domain: 'global', reason }] } }));
}

function json(res: ServerResponse, doc: unknown) {
  const body = JSON.stringify(doc);
  res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8', 'content-length': Buffer.byteLength(body) }).end(body);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c)).on('end', () => resolve(Buffer.concat(parts).toString())).on('error', reject);
  });
}

const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
