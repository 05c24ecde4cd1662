// The index's ranking data in memory: every chunk's vector, length and flags, term postings (by
// lower-cased identifier and by identifier-part stem) and defined names, in flat typed arrays so a
// query bounds every chunk in a few milliseconds. Serialised by snapshot-file.ts; patched (not
// rebuilt) when the index changes.
import { Postings } from './postings.js';
import { PackedStrings, PackedStringsBuilder, type StringList } from '../packed/string-list.js';
import type { KeyTriples } from './key-triples.js';
import { TermCollector, type TermCollectorOptions } from './term-collector.js';
import { extended, resized } from '../packed/typed-arrays.js';

export interface SnapshotFile {
  /** The file's key in the index: its real path (sources/real-paths.ts), or its URI. */
  key: string;
  /**
   * Its size: the listing's, or the bytes read when the listing gave none (an https URL without
   * Content-Length: build/indexer.ts); -1 in an index made before that.
   */
  size: number;
  /** Its mtime: -1 when its listing gave none (an https URL without Last-Modified: changes/file-identity.ts). */
  mtime: number;
  /**
   * Its ctime; an object's ETag as a number (0: its listing gave none); UNKNOWN_CTIME (-1) when it must be
   * hashed again, kept by an older simgrep or written just before it was read (changes/file-identity.ts).
   */
  ctime: number;
  hash: string;
  kind: 'text' | 'binary';
  lines: number;
  /** Its chunks are [firstChunk, firstChunk + chunkCount). */
  firstChunk: number;
  chunkCount: number;
}

/**
 * The indexed ctime of a file that may have changed unseen: a record of an older simgrep (it kept no
 * ctime), and a file written in the RACY_MS before the run that read it (changes/file-identity.ts).
 * Never equal to a stat's, so the next run reads the file and its content hash decides (and then
 * records its ctime).
 */
export const UNKNOWN_CTIME = -1;

/**
 * A file's size as a read takes it: undefined when unknown (a size of -1 would be read as one), and when
 * its identity is (no mtime): the object may have changed since, and a read cuts a body off at the size
 * it is given (sources/remote/object-stream.ts).
 */
export const sizeToRead = (f: Pick<SnapshotFile, 'size' | 'mtime'>): number | undefined => (f.size >= 0 && f.mtime >= 0 ? f.size : undefined);

export type FileStateOf = Omit<SnapshotFile, 'firstChunk' | 'chunkCount'>;

export const HAS_TOKENS = 1;
export const BLANK = 2;

export interface Snapshot {
  /** Store version this was built from. */
  version: string;
  dim: number;
  files: SnapshotFile[];
  chunkFile: Int32Array;
  start: Int32Array;
  end: Int32Array;
  chars: Int32Array;
  flags: Uint8Array;
  /**
   * chunks x dim: each chunk's unit vector as float16 bits, as the store and the snapshot file keep
   * them (candidates.ts reads them through a table of the 65,536 values; never widened, so a cold
   * search reads them as they are and a snapshot holds half the bytes).
   */
  halves: Uint16Array;
  /** Lower-cased identifier -> chunks with counts (a whole-identifier term). */
  byLower: Postings;
  /** Stem of an identifier part -> chunks with counts, once per matching part (a part term). */
  byStem: Postings;
  /** Defined names per chunk: chunk c owns defNames[defStart[c], defStart[c + 1]). */
  defStart: Int32Array;
  defNames: StringList;
  /** Per defined name: 1 when it is a plain identifier (countTerms finds it on its line). */
  defPlain: Uint8Array;
  /** Defined names by lower-cased name and by part stem; an entry's count is the name's place in its chunk. */
  byDefLower: Postings;
  byDefStem: Postings;
  /**
   * Chunks [0, baseChunks) are those of the base snapshot file of version baseVersion; the chunks
   * after them (and the postings' tails) were appended since, and are saved in a small delta file.
   * A chunk no file points to any more is dead: unreachable, dropped by the next compaction.
   */
  baseChunks: number;
  baseVersion: string;
}

