// The kept text of a file an index build read (kept-text.ts setBytes) is cut into lines as it is kept, where a
// cut at each newline is all a search's read would do (cutLines): the very bytes and offsets readText gives, so
// a first-time question's candidate files cost it no cut (branch newq44). Where readText does more (a BOM,
// UTF-16, binary bytes, a line past 16 KiB, nothing), cutLines declines and the bytes are cut when first asked for.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutLines, KeptText, readText, type FileText } from '../../../src/workspace/search/kept-text.js';
import { MAX_LINE_BYTES } from '../../../src/text/long-lines.js';

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> { yield bytes; }
const encoder = new TextEncoder();
const plain = (t: FileText) => ({ bytes: [...t.bytes], offsets: [...t.offsets], whole: t.whole });

const text = Array.from({ length: 300 }, (_, i) => (i % 7 === 3 ? '' : `line ${i} ${'x'.repeat(i % 13)}${i % 11 === 0 ? '\r' : ''}${i % 97 === 5 ? '\u00e9\ud83d\ude00' : ''}`)).join('\n');

/** Bytes that stress the cut: newlines, CRs, NULs, BOMs, multi-byte and broken UTF-8, long runs. */
const PIECES = [[10], [13], [13, 10], [0], [0xef, 0xbb, 0xbf], [0xff, 0xfe], [0xfe, 0xff], [0xc3, 0xa9], [0xf0, 0x9f, 0x98, 0x80], [0xc3], [0xff], [0x61], [0x20]];
const fileBytes = fc.array(fc.oneof(
  { arbitrary: fc.constantFrom(...PIECES), weight: 6 },
  { arbitrary: fc.uint8Array({ maxLength: 6 }).map((a) => [...a]), weight: 1 },
  { arbitrary: fc.integer({ min: MAX_LINE_BYTES - 2, max: MAX_LINE_BYTES + 2 }).map((n) => Array<number>(n).fill(0x62)), weight: 1 },
), { maxLength: 40 }).map((parts) => Uint8Array.from(parts.flat()));

describe('cutLines', () => {
  it('gives readText\'s bytes and offsets where it cuts, and declines where readText does more', async () => {
    const cases: [string, Uint8Array, boolean][] = [
      ['lines with a last newline', encoder.encode(`${text}\n`), true],
      ['no last newline', encoder.encode(text), true],
      ['one line', encoder.encode('x'), true],
      ['newlines only', encoder.encode('\n\n\n'), true],
      ['CRLF', encoder.encode('a\r\nb\r\n'), true],
      ['bad UTF-8', Uint8Array.from([0x61, 0xff, 0xc3, 10, 0x62]), true],
      ['a line of exactly 16 KiB', encoder.encode(`${'y'.repeat(MAX_LINE_BYTES)}\n${text}`), true],
      ['a line past 16 KiB', encoder.encode(`${text}\n${'y'.repeat(MAX_LINE_BYTES + 1)}`), false],
      ['a UTF-8 BOM', encoder.encode(`\ufeff${text}`), false],
      ['UTF-16LE', Uint8Array.from([0xff, 0xfe, ...Buffer.from(text, 'utf16le')]), false],
      ['UTF-16BE', Uint8Array.from([0xfe, 0xff, 0, 0x61, 0, 10]), false],
      ['binary', Uint8Array.from([1, 0, 2, 10, 3]), false],
      ['a NUL past 8 KiB', encoder.encode(`${'z\n'.repeat(5000)}\0\n`), true],
      ['more lines than the scratch keeps', encoder.encode('a\n'.repeat(200_000)), true],
      ['a few lines after many', encoder.encode('b\nc'), true],
      ['empty', new Uint8Array(0), false],
    ];
    for (const [name, bytes, cuts] of cases) {
      const got = cutLines(bytes);
      expect(got !== null, name).toBe(cuts);
      if (got) expect(plain(got), name).toEqual(plain(await readText(once(bytes), 48)));
    }
  });

  it('is readText\'s cut or null for any bytes (property)', async () => {
    await fc.assert(fc.asyncProperty(fileBytes, async (bytes) => {
      const got = cutLines(bytes);
      if (got) expect(plain(got)).toEqual(plain(await readText(once(bytes), 48)));
      if (got) expect(got.bytes.buffer).not.toBe(bytes.buffer); // a copy of its own
    }), { numRuns: 400 });
  });
});

describe('KeptText.setBytes', () => {
  it('keeps the bytes cut where cutLines cuts them (what a search then gets at once), else as bytes cut when asked for', async () => {
    const kept = new KeptText();
    const bytes = encoder.encode(`${text}\n`);
    const view = new Uint8Array(bytes.buffer, 0, bytes.length);
    kept.setBytes('s', view);
    expect(kept.cut('s')).toBe(true);
    const got = (await kept.get('s', 48))!;
    expect(plain(got)).toEqual(plain(await readText(once(bytes), 48)));
    expect(kept.held().bytes).toBe(got.bytes.length + got.offsets.byteLength + 64);
    bytes.fill(0x41); // the caller's buffer: not what is kept
    expect(plain((await kept.get('s', 48))!)).toEqual(plain(got));
    const bom = encoder.encode(`\ufeff${text}`);
    kept.setBytes('bom', bom);
    expect(kept.cut('bom')).toBe(false);
    expect(plain((await kept.get('bom', 48))!)).toEqual(plain(await readText(once(bom), 48)));
    expect(kept.cut('bom')).toBe(true); // cut once asked for
  });
});
