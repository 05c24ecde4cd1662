// The snapshot on disk, so a new process (the CLI) answers without rebuilding it. Two files, each a
// JSON header (file list, section table) and typed-array sections, each checksummed, written
// atomically and tagged with store versions (a stale or damaged file is simply rebuilt):
// - the base (snapshot.bin): a compacted snapshot, rewritten only when a patch compacts;
// - the delta (snapshot.delta.bin): what was appended since the base (the whole file list, the new
//   chunks and their postings), rewritten by every other patch; small, so a re-index is cheap.
// A reader opens the delta of the wanted version and its base, or a base of that version. Vectors
// are float16 bits, on disk as in memory; candidates.ts widens its margin by their rounding.
import { closeSync, openSync, rmSync } from 'node:fs';
import { Postings, type Entries } from './postings.js';
import { chunkFiles, type Snapshot, type SnapshotFile } from './snapshot.js';
import { PackedStrings, PackedStringsBuilder, type StringList } from '../packed/string-list.js';
import { inUseUpTo, joined, resized } from '../packed/typed-arrays.js';
import { DamagedFileError, readNamedSections, readSections, verifySectionFile, writeSectionFile, type Numeric, type Section } from './section-file.js';
import { sweepTempFiles } from './temp-files.js';

// 7 and delta 2: every section checksummed (section-file.ts); 8 and delta 3: words of every script
// (issue 31); 9 and delta 4: emoji are words, digits of every script one number (words35); 10 and delta
// 5: an emoji's skin tone folded away, Arabic's number separators as `.` and `,` (zh36); 11 and delta
// 6: a keycap (1️⃣) a word of its own, not a word of marks every keycap shared; a definition's name
// in any script (`class Straße:` defined `Stra`), kept folded (left37); 12 and delta 7: each file's ctime
// (or ETag), its identity's third part (ctime46). Older files are simply rebuilt.
const MAGIC = 'simgrep-snapshot-12';
const DELTA_MAGIC = 'simgrep-snapshot-delta-7';
/** This build's snapshot and delta formats, as their files' headers name them (a cluster's jobs carry them). */
export const SNAPSHOT_FORMATS = [MAGIC, DELTA_MAGIC] as const;

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
    { name: 'fileCtime', array: Float64Array.from(files, (x) => x.ctime) },
    { name: 'fileKind', array: Uint8Array.from(files, (x) => (x.kind === 'binary' ? 1 : 0)) }, { name: 'fileLines', array: Int32Array.from(files, (x) => x.lines) },
    { name: 'fileFirst', array: Int32Array.from(files, (x) => x.firstChunk) }, { name: 'fileCount', array: Int32Array.from(files, (x) => x.chunkCount) },
    // Postings entries are lazy: left on disk, read (and checked) a key at a time.
    ...given.map((x) => (isEntries(x.name) ? { ...x, lazy: true } : x)),
  ];
  sweepTempFiles(file);
  // The file list is one NUL-joined string each: splitting it is several times faster than parsing
  // a JSON array of strings.
  writeSectionFile(file, { ...head, fileKeys: files.map((x) => x.key).join(SEP), fileHashes: files.map((x) => x.hash).join(SEP) }, sections);
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
export function readSnapshotFile(file: string, version: string, onDamaged?: (why: string) => void): Snapshot | null {
  const delta = readFileOf(deltaPathOf(file), onDamaged, (r) => {
    const h = r.header;
    if (h.magic !== DELTA_MAGIC || h.version !== version) return null;
    // The base's vectors go into an array with room for the delta's, which are copied after them.
    const base = readFileOf(file, onDamaged, (b) => baseOf(b, h.baseVersion, h.chunks - h.baseChunks));
    if (!base || base.start.length !== h.baseChunks) return null;
    return withDelta(base, r, version);
  });
  const snap = delta ?? readFileOf(file, onDamaged, (r) => baseOf(r, version));
  // A later patch appends to the vectors in place (the buffer has room: no copy of them all).
  if (snap) inUseUpTo(snap.halves);
  return snap;
}

/**
 * Only the file list of the snapshot of `version` (the delta's, which holds it whole, else the base's):
 * what status counts, without the chunks, vectors and postings (9,037 files: ~10 ms, the whole
 * snapshot ~300-900 ms). Null when neither file is of that version, or one is damaged.
 */
