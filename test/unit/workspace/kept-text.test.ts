// The candidate source's read of a file (kept-text.ts readText): the lines a search reads (build/file-chunks.ts),
// as bytes and offsets whose decoded lines are the whole read's, every line ending with \n; read in part up to a
// line, or whole. And the kept text's bound: whole files only, least recently used dropped first.
import { describe, expect, it } from 'vitest';
import { openChunks } from '../../../src/workspace/build/file-chunks.js';
import { KeptText, KEPT_TEXT_FILE_BYTES, readText, type FileText } from '../../../src/workspace/search/kept-text.js';
import { decodeLines } from '../../../src/text/decode.js';

const text = Array.from({ length: 1000 }, (_, i) => (i % 7 === 3 ? '' : `line ${i} ${'x'.repeat(i % 13)}${i % 11 === 0 ? '\r' : ''}${i % 97 === 5 ? '\u00e9\ud83d\ude00' : ''}`)).join('\n');
const encoder = new TextEncoder();
/** The bytes in small parts, as a stream gives them. */
async function* parts(bytes: Uint8Array): AsyncGenerator<Uint8Array> { for (let at = 0; at < bytes.length; at += 1000) yield bytes.subarray(at, at + 1000); }

async function allLines(bytes: Uint8Array): Promise<string[]> {
  const out: string[] = [];
  const opened = await openChunks(parts(bytes), 8);
  for await (const chunk of opened.chunks) out.push(...chunk.lines);
  return out;
}

const linesOf = (t: FileText) => decodeLines(t.bytes, t.offsets, 0, t.offsets.length - 1);

describe('readText', () => {
  it('gives the lines a whole read gives, each ending with \\n (a last line without one gets it)', async () => {
    for (const body of [text, `${text}\n`, `\ufeff${text}`, `${'y'.repeat(40_000)}\n${text}`, `bad \xff\xfe bytes\n${text}`]) {
      const bytes = body.startsWith('bad') ? Uint8Array.from([...encoder.encode('bad '), 0xff, 0xc3, ...encoder.encode(` bytes\n${text}`)]) : encoder.encode(body);
      const got = await readText(parts(bytes), 8);
      expect(got.whole).toBe(true);
      expect(linesOf(got)).toEqual(await allLines(bytes));
      for (let i = 1; i < got.offsets.length; i++) expect(got.bytes[got.offsets[i] - 1]).toBe(10);
      expect(got.offsets[got.offsets.length - 1]).toBe(got.bytes.length);
    }
  });

  it('read in part: up to the chunk that holds the line asked for, not whole', async () => {
    const bytes = encoder.encode(text);
    const got = await readText(parts(bytes), 8, 507);
    expect(got.whole).toBe(false);
    const lines = got.offsets.length - 1;
    expect(lines).toBeGreaterThanOrEqual(507);
    expect(lines).toBeLessThan(1000);
    expect(linesOf(got)).toEqual((await allLines(bytes)).slice(0, lines));
  });

  it('a binary file has no lines', async () => {
    const got = await readText(parts(Uint8Array.from([1, 0, 2, 10, 3])), 8);
    expect(got.offsets.length - 1).toBe(0);
  });
});

describe('KeptText', () => {
  const file = (n: number, whole = true): FileText => ({ bytes: new Uint8Array(n), offsets: new Uint32Array(2), whole });
  it('keeps whole files up to the per-file bound, by state, the least recently used dropped past the bound', async () => {
    const kept = new KeptText(1000);
    kept.set('a', file(300));
    kept.set('b', file(300));
    kept.set('part', file(10, false)); // read in part: not kept
    expect(kept.has('part')).toBe(false);
    expect(await kept.get('a', 8)).not.toBeNull(); // a is now the most recently used
    kept.set('c', file(300)); // 3 x (300 + 8 + 64) > 1000: b goes
    expect(kept.has('b')).toBe(false);
    expect(kept.has('a') && kept.has('c')).toBe(true);
    expect(await kept.get('other state', 8)).toBeNull();
    expect(kept.held()).toEqual({ files: 2, bytes: 2 * 372 });
    const big = new KeptText(KEPT_TEXT_FILE_BYTES * 4);
    big.set('big', file(KEPT_TEXT_FILE_BYTES + 1));
    expect(big.has('big')).toBe(false);
  });

  it('bytes kept as read are cut into lines when first asked for, as a read of them cuts them', async () => {
    const kept = new KeptText();
    const bytes = encoder.encode(`\ufeff${text}`);
    const view = new Uint8Array(bytes.buffer, 0, bytes.length); // a view: kept in a buffer of its own
    kept.setBytes('s', view);
    expect(kept.held().bytes).toBe(bytes.length + 64);
    const got = await kept.get('s', 8);
    expect(linesOf(got!)).toEqual(await allLines(bytes));
    expect(kept.held().bytes).toBe(got!.bytes.length + got!.offsets.byteLength + 64);
    expect(await kept.get('s', 8)).toBe(got); // cut once
  });
});
