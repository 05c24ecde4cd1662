// The snapshot on disk, so a new process (the CLI) answers without rebuilding it: a JSON header
// (files, keys, names, section table) and the typed arrays, written atomically and tagged with the
// store version it was built from (a stale or damaged file is simply rebuilt). Vectors are kept as
// float16 here (half the bytes); candidates.ts widens its margin by their rounding.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { Postings } from './postings.js';
import type { Snapshot } from './snapshot.js';
import { toFloat16, fromFloat16 } from './float16.js';

const MAGIC = 'simgrep-snapshot-3';

type Numeric = Int32Array | Uint16Array | Uint8Array;

export function writeSnapshotFile(file: string, s: Snapshot): void {
  const sections: { name: string; array: Numeric }[] = [
    { name: 'chunkFile', array: s.chunkFile }, { name: 'start', array: s.start }, { name: 'end', array: s.end },
    { name: 'chars', array: s.chars }, { name: 'flags', array: s.flags }, { name: 'vectors', array: toFloat16(s.vectors) },
    { name: 'defStart', array: s.defStart },
    { name: 'lowerStart', array: s.byLower.start }, { name: 'lowerChunk', array: s.byLower.chunk }, { name: 'lowerCount', array: counts16(s.byLower.count) },
    { name: 'stemStart', array: s.byStem.start }, { name: 'stemChunk', array: s.byStem.chunk }, { name: 'stemCount', array: counts16(s.byStem.count) },
  ];
  let offset = 0;
  const table = sections.map(({ name, array }) => {
    const entry = { name, type: array.constructor.name, offset, length: array.length };
    offset += align8(array.byteLength);
    return entry;
  });
  const header = Buffer.from(JSON.stringify({
    magic: MAGIC, version: s.version, dim: s.dim, files: s.files, defNames: s.defNames,
    lowerKeys: s.byLower.keys, stemKeys: s.byStem.keys, table,
  }));
  const prefix = Buffer.alloc(8);
  prefix.writeUInt32LE(header.length, 0);
  const body = Buffer.alloc(offset);
  sections.forEach(({ array }, i) => Buffer.from(array.buffer, array.byteOffset, array.byteLength).copy(body, table[i].offset));
  const pad = Buffer.alloc(align8(8 + header.length) - 8 - header.length);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, Buffer.concat([prefix, header, pad, body]));
  renameSync(tmp, file);
}

/** The snapshot in `file` if it was built from store version `version`, else null. */
export function readSnapshotFile(file: string, version: string): Snapshot | null {
  let buf: Buffer;
  try { buf = readFileSync(file); } catch { return null; }
  try {
    const headerLength = buf.readUInt32LE(0);
    const h = JSON.parse(buf.subarray(8, 8 + headerLength).toString('utf8'));
    if (h.magic !== MAGIC || h.version !== version) return null;
    const base = align8(8 + headerLength);
    const ctors: Record<string, new (b: ArrayBuffer, o: number, n: number) => Numeric> = { Int32Array, Uint16Array, Uint8Array };
    // Copied into one aligned buffer: a Buffer from readFileSync may start at any offset.
    const body = new Uint8Array(buf.length - base);
    body.set(buf.subarray(base));
    const a: Record<string, Numeric> = {};
    for (const t of h.table as { name: string; type: string; offset: number; length: number }[]) a[t.name] = new ctors[t.type](body.buffer, t.offset, t.length);
    const i32 = (name: string) => a[name] as Int32Array;
    return {
      version: h.version, dim: h.dim, files: h.files, defNames: h.defNames,
      chunkFile: i32('chunkFile'), start: i32('start'), end: i32('end'), chars: i32('chars'), flags: a.flags as Uint8Array,
      vectors: fromFloat16(a.vectors as Uint16Array), defStart: i32('defStart'),
      byLower: new Postings(h.lowerKeys, i32('lowerStart'), i32('lowerChunk'), Int32Array.from(a.lowerCount as Uint16Array)),
      byStem: new Postings(h.stemKeys, i32('stemStart'), i32('stemChunk'), Int32Array.from(a.stemCount as Uint16Array)),
    };
  } catch {
    return null; // damaged: rebuilt from the store
  }
}

/**
 * Term counts in 16 bits, saturating: BM25's term frequency saturates long before 65,535 (a larger
 * count moves a chunk's score by far less than the candidate margin).
 */
function counts16(c: Int32Array): Uint16Array {
  const out = new Uint16Array(c.length);
  for (let i = 0; i < c.length; i++) out[i] = c[i] > 65535 ? 65535 : c[i];
  return out;
}

function align8(n: number): number {
  return (n + 7) & ~7;
}
