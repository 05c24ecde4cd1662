// How bytes become text: UTF-16 files with a BOM (skipped as binary before) are transcoded whatever
// the chunking, a NUL byte still means binary, and the byte cap holds on bytes received.
import { describe, expect, it } from 'vitest';
import { capBytes, openText } from '../../../src/text/text-stream.js';

async function* chunksOf(bytes: Buffer, size: number) {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}
async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const c of chunks) parts.push(c);
  return Buffer.concat(parts);
}

describe('openText', () => {
  const text = 'plain line\nwé retry ☃ 𝄞 upload\n';
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  const be = Buffer.from(le).swap16();

  it.each([1, 3, 5, 64])('transcodes UTF-16LE and UTF-16BE with a BOM to UTF-8 with %i-byte chunks', async (size) => {
    for (const bytes of [le, be]) {
      const opened = await openText(chunksOf(bytes, size));
      expect(opened.kind).toBe('text');
      if (opened.kind !== 'text') return;
      expect((await collect(opened.chunks)).toString('utf8')).toBe(text);
    }
  });

  it.each([1, 2, 64])('drops a UTF-8 BOM at the file\'s start only (decoding keeps a later one), with %i-byte chunks', async (size) => {
    const bytes = Buffer.from('\ufefffirst\n\ufeffsecond\n', 'utf8');
    const opened = await openText(chunksOf(bytes, size));
    expect(opened.kind).toBe('text');
    if (opened.kind !== 'text') return;
    expect((await collect(opened.chunks)).toString('utf8')).toBe('first\n\ufeffsecond\n');
  });

  it('says binary for a NUL byte without a BOM, and passes UTF-8 through untouched', async () => {
    expect((await openText(chunksOf(Buffer.from('a\0b'), 8))).kind).toBe('binary');
    const utf8 = Buffer.from(text);
    const opened = await openText(chunksOf(utf8, 4));
    expect(opened.kind === 'text' && opened.encoding).toBe('utf-8');
    if (opened.kind === 'text') expect(await collect(opened.chunks)).toEqual(utf8);
    expect((await openText(chunksOf(Buffer.alloc(0), 4))).kind).toBe('empty');
  });
});

describe('capBytes', () => {
  it('stops an endless stream at the cap and says so once', async () => {
    let cuts = 0;
    async function* endless() { for (;;) yield Buffer.alloc(1000, 0x61); }
    const got = await collect(capBytes(endless(), 2500, () => { cuts++; }));
    expect([got.length, cuts]).toEqual([2500, 1]);
  });

  it('leaves a stream within the cap alone', async () => {
    let cuts = 0;
    const got = await collect(capBytes(chunksOf(Buffer.alloc(2500), 1000), 2500, () => { cuts++; }));
    expect([got.length, cuts]).toEqual([2500, 0]);
  });
});
