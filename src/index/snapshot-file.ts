// The snapshot on disk, so a new process (the CLI) answers without rebuilding it: a JSON header
// (files, keys, names, section table) and the typed arrays, written atomically and tagged with the
// store version it was built from (a stale or damaged file is simply rebuilt). Vectors are kept as
// float16 here (half the bytes); candidates.ts widens its margin by their rounding.
import { closeSync, fstatSync, openSync, readSync, renameSync, writeSync } from 'node:fs';
import { Postings, type Entries } from './postings.js';
import type { Snapshot } from './snapshot.js';
import { PackedStrings, type StringList } from './string-list.js';
import { toFloat16, fromFloat16 } from './float16.js';

const MAGIC = 'simgrep-snapshot-6';

type Numeric = Int32Array | Uint16Array | Uint8Array | Float64Array;
const SEP = '\u0000';

/** The postings' entry sections: at the end of the file, read per key when a query asks. */
const POSTINGS = [['byLower', 'lower'], ['byStem', 'stem'], ['byDefLower', 'defLower'], ['byDefStem', 'defStem']] as const;

export function writeSnapshotFile(file: string, s: Snapshot): void {
  const f = s.files;
  const strings = (name: string, list: StringList) => {
    const { bytes, offsets } = PackedStrings.pack(list);
    return [{ name: `${name}Bytes`, array: bytes }, { name: `${name}Offsets`, array: offsets }];
  };
  const postings = POSTINGS.map(([field, name]) => ({ name, p: s[field], all: s[field].all() }));
  const sections: { name: string; array: Numeric }[] = [
    { name: 'fileSize', array: Float64Array.from(f, (x) => x.size) }, { name: 'fileMtime', array: Float64Array.from(f, (x) => x.mtime) },
    { name: 'fileKind', array: Uint8Array.from(f, (x) => (x.kind === 'binary' ? 1 : 0)) }, { name: 'fileLines', array: Int32Array.from(f, (x) => x.lines) },
    { name: 'fileFirst', array: Int32Array.from(f, (x) => x.firstChunk) }, { name: 'fileCount', array: Int32Array.from(f, (x) => x.chunkCount) },
    { name: 'chunkFile', array: s.chunkFile }, { name: 'start', array: s.start }, { name: 'end', array: s.end },
    { name: 'chars', array: s.chars }, { name: 'flags', array: s.flags }, { name: 'vectors', array: toFloat16(s.vectors) },
    { name: 'defStart', array: s.defStart }, ...strings('defNames', s.defNames), { name: 'defPlain', array: s.defPlain },
    ...postings.flatMap(({ name, p }) => [...strings(`${name}Keys`, p.keys), { name: `${name}Start`, array: p.start }]),
    // Last: what a reader leaves on disk.
    // A term's count in 16 bits (saturating); a defined name's place in its chunk in 32.
    ...postings.flatMap(({ name, all }) => [{ name: `${name}Chunk`, array: all.chunk }, { name: `${name}Count`, array: name.startsWith('def') ? toInt32(all.count) : counts16(all.count) }]),
  ];
  let offset = 0;
  const table = sections.map(({ name, array }) => {
    const entry = { name, type: array.constructor.name, offset, length: array.length };
    offset += align8(array.byteLength);
    return entry;
  });
  // The file list is one NUL-joined string each: splitting it is several times faster than parsing
  // a JSON array of strings.
  const header = Buffer.from(JSON.stringify({
    magic: MAGIC, version: s.version, dim: s.dim, table, fileKeys: f.map((x) => x.key).join(SEP), fileHashes: f.map((x) => x.hash).join(SEP),
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

/** An open snapshot file's descriptor is closed when its snapshot is collected. */
const openFiles = new FinalizationRegistry<number>((fd) => { try { closeSync(fd); } catch { /* already closed */ } });

/**
 * The snapshot in `file` if it was built from store version `version`, else null. All but the
 * postings' entries is read at once; those are read per key, from the file as it was opened (a
 * writer replaces the file by a rename, never in place).
 */
export function readSnapshotFile(file: string, version: string): Snapshot | null {
  let fd: number;
  try { fd = openSync(file, 'r'); } catch { return null; }
  let snapshot: Snapshot | null = null;
  try {
    snapshot = readOpen(fd, version);
    return snapshot;
  } catch {
    return null; // damaged: rebuilt from the store
  } finally {
    if (snapshot) openFiles.register(snapshot, fd); else closeSync(fd);
  }
}

type Section = { name: string; type: string; offset: number; length: number };
const WIDTH: Record<string, number> = { Int32Array: 4, Uint16Array: 2, Uint8Array: 1, Float64Array: 8 };
const CTORS: Record<string, new (b: ArrayBuffer, o: number, n: number) => Numeric> = { Int32Array, Uint16Array, Uint8Array, Float64Array };

function readOpen(fd: number, version: string): Snapshot | null {
  const size = fstatSync(fd).size;
  const prefix = readAt(fd, 0, 8);
  const headerLength = new DataView(prefix.buffer).getUint32(0, true);
  if (8 + headerLength > size) return null;
  const h = JSON.parse(Buffer.from(readAt(fd, 8, headerLength).buffer).toString('utf8'));
  if (h.magic !== MAGIC || h.version !== version) return null;
  const base = align8(8 + headerLength);
  const table = h.table as Section[];
  const byName = new Map(table.map((t) => [t.name, t]));
  const end = (t: Section) => base + t.offset + t.length * WIDTH[t.type];
  if (table.some((t) => !(t.type in CTORS) || end(t) > size)) return null;
  // Everything before the first entry section, in one read.
  const lazyFrom = base + byName.get(`${POSTINGS[0][1]}Chunk`)!.offset;
  const eager = readAt(fd, 0, lazyFrom);
  const a = (name: string) => { const t = byName.get(name)!; return new CTORS[t.type](eager.buffer as ArrayBuffer, base + t.offset, t.length); };
  const i32 = (name: string) => a(name) as Int32Array;
  const strings = (name: string) => new PackedStrings(a(`${name}Bytes`) as Uint8Array, i32(`${name}Offsets`));
  const postings = (name: string) => {
    const entries = (t: Section, from: number, to: number) => {
      const width = WIDTH[t.type];
      return new CTORS[t.type](readAt(fd, base + t.offset + from * width, (to - from) * width).buffer as ArrayBuffer, 0, to - from);
    };
    const chunk = byName.get(`${name}Chunk`)!;
    const count = byName.get(`${name}Count`)!;
    const read = (from: number, to: number): Entries => ({ chunk: entries(chunk, from, to) as Int32Array, count: entries(count, from, to) as Int32Array | Uint16Array });
    return new Postings(strings(`${name}Keys`), i32(`${name}Start`), read);
  };
  const list = (joined: string) => (joined === '' ? [] : joined.split(SEP));
  const keys = list(h.fileKeys);
  const hashes = list(h.fileHashes);
  const fileSize = a('fileSize') as Float64Array;
  const mtime = a('fileMtime') as Float64Array;
  const kind = a('fileKind') as Uint8Array;
  const lines = i32('fileLines');
  const first = i32('fileFirst');
  const count = i32('fileCount');
  return {
    version: h.version, dim: h.dim, defNames: strings('defNames'),
    files: keys.map((key, i) => ({ key, size: fileSize[i], mtime: mtime[i], hash: hashes[i], kind: kind[i] ? 'binary' : 'text', lines: lines[i], firstChunk: first[i], chunkCount: count[i] })),
    chunkFile: i32('chunkFile'), start: i32('start'), end: i32('end'), chars: i32('chars'), flags: a('flags') as Uint8Array,
    vectors: fromFloat16(a('vectors') as Uint16Array), defStart: i32('defStart'), defPlain: a('defPlain') as Uint8Array,
    byLower: postings('lower'), byStem: postings('stem'), byDefLower: postings('defLower'), byDefStem: postings('defStem'),
  };
}

/** `length` bytes at `position`, in a buffer of their own (8-aligned views start at offset 0). */
function readAt(fd: number, position: number, length: number): Uint8Array {
  const out = new Uint8Array(new ArrayBuffer(length));
  let at = 0;
  while (at < length) {
    const n = readSync(fd, out, at, length - at, position + at);
    if (n === 0) throw new Error('snapshot file is truncated');
    at += n;
  }
  return out;
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