export function readSnapshotFileList(file: string, version: string): SnapshotFile[] | null {
  for (const [f, magic] of [[deltaPathOf(file), DELTA_MAGIC], [file, MAGIC]] as const) {
    let fd: number;
    try { fd = openSync(f, 'r'); } catch { continue; }
    try {
      const r = readNamedSections(fd, f, FILE_SECTIONS);
      if (r?.header.magic === magic && r.header.version === version) return filesOf(r.header, r.a);
    } catch {
      return null; // damaged: the caller loads (and so rebuilds) the snapshot
    } finally {
      closeSync(fd);
    }
  }
  return null;
}

const FILE_SECTIONS = ['fileSize', 'fileMtime', 'fileCtime', 'fileKind', 'fileLines', 'fileFirst', 'fileCount'];

/** The file list of a snapshot file's header and file sections. */
function filesOf(header: Record<string, any>, a: (name: string) => Numeric): SnapshotFile[] {
  const list = (joined: string) => (joined === '' ? [] : joined.split(SEP));
  const keys = list(header.fileKeys);
  const hashes = list(header.fileHashes);
  const fileSize = a('fileSize') as Float64Array;
  const mtime = a('fileMtime') as Float64Array;
  const ctime = a('fileCtime') as Float64Array;
  const kind = a('fileKind') as Uint8Array;
  const lines = a('fileLines') as Int32Array;
  const first = a('fileFirst') as Int32Array;
  const count = a('fileCount') as Int32Array;
  return keys.map((key, i) => ({ key, size: fileSize[i], mtime: mtime[i], ctime: ctime[i], hash: hashes[i], kind: kind[i] ? 'binary' : 'text', lines: lines[i], firstChunk: first[i], chunkCount: count[i] }));
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

/** Opens a snapshot file and hands its sections to `use`; the file stays open if the result reads from it. `onDamaged`: told when a checksum fails. */
function readFileOf(file: string, onDamaged: ((why: string) => void) | undefined, use: (r: Sections) => Snapshot | null): Snapshot | null {
  let fd: number;
  try { fd = openSync(file, 'r'); } catch { return null; }
  const handle = { fd };
  let snapshot: Snapshot | null = null;
  try {
    const r = sectionsOf(handle, file);
    snapshot = r ? use(r) : null;
    return snapshot;
  } catch (e) {
    if (e instanceof DamagedFileError) onDamaged?.(e.message);
    return null; // damaged (a checksum failed) or of another layout: rebuilt from the store
  } finally {
    if (snapshot) openFiles.register(handle, fd); else closeSync(fd);
  }
}

/** A file's header and sections, checked: all but the postings' entries are read up front (the vectors on their own). */
function sectionsOf(handle: { fd: number }, file: string): Sections | null {
  const r = readSections(handle, file, 'vectors');
  if (!r) return null;
  const { header, a } = r;
  if (header.magic !== MAGIC && header.magic !== DELTA_MAGIC) return null;
  const i32 = (name: string) => a(name) as Int32Array;
  const strings = (name: string) => new PackedStrings(a(`${name}Bytes`) as Uint8Array, i32(`${name}Offsets`));
  const postings = (name: string) => {
    const read = (from: number, to: number): Entries => ({ chunk: r.range(`${name}Chunk`, from, to) as Int32Array, count: r.range(`${name}Count`, from, to) as Int32Array | Uint16Array });
    return new Postings(strings(`${name}Keys`), i32(`${name}Start`), read);
  };
  const files = filesOf(header, a);
  const roomyHalves = (extra: number) => r.roomy('vectors', extra) as Uint16Array;
  return { header, files, a, i32, strings, postings, roomyHalves };
}

/**
 * Checks a workspace's snapshot files (base and delta) against every checksum, postings' entries
 * included: null when sound (or absent), else what is damaged.
 */
export function verifySnapshotFiles(file: string): string | null {
  return verifySectionFile(file) ?? verifySectionFile(deltaPathOf(file));
}

/** Removes the snapshot files (a damaged one: the next reader rebuilds it from the store). */
export function removeSnapshotFiles(file: string): void {
  for (const f of [file, deltaPathOf(file)]) rmSync(f, { force: true });
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
