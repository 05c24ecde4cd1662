// The snapshot on disk, so a new process (the CLI) answers without rebuilding it. Two files, each a
// JSON header (file list, section table) and typed-array sections, written atomically and tagged
// with store versions (a stale or damaged file is simply rebuilt):
// - the base (snapshot.bin): a compacted snapshot, rewritten only when a patch compacts;
// - the delta (snapshot.delta.bin): what was appended since the base (the whole file list, the new
//   chunks and their postings), rewritten by every other patch; small, so a re-index is cheap.
// A reader opens the delta of the wanted version and its base, or a base of that version. Vectors
// are float16 bits, on disk as in memory; candidates.ts widens its margin by their rounding.
import { closeSync, fstatSync, openSync, readSync, renameSync, writeSync } from 'node:fs';
import { Postings, type Entries } from './postings.js';
import { chunkFiles, type Snapshot, type SnapshotFile } from './snapshot.js';
import { PackedStrings, PackedStringsBuilder, type StringList } from '../packed/string-list.js';
import { inUseUpTo, joined, resized } from '../packed/typed-arrays.js';

const MAGIC = 'simgrep-snapshot-7'; // 7: words of every script (issue 31)
const DELTA_MAGIC = 'simgrep-snapshot-delta-1';

type Numeric = Int32Array | Uint16Array | Uint8Array | Float64Array;
type Section = { name: string; array: Numeric };
const SEP = '\u0000';

/** The postings' entry sections: at the end of the file, read per key when a query asks. */
const POSTINGS = [['byLower', 'lower'], ['byStem', 'stem'], ['byDefLower', 'defLower'], ['byDefStem', 'defStem']] as const;

/** The delta file beside a base snapshot file. */
export function deltaPathOf(file: string): string {
  return file.replace(/\.bin$/, '') + '.delta.bin';
}

/** Writes a compacted snapshot (its version is its base version) as the base file. */
export function writeSnapshotFile(file: string, s: Snapshot): void {
  if (s.version !== s.baseVersion || s.baseChunks !== s.start.length) throw new Error('only a compacted snapshot is written as a base');
  const n = s.start.length;
  writeSections(file, { magic: MAGIC, version: s.version, dim: s.dim }, s.files, [
    ...chunkSections(s, 0, n),
    ...POSTINGS.flatMap(([field, name]) => postingsSections(name, s[field].flat())),
  ]);
}

/** Writes what `s` appended to its base (the file list, the chunks after baseChunks, the postings' tails) as the delta file. */
export function writeSnapshotDelta(file: string, s: Snapshot): void {
  const n = s.start.length;
  writeSections(deltaPathOf(file), { magic: DELTA_MAGIC, version: s.version, dim: s.dim, baseVersion: s.baseVersion, baseChunks: s.baseChunks, chunks: n }, s.files, [
    ...chunkSections(s, s.baseChunks, n),
    ...POSTINGS.flatMap(([field, name]) => postingsSections(name, (s[field].tail ?? Postings.empty()).flat())),
  ]);
}

/** Chunks [from, to): their arrays, vectors, defined names (defStart stays absolute). */
function chunkSections(s: Snapshot, from: number, to: number): Section[] {
  const d0 = s.defStart[from];
  const d1 = s.defStart[to];
  return [
    { name: 'start', array: s.start.subarray(from, to) }, { name: 'end', array: s.end.subarray(from, to) },
    { name: 'chars', array: s.chars.subarray(from, to) }, { name: 'flags', array: s.flags.subarray(from, to) },
    { name: 'vectors', array: s.halves.subarray(from * s.dim, to * s.dim) },
    { name: 'defStart', array: s.defStart.subarray(from, to + 1) },
    ...stringSections('defNames', PackedStrings.of(s.defNames).slice(d0, d1)),
    { name: 'defPlain', array: s.defPlain.subarray(d0, d1) },
  ];
}

function stringSections(name: string, list: StringList): Section[] {
  const { bytes, offsets } = PackedStrings.pack(list);
  return [{ name: `${name}Bytes`, array: bytes }, { name: `${name}Offsets`, array: offsets }];
}

