// gcsDriver's reads and listings when the store misbehaves, on the loopback fake of the Cloud Storage
// JSON API (no real GCS server runs here): a body cut mid-object resumes from the same generation and
// never splices two; gzip-stored objects; transient 5xx retried, then named; a listing that is not one.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gcsDriver } from '../../../src/index.js';
import { READER_AUTH, startFakeGcs, type FakeGcs } from '../../helpers/gcs-server.js';

let gcs: FakeGcs;
beforeAll(async () => { gcs = await startFakeGcs(); });
afterAll(async () => { await gcs?.stop(); });

const driver = (retries = 2) => gcsDriver({ bucket: 'b', endpoint: gcs.origin, auth: READER_AUTH, retries, timeoutMs: 5000 }).streaming;
const text = (n: number, seed: string) => Buffer.from(Array.from({ length: n }, (_, i) => `${seed} line ${i}\n`).join(''));

async function collect(it: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const c of it) parts.push(c);
  return Buffer.concat(parts);
}

describe('gcsDriver when the store misbehaves', () => {
  it('a read cut mid-object resumes at the byte it stopped, asking for the generation it started with', async () => {
    const body = text(120_000, 'first');
    gcs.put('b', 'big.log', body);
    const generation = gcs.buckets.get('b')!.get('big.log')!.generation;
    gcs.cutNextRead('big.log', 700_000);
    const from = gcs.ranges.length;
    expect((await collect(driver().streamObject('big.log', {}))).equals(body)).toBe(true);
    expect(gcs.ranges.slice(from)).toEqual(['', 'bytes=700000-']);
    expect(gcs.requests.at(-1)).toContain(`ifGenerationMatch=${generation}`);
  });

  it('regression: an object replaced while being read is never spliced: read whole again when none of it was handed on', async () => {
    gcs.put('b', 'swap.log', text(120_000, 'old'));
    // Same length, other bytes: only the generation tells the two apart.
    const after = text(120_000, 'new');
    gcs.cutNextRead('swap.log', 700_000, () => gcs.put('b', 'swap.log', after));
    const from = { ranges: gcs.ranges.length, requests: gcs.requests.length };
    expect((await collect(driver().streamObject('swap.log', {}))).equals(after)).toBe(true);
    // The resume (Range + ifGenerationMatch) was refused with 412 before any byte; then the new generation, whole.
    expect(gcs.requests.slice(from.requests).filter((r) => r.includes('ifGenerationMatch=')).length).toBe(1);
    expect(gcs.ranges.slice(from.ranges)).toEqual(['', '']);
  });

  it('regression: a streamed object replaced after its first bytes were handed on is reported as changed', async () => {
    gcs.put('b', 'huge.log', text(700_000, 'old'));
    gcs.cutNextRead('huge.log', 3_000_000, () => gcs.put('b', 'huge.log', text(700_000, 'new')));
    const generation = gcs.buckets.get('b')!.get('huge.log')!.generation;
    await expect(collect(driver().streamObject('huge.log', {}))).rejects.toMatchObject({
      code: 'REMOTE_CHANGED', message: `the object changed while it was being read (it no longer has ETag ${generation} (HTTP 412 to If-Match), found when resuming at byte 3000000); only its first 2097152 bytes were read: search again`,
    });
  });

  it('a gzip-stored object is read as stored and decoded (a transcoded body is longer than the listed size)', async () => {
    const plain = text(2_000, 'zipped');
    gcs.put('b', 'z/notes.txt', gzipSync(plain), { contentEncoding: 'gzip' });
    const s = driver();
    const listed = [];
    for await (const o of s.listObjects('z/', { recursive: true })) listed.push(o);
    expect(listed.map((o) => [o.key, o.size])).toEqual([['z/notes.txt', gzipSync(plain).length]]);
    expect((await collect(s.streamObject('z/notes.txt', { size: listed[0].size }))).equals(plain)).toBe(true);
  });

  it('retries transient 503s, then names the failure with the attempts it took', async () => {
    gcs.put('b', 'ok.txt', 'fine\n');
    gcs.failNext(2, { status: 503 });
    expect((await collect(driver(2).streamObject('ok.txt', {}))).toString()).toBe('fine\n');
    gcs.failNext(3, { status: 503 });
    await expect(collect(driver(1).streamObject('ok.txt', {}))).rejects.toMatchObject({
      code: 'REMOTE_UNAVAILABLE', message: 'the store failed with HTTP 503 backendError: Backend Error after 2 attempts; try again later',
    });
    gcs.failNext(0, { status: 503 });
  });

  it('a listing answered with something that is not a listing (a proxy\'s sign-in page) says what came back', async () => {
    gcs.failNext(1, { body: '<!DOCTYPE html><html><body>Sign in</body></html>', contentType: 'text/html' });
    const listing = async () => { for await (const o of driver().listObjects('', { recursive: true })) void o; };
    await expect(listing()).rejects.toMatchObject({
      code: 'REMOTE_ERROR', message: 'the listing request was answered with an HTML page (text/html), not a Cloud Storage listing; check that --gcs-endpoint (or STORAGE_EMULATOR_HOST) is the JSON API of the store',
    });
  });
});
