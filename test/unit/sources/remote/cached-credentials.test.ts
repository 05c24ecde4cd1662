// The signed S3 GETs ask the credential provider once, not per object, and again only as the keys are
// about to expire (a role's or SSO's temporary keys); a provider that failed is asked again next time.
import { describe, expect, it, vi } from 'vitest';
import { cachedCredentials } from '../../../../src/sources/remote/s3-signed-get.js';

describe('cachedCredentials', () => {
  it('asks the provider once for keys without an expiration, sharing the request in flight', async () => {
    const provider = vi.fn(async () => ({ accessKeyId: 'A', secretAccessKey: 'S' }));
    const creds = cachedCredentials(provider);
    const got = await Promise.all([creds(), creds(), creds()]);
    await creds();
    expect(got.map((c) => c.accessKeyId)).toEqual(['A', 'A', 'A']);
    expect(provider).toHaveBeenCalledTimes(1);
  });

  it('asks again when temporary keys come within 5 minutes of their expiration', async () => {
    vi.useFakeTimers({ now: 0 });
    try {
      let n = 0;
      const provider = vi.fn(async () => ({ accessKeyId: `A${++n}`, secretAccessKey: 'S', expiration: new Date(Date.now() + 60 * 60_000) }));
      const creds = cachedCredentials(provider);
      expect((await creds()).accessKeyId).toBe('A1');
      vi.setSystemTime(54 * 60_000);
      expect((await creds()).accessKeyId).toBe('A1');
      vi.setSystemTime(56 * 60_000);
      expect((await creds()).accessKeyId).toBe('A2');
      expect(provider).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('uses keys with only minutes left for half of what is left, not one request per object', async () => {
    vi.useFakeTimers({ now: 0 });
    try {
      const provider = vi.fn(async () => ({ accessKeyId: 'A', secretAccessKey: 'S', expiration: new Date(Date.now() + 2 * 60_000) }));
      const creds = cachedCredentials(provider);
      await creds();
      vi.setSystemTime(59_000);
      await creds();
      expect(provider).toHaveBeenCalledTimes(1);
      vi.setSystemTime(61_000);
      await creds();
      expect(provider).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('asks again after a failure instead of keeping it', async () => {
    const provider = vi.fn().mockRejectedValueOnce(new Error('sso session expired')).mockResolvedValue({ accessKeyId: 'A', secretAccessKey: 'S' });
    const creds = cachedCredentials(provider);
    await expect(creds()).rejects.toThrow('sso session expired');
    expect((await creds()).accessKeyId).toBe('A');
  });
});