/** Keys and starts first; the entries go last in the file (see writeSections). */
function postingsSections(name: string, p: Postings): Section[] {
  const all = p.all();
  return [
    ...stringSections(`${name}Keys`, p.keys), { name: `${name}Start`, array: p.start },
    // A term's count in 16 bits (saturating); a defined name's place in its chunk in 32.
    { name: `${name}Chunk`, array: all.chunk }, { name: `${name}Count`, array: name.startsWith('def') ? toInt32(all.count) : counts16(all.count) },
  ];
}

const ENTRY_SECTIONS = new Set(POSTINGS.flatMap(([, name]) => [`${name}Chunk`, `${name}Count`]));
const isEntries = (section: string) => ENTRY_SECTIONS.has(section);

function writeSections(file: string, head: Record<string, unknown>, files: SnapshotFile[], given: Section[]): void {
  const sections: Section[] = [
    { name: 'fileSize', array: Float64Array.from(files, (x) => x.size) }, { name: 'fileMtime', array: Float64Array.from(files, (x) => x.mtime) },
    { name: 'fileKind', array: Uint8Array.from(files, (x) => (x.kind === 'binary' ? 1 : 0)) }, { name: 'fileLines', array: Int32Array.from(files, (x) => x.lines) },
    { name: 'fileFirst', array: Int32Array.from(files, (x) => x.firstChunk) }, { name: 'fileCount', array: Int32Array.from(files, (x) => x.chunkCount) },
    // Postings entries last: what a reader leaves on disk.
    ...given.filter((x) => !isEntries(x.name)), ...given.filter((x) => isEntries(x.name)),
  ];
  let offset = 0;
  const table = sections.map((x) => {
    const entry = { name: x.name, type: x.array.constructor.name, offset, length: x.array.length };
    offset += align8(entry.length * WIDTH[entry.type]);
    return entry;
  });
  // The file list is one NUL-joined string each: splitting it is several times faster than parsing
  // a JSON array of strings.
  const header = Buffer.from(JSON.stringify({ ...head, table, fileKeys: files.map((x) => x.key).join(SEP), fileHashes: files.map((x) => x.hash).join(SEP) }));
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
    for (const x of sections) {
      const { byteLength } = x.array;
      put(new Uint8Array(x.array.buffer, x.array.byteOffset, byteLength));
      put(new Uint8Array(align8(byteLength) - byteLength));
    }
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

/**
 * An open snapshot file's descriptor is closed once nothing can read from it any more: its handle is
 * held by the readers of its postings, which every snapshot made from it shares.
 */
const openFiles = new FinalizationRegistry<number>((fd) => { try { closeSync(fd); } catch { /* already closed */ } });

/**
 * The snapshot of store version `version`, from its delta file and base, or from a base of that
 * version; null when neither is there (or one is damaged): it is then rebuilt from the store.
 */
export function readSnapshotFile(file: string, version: string): Snapshot | null {
  const delta = readFileOf(deltaPathOf(file), (r) => {
    const h = r.header;
    if (h.magic !== DELTA_MAGIC || h.version !== version) return null;
    // The base's vectors go into an array with room for the delta's, which are copied after them.
    const base = readFileOf(file, (b) => baseOf(b, h.baseVersion, h.chunks - h.baseChunks));
    if (!base || base.start.length !== h.baseChunks) return null;
    return withDelta(base, r, version);
  });
  const snap = delta ?? readFileOf(file, (r) => baseOf(r, version));
  // A later patch appends to the vectors in place (the buffer has room: no copy of them all).
  if (snap) inUseUpTo(snap.halves);
  return snap;
}

/** The snapshot in a base file if it is of `version` (its vectors' array has room for `moreChunks`). */
function baseOf(r: Sections, version: string, moreChunks = 0): Snapshot | null {
  const h = r.header;
  if (h.magic !== MAGIC || h.version !== version) return null;
  const names = r.strings('defNames');
  return {
    version, dim: h.dim, files: r.files, defNames: names,
    chunkFile: chunkFiles(r.files, r.i32('start').length), start: r.i32('start'), end: r.i32('end'), chars: r.i32('chars'), flags: r.a('flags') as Uint8Array,
    halves: r.roomyHalves(Math.max(0, moreChunks) * h.dim), defStart: r.i32('defStart'), defPlain: r.a('defPlain') as Uint8Array,
    byLower: r.postings('lower'), byStem: r.postings('stem'), byDefLower: r.postings('defLower'), byDefStem: r.postings('defStem'),
    baseChunks: r.i32('start').length, baseVersion: version,
  };
}

/** A base with a delta's chunks appended, file list replaced and postings' tails attached. */
function withDelta(base: Snapshot, d: Sections, version: string): Snapshot {
  const n0 = base.start.length;
  const tailStart = d.i32('start');
  const n = n0 + tailStart.length;
  const dim = base.dim;
  const tail = d.a('vectors') as Uint16Array;
  const length = base.halves.length + tail.length;
  const fits = base.halves.byteOffset + length * 2 <= base.halves.buffer.byteLength;
  const halves = fits ? new Uint16Array(base.halves.buffer, base.halves.byteOffset, length) : resized(base.halves, length);
  halves.set(tail, base.halves.length);
  const names = new PackedStringsBuilder();
  const baseNames = PackedStrings.of(base.defNames);
  const tailNames = d.strings('defNames');
  names.addFrom(baseNames, 0, baseNames.length);
  names.addFrom(tailNames, 0, tailNames.length);
  const layer = (p: Postings, name: string) => p.withTailLayer(d.postings(name));
  return {
    version, dim, files: d.files, chunkFile: chunkFiles(d.files, n),
    start: joined(base.start, tailStart), end: joined(base.end, d.i32('end')), chars: joined(base.chars, d.i32('chars')), flags: joined(base.flags, d.a('flags') as Uint8Array),
    halves, defStart: joined(base.defStart, d.i32('defStart').subarray(1)), defNames: names.build(), defPlain: joined(base.defPlain, d.a('defPlain') as Uint8Array),
    byLower: layer(base.byLower, 'lower'), byStem: layer(base.byStem, 'stem'), byDefLower: layer(base.byDefLower, 'defLower'), byDefStem: layer(base.byDefStem, 'defStem'),
    baseChunks: n0, baseVersion: base.version,
  };
}

interface Sections {
  header: Record<string, any>;
  files: SnapshotFile[];
  a(name: string): Numeric;
  i32(name: string): Int32Array;
  strings(name: string): PackedStrings;
  /** Postings whose entries are read from the file per key (the file stays open while they are used). */
  postings(name: string): Postings;
  /** The vectors section in an array of its own with room for `extra` more values (and an eighth) to be appended in place. */
  roomyHalves(extra: number): Uint16Array;
}

/** Opens a snapshot file and hands its sections to `use`; the file stays open if the result reads from it. */
function readFileOf(file: string, use: (r: Sections) => Snapshot | null): Snapshot | null {
  let fd: number;
  try { fd = openSync(file, 'r'); } catch { return null; }
  const handle = { fd };
  let snapshot: Snapshot | null = null;
  try {
    const r = sectionsOf(handle);
    snapshot = r ? use(r) : null;
    return snapshot;
  } catch {
    return null; // damaged: rebuilt from the store
  } finally {
    if (snapshot) openFiles.register(handle, fd); else closeSync(fd);
  }
}

type TableEntry = { name: string; type: string; offset: number; length: number };
const WIDTH: Record<string, number> = { Int32Array: 4, Uint16Array: 2, Uint8Array: 1, Float64Array: 8 };
const CTORS: Record<string, new (b: ArrayBuffer, o: number, n: number) => Numeric> = { Int32Array, Uint16Array, Uint8Array, Float64Array };

/** A file's header and sections: all but the postings' entries, read up front (the vectors on their own). */
function sectionsOf(handle: { fd: number }): Sections | null {
  const { fd } = handle;
  const size = fstatSync(fd).size;
  const prefix = readAt(fd, 0, 8);
  const headerLength = new DataView(prefix.buffer).getUint32(0, true);
  if (8 + headerLength > size) return null;
  const header = JSON.parse(Buffer.from(readAt(fd, 8, headerLength).buffer).toString('utf8'));
  const base = align8(8 + headerLength);
  const table = header.table as TableEntry[];
  const byName = new Map(table.map((t) => [t.name, t]));
  if (table.some((t) => !(t.type in CTORS) || base + t.offset + t.length * WIDTH[t.type] > size)) return null;
  const firstEntries = table.find((t) => isEntries(t.name));
  const eagerEnd = firstEntries ? base + firstEntries.offset : size;
  // Everything before the entries in two reads, around the vectors: those are read on their own
  // (roomyHalves), into an array a later patch can append to.
  const vectors = byName.get('vectors');
  if (vectors && vectors.type !== 'Uint16Array') return null;
  const vectorsFrom = vectors ? base + vectors.offset : eagerEnd;
  const vectorsTo = vectors ? vectorsFrom + align8(vectors.length * 2) : eagerEnd;
  const before = readAt(fd, 0, vectorsFrom);
  const after = readAt(fd, vectorsTo, eagerEnd - vectorsTo);
  const a = (name: string) => {
    const t = byName.get(name)!;
    const at = base + t.offset;
    if (at < vectorsFrom) return new CTORS[t.type](before.buffer as ArrayBuffer, at, t.length);
    if (at >= vectorsTo) return new CTORS[t.type](after.buffer as ArrayBuffer, at - vectorsTo, t.length);
    return new CTORS[t.type](readAt(fd, at, t.length * WIDTH[t.type]).buffer as ArrayBuffer, 0, t.length);
  };
  const roomyHalves = (extra: number) => {
    const t = byName.get('vectors')!;
    const out = new Uint8Array(new ArrayBuffer((t.length + extra + (t.length >> 3)) * 2));
    readInto(fd, out, t.length * 2, base + t.offset);
    return new Uint16Array(out.buffer, 0, t.length);
  };
  const i32 = (name: string) => a(name) as Int32Array;
  const strings = (name: string) => new PackedStrings(a(`${name}Bytes`) as Uint8Array, i32(`${name}Offsets`));
  const postings = (name: string) => {
    const entries = (t: TableEntry, from: number, to: number) => {
      const width = WIDTH[t.type];
      return new CTORS[t.type](readAt(handle.fd, base + t.offset + from * width, (to - from) * width).buffer as ArrayBuffer, 0, to - from);
    };
    const chunk = byName.get(`${name}Chunk`)!;
    const count = byName.get(`${name}Count`)!;
    const read = (from: number, to: number): Entries => ({ chunk: entries(chunk, from, to) as Int32Array, count: entries(count, from, to) as Int32Array | Uint16Array });
    return new Postings(strings(`${name}Keys`), i32(`${name}Start`), read);
  };
  const list = (joined: string) => (joined === '' ? [] : joined.split(SEP));
  const keys = list(header.fileKeys);
  const hashes = list(header.fileHashes);
  const fileSize = a('fileSize') as Float64Array;
  const mtime = a('fileMtime') as Float64Array;
  const kind = a('fileKind') as Uint8Array;
  const lines = i32('fileLines');
  const first = i32('fileFirst');
  const count = i32('fileCount');
  const files: SnapshotFile[] = keys.map((key, i) => ({ key, size: fileSize[i], mtime: mtime[i], hash: hashes[i], kind: kind[i] ? 'binary' : 'text', lines: lines[i], firstChunk: first[i], chunkCount: count[i] }));
  return { header, files, a, i32, strings, postings, roomyHalves };
}

/** `length` bytes at `position`, in a buffer of their own (8-aligned views start at offset 0). */
function readAt(fd: number, position: number, length: number): Uint8Array {
  return readInto(fd, new Uint8Array(new ArrayBuffer(length)), length, position);
}

/** Fills out[0, length) with the bytes at `position`. */
function readInto(fd: number, out: Uint8Array, length: number, position: number): Uint8Array {
  for (let at = 0; at < length;) {
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