/** One chunk with its features (from the indexer, or read back from its file). */
export interface ChunkRow {
  path: string;
  start: number;
  end: number;
  /** The unit vector as float16 bits: rounded once, as the store and the snapshot file keep it. */
  halves: Uint16Array;
  hasTokens: boolean;
  chars: number;
  blank: boolean;
  defs: string[];
}

/** What changed since a snapshot. */
export interface SnapshotChanges {
  /** Files whose chunks were replaced or that were deleted. */
  dropChunksOf: Set<string>;
  dropFiles: Set<string>;
  /** New file states (new, changed, or only touched files). */
  files: FileStateOf[];
  rows: ChunkRow[];
  /** The rows' terms, by row index. */
  terms: TermCollector;
}

/** No changes yet: what an index run starts from and adds to. */
export function emptyChanges(o: TermCollectorOptions = {}): SnapshotChanges {
  return { dropChunksOf: new Set(), dropFiles: new Set(), files: [], rows: [], terms: new TermCollector(o) };
}

export function emptySnapshot(dim: number, version = '0.0'): Snapshot {
  return {
    version, dim, files: [], chunkFile: new Int32Array(0), start: new Int32Array(0), end: new Int32Array(0), chars: new Int32Array(0),
    flags: new Uint8Array(0), halves: new Uint16Array(0), byLower: Postings.empty(), byStem: Postings.empty(),
    defStart: new Int32Array(1), defNames: [], defPlain: new Uint8Array(0), byDefLower: Postings.empty(), byDefStem: Postings.empty(),
    baseChunks: 0, baseVersion: version,
  };
}

type TermKind = 'lower' | 'stem' | 'defLower' | 'defStem';
/** A term kind's postings merged with the changes' triples of that kind (which then go, when consumed). */
type Merged = (kind: TermKind, merge: (added: KeyTriples) => Postings) => Postings;

const PLAIN_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Dead and appended chunks may make up this share of a snapshot before a patch compacts it (rewrites
 * every array and the base file); below it, a patch appends and the delta file holds what changed.
 */
export const COMPACT_ABOVE = 1 / 8;

export interface PatchOptions {
  /** The churn above which a patch compacts (COMPACT_ABOVE). */
  compactAbove?: number;
  /**
   * The changes are used up: each term kind's triples are let go as soon as its postings are merged
   * (a first build's are ~40 MB), so the new postings never sit beside all of them. Their terms must
   * not be read again.
   */
  consume?: boolean;
}

/**
 * The snapshot after some changes, from the old one without reading the store. Small changes are
 * appended (kept files keep their chunks in place, changed files' new rows go after the last chunk);
 * past `compactAbove` churn, or from an empty snapshot, it is compacted: kept chunks renumbered in
 * file order, dead ones dropped, one postings layer.
 */
