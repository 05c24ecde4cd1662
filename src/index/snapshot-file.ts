// The snapshot on disk, so a new process (the CLI) answers without rebuilding it: a JSON header
// (files, keys, names, section table) and the typed arrays, written atomically and tagged with the
// store version it was built from (a stale or damaged file is simply rebuilt). Vectors are kept as
// float16 here (half the bytes); candidates.ts widens its margin by their rounding.
import { closeSync, fstatSync, openSync, readSync, renameSync, writeSync } from 'node:fs';
import { Postings } from './postings.js';
import type { Snapshot } from './snapshot.js';
import { toFloat16, fromFloat16 } from './float16.js';

const MAGIC = 'simgrep-snapshot-5';

type Numeric = Int32Array | Uint16Array | Uint8Array | Float64Array;
const SEP = '\u0000';

export function writeSnapshotFile(file: string, s: Snapshot): void {
  const f = s.files;
  const sections: { name: string; array: Numeric }[] = [
    { name: 'fileSize', array: Float64Array.from(f, (x) => x.size) }, { name: 'fileMtime', array: Float64Array.from(f, (x) => x.mtime) },
    { name: 'fileKind', array: Uint8Array.from(f, (x) => (x.kind === 'binary' ? 1 : 0)) }, { name: 'fileLines', array: Int32Array.from(f, (x) => x.lines) },
    { name: 'fileFirst', array: Int32Array.from(f, (x) => x.firstChunk) }, { name: 'fileCount', array: Int32Array.from(f, (x) => x.chunkCount) },
    { name: 'chunkFile', array: s.chunkFile }, { name: 'start', array: s.start }, { name: 'end', array: s.end },
    { name: 'chars', array: s.chars }, { name: 'flags', array: s.flags }, { name: 'vectors', array: toFloat16(s.vectors) },
    { name: 'defStart', array: s.defStart },
    { name: 'lowerStart', array: s.byLower.start }, { name: 'lowerChunk', array: s.byLower.chunk }, { name: 'lowerCount', array: counts16(s.byLower.count) },
    { name: 'stemStart', array: s.byStem.start }, { name: 'stemChunk', array: s.byStem.chunk }, { name: 'stemCount', array: counts16(s.byStem.count) },
    { name: 'defPlain', array: s.defPlain },
    { name: 'defLowerStart', array: s.byDefLower.start }, { name: 'defLowerChunk', array: s.byDefLower.chunk }, { name: 'defLowerPlace', array: toInt32(s.byDefLower.count) },
    { name: 'defStemStart', array: s.byDefStem.start }, { name: 'defStemChunk', array: s.byDefStem.chunk }, { name: 'defStemPlace', array: toInt32(s.byDefStem.count) },
  ];
  let offset = 0;
  const table = sections.map(({ name, array }) => {
    const entry = { name, type: array.constructor.name, offset, length: array.length };
    offset += align8(array.byteLength);
    return entry;
  });
  // Long string lists are one NUL-joined string each: splitting it is several times faster than
  // parsing a JSON array of strings.
  const header = Buffer.from(JSON.stringify({
    magic: MAGIC, version: s.version, dim: s.dim, table,
    fileKeys: f.map((x) => x.key).join(SEP), fileHashes: f.map((x) => x.hash).join(SEP),
    defNames: s.defNames.join(SEP), lowerKeys: s.byLower.keys.join(SEP), stemKeys: s.byStem.keys.join(SEP),
    defLowerKeys: s.byDefLower.keys.join(SEP), defStemKeys: s.byDefStem.keys.join(SEP),
  }));
  const prefix = Buffer.alloc(8);
  prefix.writeUInt32LE(header.length, 0);
  const tmp = `${file}.${process.pid}.tmp`;
  // Section by section, straight from the arrays: no copy of the whole body in memory.
  const fd = openSync(tmp, 'w');
  try {
    const put = (bytes: Uint8Array) => { for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at); };
    put(prefix);
    put(header);
    put(new Uint8Array(align8(8 + header.length) - 8 - header.length));
    for (const { array } of sections) {
      put(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
      put(new Uint8Array(align8(array.byteLength) - array.byteLength));
    }
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

/** The snapshot in `file` if it was built from store version `version`, else null. */
export function readSnapshotFile(file: string, version: string): Snapshot | null {
  let bytes: Uint8Array;
  try { bytes = readAligned(file); } catch { return null; }
  try {
    const headerLength = new DataView(bytes.buffer).getUint32(0, true);
    const h = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength)));
    if (h.magic !== MAGIC || h.version !== version) return null;
    const base = align8(8 + headerLength);
    const ctors: Record<string, new (b: ArrayBuffer, o: number, n: number) => Numeric> = { Int32Array, Uint16Array, Uint8Array, Float64Array };
    const a: Record<string, Numeric> = {};
    for (const t of h.table as { name: string; type: string; offset: number; length: number }[]) a[t.name] = new ctors[t.type](bytes.buffer as ArrayBuffer, base + t.offset, t.length);
    const i32 = (name: string) => a[name] as Int32Array;
    const list = (joined: string) => (joined === '' ? [] : joined.split(SEP));
    const keys = list(h.fileKeys);
    const hashes = list(h.fileHashes);
    const size = a.fileSize as Float64Array;
    const mtime = a.fileMtime as Float64Array;
    const kind = a.fileKind as Uint8Array;
    const lines = i32('fileLines');
    const first = i32('fileFirst');
    const count = i32('fileCount');
    return {
      version: h.version, dim: h.dim, defNames: list(h.defNames),
      files: keys.map((key, i) => ({ key, size: size[i], mtime: mtime[i], hash: hashes[i], kind: kind[i] ? 'binary' : 'text', lines: lines[i], firstChunk: first[i], chunkCount: count[i] })),
      chunkFile: i32('chunkFile'), start: i32('start'), end: i32('end'), chars: i32('chars'), flags: a.flags as Uint8Array,
      vectors: fromFloat16(a.vectors as Uint16Array), defStart: i32('defStart'),
      byLower: new Postings(list(h.lowerKeys), i32('lowerStart'), i32('lowerChunk'), a.lowerCount as Uint16Array),
      byStem: new Postings(list(h.stemKeys), i32('stemStart'), i32('stemChunk'), a.stemCount as Uint16Array),
      defPlain: a.defPlain as Uint8Array,
      byDefLower: new Postings(list(h.defLowerKeys), i32('defLowerStart'), i32('defLowerChunk'), i32('defLowerPlace')),
      byDefStem: new Postings(list(h.defStemKeys), i32('defStemStart'), i32('defStemChunk'), i32('defStemPlace')),
    };
  } catch {
    return null; // damaged: rebuilt from the store
  }
}

/** The whole file in one buffer starting at offset 0, so every 8-aligned section can be viewed in place. */
function readAligned(file: string): Uint8Array {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const out = new Uint8Array(new ArrayBuffer(size));
    let at = 0;
    while (at < size) {
      const n = readSync(fd, out, at, size - at, at);
      if (n === 0) break;
      at += n;
    }
    return out.subarray(0, at);
  } finally {
    closeSync(fd);
  }
}

/**
 * Term counts in 16 bits, saturating: BM25's term frequency saturates long before 65,535 (a larger
 * count moves a chunk's score by far less than the candidate margin).
 */
function counts16(c: Int32Array | Uint16Array): Uint16Array {
  if (c instanceof Uint16Array) return c;
  const out = new Uint16Array(c.length);
  for (let i = 0; i < c.length; i++) out[i] = c[i] > 65535 ? 65535 : c[i];
  return out;
}

function toInt32(c: Int32Array | Uint16Array): Int32Array {
  return c instanceof Int32Array ? c : Int32Array.from(c);
}

function align8(n: number): number {
  return (n + 7) & ~7;
}
