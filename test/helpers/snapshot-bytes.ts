// Finds a chunk's bytes in a workspace's snapshot.bin (section-file.ts's layout), so a test can
// damage exactly one chunk's vector the way a bad disk block or a stray write would.
import { readFileSync } from 'node:fs';

const WIDTH: Record<string, number> = { Int32Array: 4, Uint16Array: 2, Uint8Array: 1, Float64Array: 8, Uint32Array: 4 };
const align8 = (n: number) => (n + 7) & ~7;

/** The byte range of the vector of `file`'s chunk that holds line `line` (0-based). */
export function chunkVectorBytes(snapshotFile: string, file: string, line: number): { from: number; to: number } {
  const buf = readFileSync(snapshotFile);
  const headerLength = buf.readUInt32LE(0);
  const header = JSON.parse(buf.subarray(8, 8 + headerLength).toString('utf8'));
  const base = align8(8 + headerLength);
  const table = new Map<string, { offset: number; length: number; type: string }>(header.table.map((t: { name: string }) => [t.name, t]));
  const i32 = (name: string) => {
    const t = table.get(name)!;
    const b = buf.subarray(base + t.offset, base + t.offset + t.length * WIDTH[t.type]);
    return new Int32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
  };
  const f = (header.fileKeys as string).split('\u0000').indexOf(file);
  if (f < 0) throw new Error(`${file} is not in ${snapshotFile}`);
  const first = i32('fileFirst')[f];
  const count = i32('fileCount')[f];
  const start = i32('start');
  const end = i32('end');
  for (let c = first; c < first + count; c++) {
    if (start[c] <= line && line < end[c]) {
      const at = base + table.get('vectors')!.offset + c * header.dim * 2;
      return { from: at, to: at + header.dim * 2 };
    }
  }
  throw new Error(`no chunk of ${file} holds line ${line}`);
}

/** The byte range of a whole section of a snapshot file. */
export function sectionBytes(snapshotFile: string, section: string): { from: number; to: number } {
  const buf = readFileSync(snapshotFile);
  const headerLength = buf.readUInt32LE(0);
  const header = JSON.parse(buf.subarray(8, 8 + headerLength).toString('utf8'));
  const t = header.table.find((x: { name: string }) => x.name === section);
  const from = align8(8 + headerLength) + t.offset;
  return { from, to: from + t.length * WIDTH[t.type] };
}
