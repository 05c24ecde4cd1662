// The candidate source's read of a file (windowLines): only the windows' lines are held, not every line
// before the last window's (issue 30: a window near the end of a big file held the whole file), and
// they are the lines a whole read gives.
import { describe, expect, it } from 'vitest';
import { openChunks } from '../../../src/workspace/build/file-chunks.js';
import { windowLines } from '../../../src/workspace/search/candidate-source.js';

const text = Array.from({ length: 1000 }, (_, i) => (i % 7 === 3 ? '' : `line ${i} ${'x'.repeat(i % 13)}${i % 11 === 0 ? '\r' : ''}`)).join('\n');
const bytes = new TextEncoder().encode(text);
/** The bytes in small parts, as a stream gives them. */
async function* parts(): AsyncGenerator<Uint8Array> { for (let at = 0; at < bytes.length; at += 1000) yield bytes.subarray(at, at + 1000); }

async function allLines(): Promise<string[]> {
  const out: string[] = [];
  const opened = await openChunks(parts(), 8);
  for await (const chunk of opened.chunks) out.push(...chunk.lines);
  return out;
}

describe('windowLines', () => {
  it('holds the windows\' lines only (a sparse array), each as a whole read gives it, read up to the last window', async () => {
    const all = await allLines();
    const windows = [[10, 20], [15, 30], [500, 507]];
    const got = await windowLines(parts(), 8, windows);
    const held = Object.keys(got.lines).map(Number);
    const expected = [...new Set(windows.flatMap(([from, to]) => Array.from({ length: to - from }, (_, k) => from + k)))].sort((a, b) => a - b);
    expect(held).toEqual(expected);
    for (const line of expected) expect(got.lines[line]).toBe(all[line]);
    expect(got.whole).toBe(false);
    expect(got.extent).toBeGreaterThanOrEqual(507);
    expect(got.extent).toBeLessThan(all.length);
  });

  it('a window past the end of the file: read whole, the lines there are', async () => {
    const all = await allLines();
    const got = await windowLines(parts(), 8, [[995, 1010]]);
    expect(got.whole).toBe(true);
    expect(got.extent).toBe(all.length);
    expect(Object.keys(got.lines).map(Number)).toEqual([995, 996, 997, 998, 999]);
    for (let line = 995; line < 1000; line++) expect(got.lines[line]).toBe(all[line]);
  });
});