export function patchSnapshot(old: Snapshot, ch: SnapshotChanges, version: string, o: PatchOptions = {}): Snapshot {
  const { compactAbove = COMPACT_ABOVE, consume = false } = o;
  const merged: Merged = (kind, merge) => {
    const p = merge(ch.terms[kind]);
    if (consume) ch.terms[kind].clear();
    return p;
  };
  const touchedOnly = touchOnly(old, ch);
  if (touchedOnly) return { ...old, version, files: touchedOnly };
  const states = new Map<string, FileStateOf>();
  for (const f of old.files) if (!ch.dropFiles.has(f.key)) states.set(f.key, f);
  for (const f of ch.files) states.set(f.key, f);
  const files: SnapshotFile[] = [...states.values()]
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((f) => ({ key: f.key, size: f.size, mtime: f.mtime, ctime: f.ctime, hash: f.hash, kind: f.kind, lines: f.lines, firstChunk: 0, chunkCount: 0 }));
  const oldAt = new Map(old.files.map((f, i) => [f.key, i]));
  const newRows = new Map<string, number[]>();
  ch.rows.forEach((r, i) => { const l = newRows.get(r.path); if (l) l.push(i); else newRows.set(r.path, [i]); });
  for (const l of newRows.values()) l.sort((a, b) => ch.rows[a].start - ch.rows[b].start);
  let kept = 0;
  for (const f of files) {
    const o = oldAt.get(f.key);
    if (!ch.dropChunksOf.has(f.key) && o !== undefined) kept += old.files[o].chunkCount;
  }
  // After an append: chunks in the arrays, dead ones (no file points to them) and the tail's.
  const total = old.start.length + ch.rows.length;
  const dead = old.start.length - kept;
  const tail = total - old.baseChunks;
  if (old.baseChunks > 0 && dead + tail <= compactAbove * total) return appendChanges(old, ch, version, files, oldAt, newRows, merged);
  const remap = new Int32Array(old.start.length).fill(-1);
  const rowChunk = new Int32Array(ch.rows.length).fill(-1);
  const placed: number[] = []; // an old chunk index c >= 0, or a new row as -1 - row
  const placedFile: number[] = [];
  files.forEach((f, fi) => {
    f.firstChunk = placed.length;
    const o = oldAt.get(f.key);
    if (!ch.dropChunksOf.has(f.key) && o !== undefined) {
      const of = old.files[o];
      for (let c = of.firstChunk; c < of.firstChunk + of.chunkCount; c++) { remap[c] = placed.length; placed.push(c); placedFile.push(fi); }
    } else {
      for (const i of newRows.get(f.key) ?? []) {
        rowChunk[i] = placed.length;
        placed.push(-1 - i);
        placedFile.push(fi);
      }
    }
    f.chunkCount = placed.length - f.firstChunk;
  });
  // The postings first: the changes' triples go as they are merged, before the other arrays are made.
  const byLower = merged('lower', (t) => old.byLower.merge(remap, t, rowChunk));
  const byStem = merged('stem', (t) => old.byStem.merge(remap, t, rowChunk));
  const byDefLower = merged('defLower', (t) => old.byDefLower.merge(remap, t, rowChunk));
  const byDefStem = merged('defStem', (t) => old.byDefStem.merge(remap, t, rowChunk));
  const n = placed.length;
  const dim = old.dim;
  const names = new PackedStringsBuilder();
  const oldNames = PackedStrings.of(old.defNames);
  const plain: number[] = [];
  const out: Snapshot = {
    ...emptySnapshot(dim, version), files,
    chunkFile: Int32Array.from(placedFile), start: new Int32Array(n), end: new Int32Array(n), chars: new Int32Array(n),
    flags: new Uint8Array(n), halves: new Uint16Array(n * dim), defStart: new Int32Array(n + 1),
    byLower, byStem, byDefLower, byDefStem,
  };
  placed.forEach((p, c) => {
    if (p >= 0) {
      out.start[c] = old.start[p]; out.end[c] = old.end[p]; out.chars[c] = old.chars[p]; out.flags[c] = old.flags[p];
      out.halves.set(old.halves.subarray(p * dim, (p + 1) * dim), c * dim);
      names.addFrom(oldNames, old.defStart[p], old.defStart[p + 1]);
      for (let j = old.defStart[p]; j < old.defStart[p + 1]; j++) plain.push(old.defPlain[j]);
    } else putRow(out, c, ch.rows[-1 - p], names, plain);
    out.defStart[c + 1] = names.length;
  });
  out.defNames = names.build();
  out.defPlain = Uint8Array.from(plain);
  out.baseChunks = n;
  return out;
}

