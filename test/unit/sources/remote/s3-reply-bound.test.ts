// The S3 driver's middleware between the transport and the SDK's parsers: the SDK's GetObject path (S3
// Express directory buckets, multi-region access points) had its error document gathered whole by the
// SDK, with no bound (a 403 whose body never ends grew memory until the process died); it is now read up
// to 64 KiB, as the signed GET's is. A 2xx GetObject body (the object's bytes) is left to be streamed.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { listingCheck } from '../../../../src/sources/remote/s3-driver.js';

/** A body of 64 KiB pieces that goes on up to 64 MiB; `pulled` counts what was read of it. */
function endlessBody() {
  const state = { pulled: 0 };
  const piece = Buffer.alloc(1 << 16, 'no ');
  const body = new Readable({
    read() {
      if (state.pulled >= 64 << 20) { this.push(null); return; }
      state.pulled += piece.length;
      this.push(piece);
    },
  });
  return { body, state };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the middleware's loose SDK types
const run = (commandName: string, statusCode: number, body: Readable): Promise<any> => listingCheck(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  (async () => ({ response: { statusCode, headers: {}, body }, output: {} })) as any,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  { commandName } as any,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
)({ input: {}, request: { protocol: 'http:', hostname: '127.0.0.1', port: 9 } } as any);

describe('the S3 reply bound (SDK path)', () => {
  it('stops a GetObject error document past 64 KiB', async () => {
    const { body, state } = endlessBody();
    await expect(run('GetObjectCommand', 403, body)).rejects.toThrow('http://127.0.0.1:9 sent a reply over 65536 bytes where a listing page or an error document was expected (none is that large), so the read was stopped: check that the endpoint is the storage service you meant');
    expect(state.pulled).toBeLessThan(1 << 20);
  });

  it('leaves a GetObject 2xx body (the object) unread, to be streamed', async () => {
    const { body, state } = endlessBody();
    const result = await run('GetObjectCommand', 200, body);
    expect(result.response.body).toBe(body);
    expect(state.pulled).toBeLessThan(1 << 20);
    body.destroy();
  });
});
