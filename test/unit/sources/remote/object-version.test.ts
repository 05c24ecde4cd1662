// When a resumed reply is another version of the object than the first reply (object-version.ts), one
// row per way a store can say so or fail to; and streamObject's bound on reading a changed object anew.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { openedBody, type OpenedResponse, type ResponseHead } from '../../../../src/sources/remote/http-client.js';
import { changeOf, ifMatchOf, versionOf } from '../../../../src/sources/remote/object-version.js';
import { streamObject } from '../../../../src/sources/remote/object-stream.js';

const head = (status: number, headers: Record<string, string>): ResponseHead => ({ status, statusText: '', headers: { get: (n) => headers[n] ?? null } });
const FIRST = head(200, { etag: '"a"', 'last-modified': 'Mon, 01 Jan 2024 00:00:00 GMT', 'content-length': '100' });
const NO_ETAG = head(200, { 'last-modified': 'Mon, 01 Jan 2024 00:00:00 GMT', 'content-length': '100' });
const BARE = head(200, { 'content-length': '100' });

const ROWS: { name: string; first: ResponseHead; resumed: ResponseHead; change: string | null }[] = [
  { name: 'the same ETag and total', first: FIRST, resumed: head(206, { etag: '"a"', 'content-range': 'bytes 40-99/100' }), change: null },
  { name: 'another ETag (a store that ignores If-Match)', first: FIRST, resumed: head(206, { etag: '"b"', 'content-range': 'bytes 40-99/100' }), change: 'its ETag was "a", now "b"' },
  { name: 'no ETag where the first had one', first: FIRST, resumed: head(206, { 'content-range': 'bytes 40-99/100' }), change: 'its ETag was "a", now none' },
  { name: 'a 412 to If-Match', first: FIRST, resumed: head(412, {}), change: 'it no longer has ETag "a" (HTTP 412 to If-Match)' },
  { name: 'the same ETag, another total size', first: FIRST, resumed: head(206, { etag: '"a"', 'content-range': 'bytes 40-119/120' }), change: 'its size was 100 bytes, now 120' },
  { name: 'no ETag: another Last-Modified', first: NO_ETAG, resumed: head(206, { 'last-modified': 'Tue, 02 Jan 2024 00:00:00 GMT', 'content-range': 'bytes 40-99/100' }), change: 'it was last modified Mon, 01 Jan 2024 00:00:00 GMT, now Tue, 02 Jan 2024 00:00:00 GMT' },
  { name: 'no ETag: the same Last-Modified', first: NO_ETAG, resumed: head(206, { 'last-modified': 'Mon, 01 Jan 2024 00:00:00 GMT', 'content-range': 'bytes 40-99/100' }), change: null },
  { name: 'no validator at all: the total decides', first: BARE, resumed: head(206, { 'content-range': 'bytes 40-89/90' }), change: 'its size was 100 bytes, now 90' },
  { name: 'no validator, the same total (nothing to tell them apart)', first: BARE, resumed: head(206, { 'content-range': 'bytes 40-99/100' }), change: null },
  { name: 'a 200 (Range ignored) of another version', first: FIRST, resumed: head(200, { etag: '"b"', 'content-length': '100' }), change: 'its ETag was "a", now "b"' },
  { name: 'a total the store does not know (*)', first: FIRST, resumed: head(206, { etag: '"a"', 'content-range': 'bytes 40-99/*' }), change: null },
];

describe('changeOf', () => {
  for (const row of ROWS) {
    it(row.name, () => {
      expect(changeOf(versionOf(row.first, 100), row.resumed)).toBe(row.change);
    });
  }
  it('sends If-Match only with a strong ETag (a weak one never matches)', () => {
    expect(ifMatchOf({ etag: '"a"' })).toBe('"a"');
    expect(ifMatchOf({ etag: 'W/"a"' })).toBeUndefined();
    expect(ifMatchOf({})).toBeUndefined();
  });
});

/** A reply of `body` (from byte `from`) tagged `etag`, whose body breaks with a reset after `cutAt` bytes when given. */
function reply(body: Buffer, etag: string, from: number, cutAt?: number): OpenedResponse {
  const rest = body.subarray(from);
  let sent = false;
  const stream = new Readable({
    read() {
      if (sent) return;
      sent = true;
      if (cutAt === undefined) { this.push(rest); this.push(null); return; }
      this.push(rest.subarray(0, cutAt));
      setImmediate(() => this.destroy(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })));
    },
  });
  const headers: Record<string, string> = { etag, 'content-length': String(rest.length) };
  if (from > 0) headers['content-range'] = `bytes ${from}-${body.length - 1}/${body.length}`;
  return openedBody(stream, head(from > 0 ? 206 : 200, headers), { endpoint: 'http://store', attempts: 1, timeoutMs: 5000 });
}

const collect = async (it: AsyncIterable<Uint8Array>) => { const parts: Buffer[] = []; for await (const c of it) parts.push(Buffer.from(c)); return Buffer.concat(parts).toString(); };

describe('streamObject on an object that changes during the read', () => {
  it('reads it anew once, and reports it when it changed again on that read', async () => {
    const versions = ['v1 '.repeat(1000), 'v2 '.repeat(1000), 'v3 '.repeat(1000)].map((s) => Buffer.from(s));
    let current = 0;
    const asked: string[] = [];
    const open = async (h: Record<string, string>) => {
      asked.push(h.range ?? 'whole');
      const body = versions[current];
      const from = Number(/bytes=(\d+)-/.exec(h.range ?? '')?.[1] ?? 0);
      // Every whole read is cut halfway, and the object is replaced before its resume.
      if (from === 0) return reply(body, `"${current}"`, 0, 1500);
      current++;
      return reply(versions[current], `"${current}"`, from);
    };
    await expect(collect(streamObject(open, { retries: 3, size: 3000 }))).rejects.toMatchObject({
      code: 'REMOTE_CHANGED',
      message: 'the object changed while it was being read (its ETag was "1", now "2", found when resuming at byte 1500); it changed again when read anew, so none of it was read: search again',
    });
    expect(asked).toEqual(['whole', 'bytes=1500-', 'whole', 'bytes=1500-']);
  });

  it('a store that ignores the Range and sends the new version whole: that reply is read, not asked for again', async () => {
    const v1 = Buffer.from('one\n'.repeat(500));
    const v2 = Buffer.from('two\n'.repeat(600));
    const asked: string[] = [];
    const open = async (h: Record<string, string>) => {
      asked.push(h.range ?? 'whole');
      return h.range ? reply(v2, '"2"', 0) : reply(v1, '"1"', 0, 1000);
    };
    expect(await collect(streamObject(open, { retries: 2, size: v1.length }))).toBe(v2.toString());
    expect(asked).toEqual(['whole', 'bytes=1000-']);
  });
});
