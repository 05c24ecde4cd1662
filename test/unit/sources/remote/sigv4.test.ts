// SigV4 against AWS's published S3 examples (s3rver does not check V4 signatures, so this is where
// their correctness is pinned).
import { describe, expect, it } from 'vitest';
import { buildQuery, encodeRfc3986, signV4 } from '../../../../src/sources/remote/sigv4.js';

const CREDS = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' };
const NOW = new Date('2013-05-24T00:00:00Z');
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const signature = (h: Record<string, string>) => /Signature=([0-9a-f]{64})$/.exec(h.authorization)![1];
const sign = (url: string, headers: Record<string, string> = {}) =>
  signV4({ method: 'GET', url: new URL(url), headers, region: 'us-east-1', payloadHash: EMPTY_SHA256, now: NOW }, CREDS);

describe('signV4', () => {
  it('GET Object with a Range header', () => {
    const h = sign('https://examplebucket.s3.amazonaws.com/test.txt', { Range: 'bytes=0-9' });
    expect(h.authorization).toBe('AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41');
    expect(h['x-amz-date']).toBe('20130524T000000Z');
  });

  it('GET Bucket lifecycle (a parameter without a value)', () => {
    expect(signature(sign('https://examplebucket.s3.amazonaws.com/?lifecycle'))).toBe('fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543');
  });

  it('List Objects, with the query in canonical order whatever order it was written in', () => {
    expect(signature(sign('https://examplebucket.s3.amazonaws.com/?max-keys=2&prefix=J'))).toBe('34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7');
    expect(signature(sign('https://examplebucket.s3.amazonaws.com/?prefix=J&max-keys=2'))).toBe('34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7');
  });

  it('signs and sends a session token, and never puts the secret in a header', () => {
    const h = signV4({ method: 'GET', url: new URL('https://b.s3.amazonaws.com/k'), region: 'eu-west-1' }, { ...CREDS, sessionToken: 'TOKEN' });
    expect(h['x-amz-security-token']).toBe('TOKEN');
    expect(h.authorization).toContain('x-amz-security-token');
    expect(JSON.stringify(h)).not.toContain(CREDS.secretAccessKey);
  });

  it('encodes keys and queries the way S3 canonicalizes them', () => {
    expect(encodeRfc3986("a b/c+d!'()*~._-", true)).toBe('a%20b/c%2Bd%21%27%28%29%2A~._-');
    expect(buildQuery({ prefix: 'logs/2026/', 'list-type': '2', 'continuation-token': undefined, delimiter: '/' })).toBe('delimiter=%2F&list-type=2&prefix=logs%2F2026%2F');
  });
});