/** The changes appended after the old snapshot's chunks: its arrays are copied, its postings shared. */
function appendChanges(old: Snapshot, ch: SnapshotChanges, version: string, files: SnapshotFile[], oldAt: Map<string, number>, newRows: Map<string, number[]>, merged: Merged): Snapshot {
  const n0 = old.start.length;
  const n = n0 + ch.rows.length;
  const dim = old.dim;
  const rowChunk = new Int32Array(ch.rows.length).fill(-1);
  const order: number[] = []; // new rows in chunk order
  let next = n0;
  for (const f of files) {
    const o = oldAt.get(f.key);
    if (!ch.dropChunksOf.has(f.key) && o !== undefined) {
      f.firstChunk = old.files[o].firstChunk;
      f.chunkCount = old.files[o].chunkCount;
    } else {
      f.firstChunk = next;
      for (const i of newRows.get(f.key) ?? []) { rowChunk[i] = next++; order.push(i); }
      f.chunkCount = next - f.firstChunk;
    }
  }
  const out: Snapshot = {
    ...old, version, files,
    start: resized(old.start, n), end: resized(old.end, n), chars: resized(old.chars, n), flags: resized(old.flags, n),
    halves: extended(old.halves, n * dim), defStart: resized(old.defStart, n + 1), chunkFile: chunkFiles(files, n),
  };
  const names = new PackedStringsBuilder();
  const oldNames = PackedStrings.of(old.defNames);
  names.addFrom(oldNames, 0, oldNames.length);
  const plain = Array.from(old.defPlain);
  order.forEach((i, j) => {
    putRow(out, n0 + j, ch.rows[i], names, plain);
    out.defStart[n0 + j + 1] = names.length;
  });
  out.defNames = names.build();
  out.defPlain = Uint8Array.from(plain);
  out.byLower = merged('lower', (t) => old.byLower.withTail(t, rowChunk));
  out.byStem = merged('stem', (t) => old.byStem.withTail(t, rowChunk));
  out.byDefLower = merged('defLower', (t) => old.byDefLower.withTail(t, rowChunk));
  out.byDefStem = merged('defStem', (t) => old.byDefStem.withTail(t, rowChunk));
  return out;
}

/** A new row as chunk c of `out`: its place, flags and vector, its defined names added. */
function putRow(out: Snapshot, c: number, r: ChunkRow, names: PackedStringsBuilder, plain: number[]): void {
  out.start[c] = r.start; out.end[c] = r.end; out.chars[c] = r.chars;
  out.flags[c] = (r.hasTokens ? HAS_TOKENS : 0) | (r.blank ? BLANK : 0);
  out.halves.set(r.halves, c * out.dim);
  for (const d of r.defs) { names.add(d); plain.push(PLAIN_IDENTIFIER.test(d) ? 1 : 0); }
}

/** Each chunk's file index (-1: a dead chunk). */
export function chunkFiles(files: SnapshotFile[], n: number): Int32Array {
  const out = new Int32Array(n).fill(-1);
  // A loop, not fill() per file: most files have a chunk or two, and a call costs more than that.
  for (let i = 0; i < files.length; i++) {
    const end = files[i].firstChunk + files[i].chunkCount;
    for (let c = files[i].firstChunk; c < end; c++) out[c] = i;
  }
  return out;
}

/** Chunks some file points to. */
export function liveChunks(s: Snapshot): number {
  let n = 0;
  for (const f of s.files) n += f.chunkCount;
  return n;
}

/**
 * The files with new states when the changes only touch known files (a new mtime or ctime, the same content),
 * as after a run that found nothing to re-index; null when chunks change.
 */
function touchOnly(old: Snapshot, ch: SnapshotChanges): SnapshotFile[] | null {
  if (ch.rows.length > 0 || ch.dropChunksOf.size > 0 || ch.dropFiles.size > 0) return null;
  if (ch.files.length === 0) return old.files;
  const at = new Map(old.files.map((f, i) => [f.key, i]));
  const files = old.files.slice();
  for (const f of ch.files) {
    const i = at.get(f.key);
    if (i === undefined || files[i].hash !== f.hash || files[i].kind !== f.kind || files[i].lines !== f.lines) return null;
    files[i] = { ...files[i], size: f.size, mtime: f.mtime, ctime: f.ctime };
  }
  return files;
}

const fileIndexes = new WeakMap<Snapshot, Map<string, number>>();

/** A snapshot's file key -> file index, built once per snapshot. */
export function fileIndex(snap: Snapshot): Map<string, number> {
  let m = fileIndexes.get(snap);
  if (!m) { m = new Map(snap.files.map((f, i) => [f.key, i])); fileIndexes.set(snap, m); }
  return m;
}
