// Property tests (fast-check) for URI parsing of outside input: bucket/container and key come back
// exactly, any string either parses or fails as a SimgrepError, and redaction hides every secret value.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSimgrepError } from '../../../src/errors.js';
import { isRemoteUri, parseRemoteUri, redactUri } from '../../../src/sources/uri.js';

const name = fc.stringMatching(/^[a-z0-9][a-z0-9.-]{0,20}$/);
const key = fc.string({ maxLength: 40 });
const SECRET = ['sig', 'Signature', 'X-Amz-Signature', 'X-Amz-Credential', 'X-Amz-Security-Token', 'token', 'access_token', 'api_key', 'key', 'secret', 'password', 'code'];
const secretValue = fc.stringMatching(/^[A-Za-z0-9%+/]{12,30}$/).map((v) => `S3CR3T${v}`);
/** A password as it stands in a URI: '/', '@', '?' and '#' would end it, so they come percent-encoded. */
const password = fc.stringMatching(/^[A-Za-z0-9%+._~!$&'()*,;=-]{8,30}$/).map((v) => `S3CR3T${v}`);
const plainParam = fc.tuple(fc.constantFrom('prefix', 'sv', 'page', 'x'), fc.stringMatching(/^[a-z0-9]{0,8}$/));

describe('URI parsing (property)', () => {
  it('s3://, gs:// and az:// give back the bucket or container and the key exactly', () => {
    fc.assert(fc.property(fc.constantFrom('s3', 'az', 'gs', 'S3', 'Az', 'GS'), name, fc.boolean(), key, (scheme, bucket, slash, k) => {
      const uri = `${scheme}://${bucket}${slash || k ? `/${k}` : ''}`;
      expect(isRemoteUri(uri)).toBe(true);
      const parsed = parseRemoteUri(uri);
      const lower = scheme.toLowerCase();
      expect(parsed).toEqual(lower === 'az' ? { scheme: 'az', uri, container: bucket, key: k } : { scheme: lower, uri, bucket, key: k });
    }), { numRuns: 300 });
  });

  it('any string is a local path, a parsed URI or a SimgrepError, never another throw', () => {
    const scheme = fc.constantFrom('s3://', 'az://', 'gs://', 'http://', 'https://', 'ftp://', 'S3://', 'file://', 'c:\\', '');
    fc.assert(fc.property(scheme, fc.string({ maxLength: 30, unit: 'binary' }), (prefix, rest) => {
      const input = prefix + rest;
      if (!isRemoteUri(input)) return;
      try {
        const parsed = parseRemoteUri(input);
        expect(parsed.uri).toBe(input);
        if (parsed.scheme === 'http') expect(parsed.url.href).toBe(new URL(input).href);
      } catch (e) {
        expect(isSimgrepError(e) && ['BAD_FLAG', 'UNSUPPORTED_SCHEME'].includes(e.code)).toBe(true);
      }
    }), { numRuns: 400 });
  });

  it('redaction hides every secret value and password, keeps the rest, and is idempotent', () => {
    const param = fc.oneof(fc.tuple(fc.constantFrom(...SECRET), secretValue), plainParam);
    fc.assert(fc.property(fc.constantFrom('https://', 's3://', 'az://'), fc.option(password, { nil: undefined }), name, key.filter((k) => !/[?#]/.test(k)), fc.array(param, { maxLength: 5 }), (scheme, pass, host, k, params) => {
      const query = params.map(([n, v]) => `${n}=${v}`).join('&');
      const uri = `${scheme}${pass ? `user:${pass}@` : ''}${host}/${k}${query ? `?${query}` : ''}`;
      const shown = redactUri(uri);
      expect(shown).not.toMatch(/S3CR3T/);
      for (const [n, v] of params) if (!SECRET.includes(n)) expect(shown).toContain(`${n}=${v}`);
      expect(redactUri(shown)).toBe(shown);
    }), { numRuns: 300 });
  });
});
