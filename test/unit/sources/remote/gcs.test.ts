// The pure parts of gs://: where requests go for each way of naming an endpoint, what each Cloud
// Storage error reply becomes, and listing replies (any text parses or gives one clear error).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SimgrepError } from '../../../../src/errors.js';
import { jsonApiBase, resolveGcsSettings } from '../../../../src/sources/remote/gcs-auth.js';
import { gcsErrorFor, parseListing, type GcsErrorContext } from '../../../../src/sources/remote/gcs-errors.js';

describe('Cloud Storage endpoints', () => {
  it('takes host:port (as STORAGE_EMULATOR_HOST is often written), an origin, or the JSON API base itself', () => {
    expect(['localhost:4443', 'http://127.0.0.1:4443/', 'https://storage.googleapis.com', 'https://psc.example/storage/v1/', 'http://h/custom/base'].map((e) => jsonApiBase(e, 'x')))
      .toEqual(['http://localhost:4443/storage/v1', 'http://127.0.0.1:4443/storage/v1', 'https://storage.googleapis.com/storage/v1', 'https://psc.example/storage/v1', 'http://h/custom/base']);
    expect(() => jsonApiBase('ftp://h', '--gcs-endpoint')).toThrow(expect.objectContaining({ code: 'BAD_FLAG', message: '--gcs-endpoint must be an http(s) URL (got "ftp://h")' }));
    expect(() => jsonApiBase('http://[::1', '--gcs-endpoint')).toThrow(/--gcs-endpoint must be a URL such as/);
  });

  it('an emulator named by STORAGE_EMULATOR_HOST is read unsigned', async () => {
    expect(await resolveGcsSettings({ STORAGE_EMULATOR_HOST: 'localhost:4443' }, { timeoutMs: 1000 })).toMatchObject({ endpoint: 'http://localhost:4443/storage/v1', auth: null });
  });
});

describe('Cloud Storage error replies', () => {
  const ctx: GcsErrorContext = {
    bucket: 'b', endpoint: 'https://storage.googleapis.com/storage/v1', credentialSource: 'the user sign-in in application_default_credentials.json',
    credentialHint: 'sign in again: gcloud auth application-default login', anonymous: false, attempts: 4, op: 'list',
  };
  const doc = (code: number, reason: string, message: string) => JSON.stringify({ error: { code, message, errors: [{ reason, message }] } });

  it('says what failed and how to fix it, by status and operation', () => {
    const rows: [number, string, GcsErrorContext['op'], string, string][] = [
      [401, doc(401, 'authError', 'Invalid Credentials'), 'list', 'REMOTE_CREDENTIALS', 'the credentials were refused (HTTP 401 authError: Invalid Credentials), credentials from the user sign-in in application_default_credentials.json; sign in again: gcloud auth application-default login'],
      [403, doc(403, 'forbidden', 'x does not have storage.objects.get access'), 'read', 'REMOTE_ACCESS_DENIED', 'access denied (HTTP 403 forbidden: x does not have storage.objects.get access), credentials from the user sign-in in application_default_credentials.json; it needs storage.objects.list and storage.objects.get (the role Storage Object Viewer, roles/storage.objectViewer) on bucket "b"'],
      [404, doc(404, 'notFound', 'The specified bucket does not exist.'), 'stat', 'PATH_NOT_FOUND', 'bucket "b" does not exist at https://storage.googleapis.com/storage/v1 (HTTP 404 notFound: The specified bucket does not exist.); check the bucket name and the endpoint (--gcs-endpoint, STORAGE_EMULATOR_HOST)'],
      [404, doc(404, 'notFound', 'No such object: b/k'), 'read', 'PATH_NOT_FOUND', 'no such object (HTTP 404 notFound: No such object: b/k); check the name'],
      [404, '', 'list', 'PATH_NOT_FOUND', 'bucket "b" does not exist at https://storage.googleapis.com/storage/v1 (HTTP 404); check the bucket name and the endpoint (--gcs-endpoint, STORAGE_EMULATOR_HOST)'],
      [429, doc(429, 'rateLimitExceeded', 'slow down'), 'list', 'REMOTE_UNAVAILABLE', 'the store failed with HTTP 429 rateLimitExceeded: slow down after 4 attempts; try again later'],
      [400, doc(400, 'required', 'Bucket is a requester pays bucket but no user project provided.'), 'list', 'REMOTE_ERROR', 'the store answered HTTP 400 required: Bucket is a requester pays bucket but no user project provided.'],
      [502, '<html>Bad Gateway</html>', 'read', 'REMOTE_UNAVAILABLE', 'the store failed with HTTP 502 after 4 attempts; try again later'],
    ];
    for (const [status, body, op, code, message] of rows) expect(gcsErrorFor(status, body, { ...ctx, op })).toMatchObject({ code, message });
  });

  it('a 401 to unsigned requests says that none were sent, and how to send them', () => {
    expect(gcsErrorFor(401, doc(401, 'required', 'Anonymous caller'), { ...ctx, anonymous: true, credentialHint: 'unset STORAGE_EMULATOR_HOST' }).message)
      .toBe('the endpoint asks for credentials (HTTP 401 required: Anonymous caller), and none were sent: unset STORAGE_EMULATOR_HOST');
  });
});

describe('Cloud Storage listing replies', () => {
  it('reads items and the page token, and names what came back instead of a listing', () => {
    expect(parseListing('{"items":[{"name":"a","size":"3","updated":"2026-01-01T00:00:00Z"}],"nextPageToken":"t"}', 'application/json')).toEqual({ items: [{ name: 'a', size: '3', updated: '2026-01-01T00:00:00Z' }], nextPageToken: 't', prefixes: [] });
    expect(parseListing('{"prefixes":["a/","b/",7],"nextPageToken":"t"}', 'application/json')).toEqual({ items: [], nextPageToken: 't', prefixes: ['a/', 'b/'] });
    expect(parseListing('{"kind":"storage#objects"}', 'application/json')).toEqual({ items: [], nextPageToken: undefined, prefixes: [] });
    expect(() => parseListing('{"items":[{"name":"a"', 'application/json')).toThrow(/answered with JSON cut short \(21 characters\) \(application\/json\), not a Cloud Storage listing/);
    expect(() => parseListing('', null)).toThrow(/answered with an empty body \(no content type\)/);
    expect(() => parseListing('{"items":"x"}', 'application/json')).toThrow(/answered with "\{"items":"x"\}"/);
  });

  it('any text is a listing or one REMOTE_ERROR, never another throw (property)', () => {
    const item = fc.record({ name: fc.string(), size: fc.option(fc.string(), { nil: undefined }) });
    const text = fc.oneof(fc.string({ unit: 'binary' }), fc.json(), fc.record({ items: fc.array(item), nextPageToken: fc.option(fc.string(), { nil: undefined }) }).map((r) => JSON.stringify(r)));
    fc.assert(fc.property(text, fc.option(fc.string(), { nil: null }), (body, type) => {
      try {
        const page = parseListing(body, type);
        expect(Array.isArray(page.items) && page.items.every((i) => typeof i.name === 'string')).toBe(true);
      } catch (e) {
        expect(e).toBeInstanceOf(SimgrepError);
        expect((e as SimgrepError).code).toBe('REMOTE_ERROR');
      }
    }), { numRuns: 500 });
  });
});
