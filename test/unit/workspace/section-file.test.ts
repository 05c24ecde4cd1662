// The CRC the snapshot files carry: on a Node without zlib.crc32 (before 20.15 / 22.2) the JavaScript
// one must give the same values, or a file written by one Node would read as damaged on another.
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32Js } from '../../../src/workspace/snapshot/section-file.js';

describe('section file checksums', () => {
  it('crc32Js equals zlib.crc32 (the standard CRC-32: "123456789" -> cbf43926)', () => {
    expect(crc32Js(Buffer.from('123456789')).toString(16)).toBe('cbf43926');
    for (const n of [0, 1, 7, 255, 16384, 70001]) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 2654435761) >>> 24);
      expect(crc32Js(bytes)).toBe(crc32(bytes));
      // Continued from a running value, as a section is checked a piece at a time.
      expect(crc32Js(bytes.subarray(n >> 1), crc32Js(bytes.subarray(0, n >> 1)))).toBe(crc32(bytes));
    }
  });
});
