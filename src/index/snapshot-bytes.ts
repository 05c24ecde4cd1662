// The reading half of opening a snapshot file (snapshot-file.ts builds the snapshot from it): each
// file's header and every section but the postings' entries in one read, and the vectors widened
// from float16. It needs nothing but the files, so a cold process runs it on another thread
// (workers/snapshot-read.worker.ts) while it walks the tree and loads the model.
import { fstatSync, readSync } from 'node:fs';
import { fromFloat16Into } from './float16.js';
import { roomy } from './typed-arrays.js';

export const MAGIC = 'simgrep-snapshot-6';
export const DELTA_MAGIC = 'simgrep-snapshot-delta-1';

/** The postings' entry sections: at the end of the file, read per key when a query asks. */
export const POSTINGS = [['byLower', 'lower'], ['byStem', 'stem'], ['byDefLower', 'defLower'], ['byDefStem', 'defStem']] as const;
const ENTRY_SECTIONS = new Set(POSTINGS.flatMap(([, name]) => [`${name}Chunk`, `${name}Count`]));
export const isEntries = (section: string) => ENTRY_SECTIONS.has(section);

export type Numeric = Int32Array | Uint16Array | Uint8Array | Float64Array;
export type TableEntry = { name: string; type: string; offset: number; length: number };
export const WIDTH: Record<string, number> = { Int32Array: 4, Uint16Array: 2, Uint8Array: 1, Float64Array: 8 };
export const CTORS: Record<string, new (b: ArrayBuffer, o: number, n: number) => Numeric> = { Int32Array, Uint16Array, Uint8Array, Float64Array };

/** A snapshot's files, open (the delta's null when there is none). */
export interface SnapshotFds { base: number; delta: number | null }

/** One file as read: its header, where its sections start, and the bytes up to the postings' entries. */
export interface FileBytes {
  header: Record<string, any>;
  /** Byte offset of the first section. */
  base: number;
  /** Bytes [0, first entry section) of the file. */
  eager: ArrayBuffer;
}

/** A snapshot as read: the base file, the delta file when it is the wanted version's, and all the vectors widened. */
export interface SnapshotBytes {
  base: FileBytes;
  delta: FileBytes | null;
  vectors: Float32Array;
}

/** The delta file beside a base snapshot file. */
export function deltaPathOf(file: string): string {
  return file.replace(/\.bin$/, '') + '.delta.bin';
}

/**
 * The snapshot of store version `version` as read from its delta file and base, or from a base of
 * that version; null when there is neither or the base is damaged (the snapshot is then rebuilt; a
 * damaged delta only means the base alone is read). The files are the caller's: read at positions,
 * never closed.
 */
export function readSnapshotBytes(fds: SnapshotFds, version: string): SnapshotBytes | null {
  try {
    const base = readFileBytes(fds.base);
    if (!base || base.header.magic !== MAGIC) return null;
    let delta: FileBytes | null = null;
    try { delta = fds.delta === null ? null : readFileBytes(fds.delta); } catch { /* damaged: the base alone */ }
    const h = delta?.header;
    const withDelta = !!h && h.magic === DELTA_MAGIC && h.version === version && h.baseVersion === base.header.version && h.baseChunks === chunksOf(base);
    if (!withDelta && base.header.version !== version) return null;
    // The base's vectors and the delta's in one array with room to grow (a later patch appends in place).
    const baseHalves = section(base, 'vectors') as Uint16Array;
    const deltaHalves = withDelta ? section(delta!, 'vectors') as Uint16Array : new Uint16Array(0);
    const vectors = roomy(baseHalves.length + deltaHalves.length);
    fromFloat16Into(baseHalves, vectors, 0);
    fromFloat16Into(deltaHalves, vectors, baseHalves.length);
    return { base, delta: withDelta ? delta : null, vectors };
  } catch {
    return null; // damaged: rebuilt from the store
  }
}

/** A section of a file as read (one of the eager ones). */
export function section(f: FileBytes, name: string): Numeric {
  const t = (f.header.table as TableEntry[]).find((x) => x.name === name);
  if (!t || isEntries(name)) throw new Error(`snapshot section ${name} is missing`);
  return new CTORS[t.type](f.eager, f.base + t.offset, t.length);
}

function chunksOf(f: FileBytes): number {
  return (f.header.table as TableEntry[]).find((x) => x.name === 'start')?.length ?? -1;
}

/** A file's header and its sections up to the postings' entries; null when its header does not fit it. */
function readFileBytes(fd: number): FileBytes | null {
  const size = fstatSync(fd).size;
  if (size < 8) return null;
  const headerLength = new DataView(readAt(fd, 0, 8)).getUint32(0, true);
  if (8 + headerLength > size) return null;
  const header = JSON.parse(Buffer.from(readAt(fd, 8, headerLength)).toString('utf8'));
  const base = align8(8 + headerLength);
  const table = header.table as TableEntry[];
  if (!Array.isArray(table) || table.some((t) => !(t.type in CTORS) || base + t.offset + t.length * WIDTH[t.type] > size)) return null;
  const firstEntries = table.find((t) => isEntries(t.name));
  return { header, base, eager: readAt(fd, 0, firstEntries ? base + firstEntries.offset : size) };
}

/** `length` bytes at `position`, in a buffer of their own (8-aligned views start at offset 0). */
export function readAt(fd: number, position: number, length: number): ArrayBuffer {
  const out = new ArrayBuffer(length);
  const view = new Uint8Array(out);
  let at = 0;
  while (at < length) {
    const n = readSync(fd, view, at, length - at, position + at);
    if (n === 0) throw new Error('snapshot file is truncated');
    at += n;
  }
  return out;
}

export function align8(n: number): number {
  return (n + 7) & ~7;
}
