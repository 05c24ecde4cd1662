// A file of typed-array sections behind a JSON header, each checked by a CRC-32 (a snapshot is read
// back from disk on every cold query, and a wrong byte there would give a wrong answer). The header
// and every eager section carry one CRC, checked when read; a lazy section (read a range at a time,
// on demand) carries one per BLOCK_BYTES block, checked block by block as ranges are read.
// Layout: u32 header length, u32 CRC of the header, header, then the sections, each 8-aligned.
import { closeSync, fstatSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import * as zlib from 'node:zlib';

/** zlib's CRC-32 (Node 20.15+ / 22.2+), else the same CRC in JavaScript (a few times slower). */
const crc32: (data: Uint8Array, value?: number) => number = (zlib as { crc32?: (d: Uint8Array, v?: number) => number }).crc32 ?? crc32Js;

export type Numeric = Int32Array | Uint16Array | Uint8Array | Float64Array | Uint32Array;
export interface Section { name: string; array: Numeric; lazy?: boolean }
export interface TableEntry { name: string; type: string; offset: number; length: number; crc: number }

/** A lazy section's checksum granule: a range read is widened to whole blocks (16 KiB) to check them. */
export const BLOCK_BYTES = 16 << 10;

/** A section or the header failed its checksum: the file is damaged (rebuilt by its owner). */
export class DamagedFileError extends Error {
  constructor(readonly file: string, readonly section: string) {
    super(`${file} is damaged (its ${section} fails its checksum)`);
  }
}

const WIDTH: Record<string, number> = { Int32Array: 4, Uint16Array: 2, Uint8Array: 1, Float64Array: 8, Uint32Array: 4 };
const CTORS: Record<string, new (b: ArrayBuffer, o: number, n: number) => Numeric> = { Int32Array, Uint16Array, Uint8Array, Float64Array, Uint32Array };
const sumsOf = (name: string) => `${name}.blocks`;

const bytesOf = (a: Numeric) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** Block CRCs of a lazy section's bytes. */
function blockSums(bytes: Uint8Array): Uint32Array {
  const out = new Uint32Array(Math.ceil(bytes.length / BLOCK_BYTES));
  for (let b = 0; b < out.length; b++) out[b] = crc32(bytes.subarray(b * BLOCK_BYTES, (b + 1) * BLOCK_BYTES));
  return out;
}

/**
 * Writes `head` (plus the section table) and the sections, lazy ones last, to a temp file renamed
 * over `file`: a reader sees the old file or the new one, never half of one.
 */
export function writeSectionFile(file: string, head: Record<string, unknown>, given: Section[]): void {
  const lazy = given.filter((x) => x.lazy);
  const sections: Section[] = [
    ...given.filter((x) => !x.lazy),
    ...lazy.map((x) => ({ name: sumsOf(x.name), array: blockSums(bytesOf(x.array)) })),
    ...lazy,
  ];
  let offset = 0;
  const table: TableEntry[] = sections.map((x) => {
    // A lazy section's own CRC too: verifySectionFile checks it in one pass (its blocks' CRCs are for ranges).
    const entry = { name: x.name, type: x.array.constructor.name, offset, length: x.array.length, crc: crc32(bytesOf(x.array)) };
    offset += align8(entry.length * WIDTH[entry.type]);
    return entry;
  });
  const header = Buffer.from(JSON.stringify({ ...head, table }));
  const prefix = Buffer.alloc(8);
  prefix.writeUInt32LE(header.length, 0);
  prefix.writeUInt32LE(crc32(header), 4);
  const tmp = `${file}.${process.pid}.tmp`;
  // Section by section, straight from the arrays: no copy of the whole body in memory.
  const fd = openSync(tmp, 'w');
  let open = true;
  try {
    const put = (bytes: Uint8Array) => { for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at); };
    put(prefix);
    put(header);
    put(new Uint8Array(align8(8 + header.length) - 8 - header.length));
    for (const x of sections) {
      const bytes = bytesOf(x.array);
      put(bytes);
      put(new Uint8Array(align8(bytes.length) - bytes.length));
    }
    open = false;
    closeSync(fd);
    renameSync(tmp, file);
  } catch (e) {
    // A full disk: no half-written temp file is left behind (a later writer also sweeps them: temp-files.ts).
    if (open) closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** An open section file: its header, its eager sections (checked), and lazy ranges (checked per block). */
export interface SectionReader {
  header: Record<string, any>;
  has(name: string): boolean;
  /** An eager section (the roomy one too, read then, with no room). */
  a(name: string): Numeric;
  /** An eager section in an array of its own with room for `extra` more values and an eighth (appended in place later). */
  roomy(name: string, extra: number): Numeric;
  /** Values [from, to) of a lazy section; throws DamagedFileError when a block read fails its checksum. */
  range(name: string, from: number, to: number): Numeric;
}

/**
 * Reads a section file's header and eager sections (`roomyName`'s on its own: see roomy), checking
 * every CRC; null when it is not one (too short, another layout), DamagedFileError when a check fails.
 */
export function readSections(handle: { fd: number }, file: string, roomyName?: string): SectionReader | null {
  const { fd } = handle;
  const head = readHead(fd, file);
  if (!head) return null;
  const { header, base, table, size } = head;
  const byName = new Map(table.map((t) => [t.name, t]));
  const isLazy = (t: TableEntry) => byName.has(sumsOf(t.name));
  const firstLazy = table.find(isLazy);
  const eagerEnd = firstLazy ? base + firstLazy.offset : size;
  // Everything eager in two reads, around the roomy section (read into an array of its own).
  const roomyEntry = roomyName ? byName.get(roomyName) : undefined;
  const roomyFrom = roomyEntry ? base + roomyEntry.offset : eagerEnd;
  const roomyTo = roomyEntry ? roomyFrom + align8(roomyEntry.length * WIDTH[roomyEntry.type]) : eagerEnd;
  const before = readAt(fd, 0, roomyFrom);
  const after = readAt(fd, roomyTo, eagerEnd - roomyTo);
  const checked = (t: TableEntry, bytes: Uint8Array) => {
    if (crc32(bytes) !== t.crc) throw new DamagedFileError(file, `${t.name} section`);
  };
  const views = new Map<string, Numeric>();
  for (const t of table) {
    if (isLazy(t) || t === roomyEntry) continue;
    const at = base + t.offset;
    const view = at < roomyFrom ? new CTORS[t.type](before.buffer as ArrayBuffer, at, t.length) : new CTORS[t.type](after.buffer as ArrayBuffer, at - roomyTo, t.length);
    checked(t, bytesOf(view));
    views.set(t.name, view);
  }
  const entry = (name: string) => {
    const t = byName.get(name);
    if (!t) throw new DamagedFileError(file, `${name} section (missing)`);
    return t;
  };
  const roomy = (name: string, extra: number): Numeric => {
    const t = entry(name);
    const width = WIDTH[t.type];
    const out = new Uint8Array(new ArrayBuffer((t.length + extra + (t.length >> 3)) * width));
    readInto(fd, out, t.length * width, base + t.offset);
    checked(t, out.subarray(0, t.length * width));
    return new CTORS[t.type](out.buffer, 0, t.length);
  };
  return {
    header,
    has: (name) => byName.has(name),
    a(name) {
      const v = views.get(name) ?? (name === roomyName ? roomy(name, 0) : undefined);
      if (!v) throw new DamagedFileError(file, `${name} section (missing)`);
      return v;
    },
    roomy,
    range(name, from, to) {
      const t = entry(name);
      const sums = views.get(sumsOf(name)) as Uint32Array;
      const width = WIDTH[t.type];
      const total = t.length * width;
      // Whole blocks around the range, each checked against its CRC.
      const b0 = Math.floor((from * width) / BLOCK_BYTES);
      const b1 = Math.ceil((to * width) / BLOCK_BYTES);
      const start = b0 * BLOCK_BYTES;
      const bytes = readAt(handle.fd, base + t.offset + start, Math.min(total, b1 * BLOCK_BYTES) - start);
      for (let b = b0; b < b1; b++) {
        const at = (b - b0) * BLOCK_BYTES;
        if (crc32(bytes.subarray(at, at + BLOCK_BYTES)) !== sums[b]) throw new DamagedFileError(file, `${name} section (block ${b})`);
      }
      return new CTORS[t.type](bytes.buffer as ArrayBuffer, from * width - start, to - from);
    },
  };
}

/** A section file's header, checked, with where its sections start; null when it is not one. */
function readHead(fd: number, file: string): { header: Record<string, any>; base: number; table: TableEntry[]; size: number } | null {
  const size = fstatSync(fd).size;
  if (size < 8) return null;
  const prefix = new DataView(readAt(fd, 0, 8).buffer);
  const headerLength = prefix.getUint32(0, true);
  if (8 + headerLength > size) return null;
  const headerBytes = readAt(fd, 8, headerLength);
  if (crc32(headerBytes) !== prefix.getUint32(4, true)) throw new DamagedFileError(file, 'header');
  const header = JSON.parse(Buffer.from(headerBytes.buffer).toString('utf8'));
  const base = align8(8 + headerLength);
  const table = header.table as TableEntry[];
  if (!Array.isArray(table) || table.some((t) => !(t.type in CTORS) || base + t.offset + t.length * WIDTH[t.type] > size)) return null;
  return { header, base, table, size };
}

/**
 * A section file's header and only the named sections, each checked (a reader that needs a few small
 * ones: status reads the file list, not the vectors and postings). Null when it is not a section file;
 * DamagedFileError when a check fails or a named section is missing.
 */
export function readNamedSections(fd: number, file: string, names: readonly string[]): { header: Record<string, any>; a(name: string): Numeric } | null {
  const head = readHead(fd, file);
  if (!head) return null;
  const views = new Map<string, Numeric>();
  for (const name of names) {
    const t = head.table.find((x) => x.name === name);
    if (!t) throw new DamagedFileError(file, `${name} section (missing)`);
    const bytes = readAt(fd, head.base + t.offset, t.length * WIDTH[t.type]);
    if (crc32(bytes) !== t.crc) throw new DamagedFileError(file, `${name} section`);
    views.set(name, new CTORS[t.type](bytes.buffer as ArrayBuffer, 0, t.length));
  }
  return { header: head.header, a: (name) => views.get(name)! };
}

/**
 * Checks every CRC of a section file, lazy blocks included, reading it once without keeping it:
 * null when it is sound or absent, else what is damaged (simgrep index runs this).
 */
export function verifySectionFile(file: string): string | null {
  let fd: number;
  try { fd = openSync(file, 'r'); } catch { return null; }
  try {
    const r = readSections({ fd }, file);
    if (!r) return `${file} is not a readable snapshot file`;
    const base = align8(8 + new DataView(readAt(fd, 0, 8).buffer).getUint32(0, true));
    for (const t of r.header.table as TableEntry[]) {
      if (!r.has(sumsOf(t.name))) continue;
      // The section's own CRC, 1 MiB at a time: the lazy sections can be most of the file.
      const total = t.length * WIDTH[t.type];
      let crc = 0;
      for (let at = 0; at < total; at += 1 << 20) crc = crc32(readAt(fd, base + t.offset + at, Math.min(1 << 20, total - at)), crc);
      if (crc !== t.crc) return new DamagedFileError(file, `${t.name} section`).message;
    }
    return null;
  } catch (e) {
    return e instanceof DamagedFileError ? e.message : `${file} is damaged (${(e as Error).message})`;
  } finally {
    closeSync(fd);
  }
}

/** `length` bytes at `position`, in a buffer of their own (8-aligned views start at offset 0). */
function readAt(fd: number, position: number, length: number): Uint8Array {
  return readInto(fd, new Uint8Array(new ArrayBuffer(length)), length, position);
}

/** Fills out[0, length) with the bytes at `position`. */
function readInto(fd: number, out: Uint8Array, length: number, position: number): Uint8Array {
  for (let at = 0; at < length;) {
    const n = readSync(fd, out, at, length - at, position + at);
    if (n === 0) throw new Error('the file is truncated');
    at += n;
  }
  return out;
}

function align8(n: number): number {
  return (n + 7) & ~7;
}

let crcTable: Int32Array | null = null;
export function crc32Js(data: Uint8Array, value = 0): number {
  if (!crcTable) {
    crcTable = new Int32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c;
    }
  }
  let c = value ^ -1;
  for (let i = 0; i < data.length; i++) c = crcTable[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}
