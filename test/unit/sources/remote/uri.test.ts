// Telling URIs from paths, parsing them, and redacting what must never be printed.
import { describe, expect, it } from 'vitest';
import { isRemoteUri, parseRemoteUri, redactUri } from '../../../../src/sources/uri.js';
import { isCompleteListing, s3ErrorFor, s3ListingNotXml } from '../../../../src/sources/remote/s3-errors.js';

describe('remote URIs', () => {
  it('tells URIs from local paths (a Windows drive is a path)', () => {
    expect(['s3://b/k', 'https://h/x', 'az://c/', 'gs://b/', 'ftp://h/f'].map(isRemoteUri)).toEqual([true, true, true, true, true]);
    expect(['src', './s3:/x', 'C:\\code', 'C:/code', 'a:b'].map(isRemoteUri)).toEqual([false, false, false, false, false]);
  });

  it('parses buckets, containers and keys', () => {
    expect(parseRemoteUri('s3://bucket/logs/2026/')).toMatchObject({ scheme: 's3', bucket: 'bucket', key: 'logs/2026/' });
    expect(parseRemoteUri('s3://bucket')).toMatchObject({ bucket: 'bucket', key: '' });
    expect(parseRemoteUri('az://container/a:b.txt')).toMatchObject({ scheme: 'az', container: 'container', key: 'a:b.txt' });
    expect(() => parseRemoteUri('s3:///key')).toThrow(/no bucket name/);
    expect(parseRemoteUri('gs://bucket/logs/a b.txt')).toMatchObject({ scheme: 'gs', bucket: 'bucket', key: 'logs/a b.txt' });
    expect(() => parseRemoteUri('gs:///key')).toThrow(/no bucket name; write gs:\/\/bucket\/prefix\//);
    expect(() => parseRemoteUri('wasb://b/k')).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_SCHEME' }));
  });

  it('redacts passwords and secret-looking query values, and nothing else', () => {
    expect(redactUri('https://user:pw@host/f.md?X-Amz-Signature=abc&X-Amz-Credential=AKIA%2F1&v=2#top')).toBe('https://user:***@host/f.md?X-Amz-Signature=***&X-Amz-Credential=***&v=2#top');
    expect(redactUri('https://acct.blob.core.windows.net/c/b?sv=2021&sig=xyz')).toBe('https://acct.blob.core.windows.net/c/b?sv=2021&sig=***');
    expect(redactUri('s3://bucket/a=b?c')).toBe('s3://bucket/a=b?c');
  });
});

describe('S3 error documents', () => {
  const ctx = { bucket: 'b', endpoint: 'https://s3.us-east-1.amazonaws.com', region: 'us-east-1', credentialSource: 'profile "dev" in ~/.aws/credentials', credentialHint: 'check the profile' };

  it('turns access denied, a wrong region and a 5xx into messages that say what to do', () => {
    expect(s3ErrorFor(403, 'AccessDenied', 'Access Denied', null, ctx)).toMatchObject({ code: 'REMOTE_ACCESS_DENIED', message: 'access denied (AccessDenied), credentials from profile "dev" in ~/.aws/credentials; the key needs s3:ListBucket on bucket "b" and s3:GetObject on its objects' });
    expect(s3ErrorFor(301, 'PermanentRedirect', undefined, 'eu-central-1', ctx).message).toBe('bucket "b" is not in region us-east-1 (PermanentRedirect); set AWS_REGION=eu-central-1');
    expect(s3ErrorFor(403, undefined, undefined, null, ctx).code).toBe('REMOTE_ACCESS_DENIED');
    expect(s3ErrorFor(503, 'SlowDown', 'Please reduce your request rate.', null, { ...ctx, attempts: 4 }).message).toBe('the store failed with HTTP 503 SlowDown after 4 attempts: Please reduce your request rate.; try again later');
  });

  it('says what a listing reply that is not a listing was', () => {
    expect(isCompleteListing('<?xml version="1.0"?><ListBucketResult><Name>b</Name></ListBucketResult>\n')).toBe(true);
    expect(isCompleteListing('<ListBucketResult><Name>b</Name><Contents><Key>a.l')).toBe(false);
    expect(s3ListingNotXml('text/html', '<!DOCTYPE html><html></html>').message).toMatch(/^the listing request was answered with an HTML page \(text\/html\), not an S3 listing/);
    expect(s3ListingNotXml(undefined, '').message).toMatch(/^the listing request was answered with an empty body \(no content type\)/);
  });
});
