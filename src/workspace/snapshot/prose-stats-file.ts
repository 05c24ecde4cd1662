// The prose documents' line statistics on disk (snapshot.prose.bin beside the snapshot), so a process
// that has not counted them (a cold CLI search, a fresh library handle) takes a query's per-document
// BM25 statistics from a few postings instead of reading and counting every Markdown file. Each
// document is keyed by its indexed state (key, size, mtime, hash): a record of another state is never
// used. Sections are checksummed (section-file.ts); the postings are lazy, read per name as a query asks.
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { PackedStrings } from '../packed/string-list.js';
import { readSections, writeSectionFile, type SectionReader } from './section-file.js';
import { sweepTempFiles } from './temp-files.js';

export { ByteSink, decodeGramPostings, decodePostings, encodeGram, encodePairs, forEachRecord, isGramName, type DecodedGramPostings, type DecodedPostings } from './prose-stats-codec.js';

// 3: a name whose postings are another's bytes (a stem's, most often its word's) holds none, and points to that name.
// 4: numbers ('n' + a number) have postings as words do (a file of 3 holds none: its documents are counted again).
// 5: numbers are keyed in ASCII digits (Arabic-Indic `١٩٦٤` is 'n1964') and emoji are words (branch words35).
// 6: an emoji's skin tone folded away (`👍🏽` is '👍'), Arabic's `١٬٩٦٤٫٥` one number 'n1,964.5' (branch zh36).
// 7: a keycap (`1️⃣`) a word of its own, its base and U+20E3 (branch left37).
const MAGIC = 'simgrep-prose-stats-7';
/** This build's format, as a file's header names it. */
export const PROSE_STATS_FORMAT = MAGIC;

/** Postings shorter than this are kept twice rather than pointed to (an alias takes 8 bytes). */
const ALIAS_FROM = 16;

/** A document's non-blank line count when it keeps no statistics (searches read and count it). */
export const NO_STATS = -1;

/** A line's length with this bit set: a blank line (lengths are cut below it: long-lines.ts). */
export const BLANK_BIT = 0x8000;

/** The key a document's statistics (and a resident process's kept bytes) are kept under: its indexed file's state. */
export function documentState(f: { key: string; size: number; mtime: number; hash: string }): string {
  return `${f.key}\0${f.size}\0${f.mtime}\0${f.hash}`;
}

/**
 * documentState of a snapshot's file, made once per file object (a snapshot's are never changed in place):
 * one string object per file, so the maps keyed by it (the kept text, the kept documents) find the very
 * key their warm-up or listing set, where a string made again is hashed and compared character by character.
 */
const fileStates = new WeakMap<object, string>();
export function fileState(f: { key: string; size: number; mtime: number; hash: string }): string {
  let state = fileStates.get(f);
  if (state === undefined) fileStates.set(f, (state = documentState(f)));
  return state;
}

/**
 * A gram's name in the file, from its key (lexical/grams.ts gramKey: a number for up to 3 UTF-16 units,
 * else the gram): the gram's text, whose gramKey is that key again.
 */
export function gramName(key: number | string): string {
  if (typeof key === 'string') return key;
  let s = '';
  for (let k = key; k > 0; k = Math.floor(k / 65536)) s = String.fromCharCode(k % 65536) + s;
  return s;
}

/**
 * The format `file`'s header names when another simgrep (an earlier one, most often) wrote it, else null
 * (no file, this build's format, or not a statistics file). Such a file is not read: searches count its
 * documents as a scan does, and the next `simgrep index` writes it again in this format.
 */
export function otherProseStatsFormat(file: string): string | null {
  let fd: number;
  try { fd = openSync(file, 'r'); } catch { return null; }
  try {
    const prefix = Buffer.alloc(8);
    if (readSync(fd, prefix, 0, 8, 0) < 8) return null;
    const length = prefix.readUInt32LE(0);
    if (length > 1 << 20) return null;
    const head = Buffer.alloc(length);
    if (readSync(fd, head, 0, length, 8) < length) return null;
    const magic = (JSON.parse(head.toString('utf8')) as { magic?: unknown }).magic;
    return typeof magic === 'string' && magic !== MAGIC && magic.startsWith('simgrep-prose-stats-') ? magic : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** The prose statistics file beside a snapshot file. */
export function proseStatsPathOf(snapshotFile: string): string {
  return snapshotFile.replace(/\.bin$/, '') + '.prose.bin';
}

/** One document as the file holds it: its state, its line shape, its non-blank lines and their characters. */
export interface ProseDocRecord {
  state: string;
  /** Each line's length, BLANK_BIT set on a blank one. */
  lengths: Uint16Array;
  docs: number;
  chars: number;
}

/**
 * The postings of the file, by name ('w' + a folded word, 's' + a stem, 'n' + a number: a key of rank/prose-lines-build.ts;
 * 'g' + a gram: prose-doc-grams.ts): sorted names, and per name its bytes [start[i], start[i + 1]) of
 * `post`: per document holding it (ascending), varint(doc - previous doc), then for a word, stem or number varint(n)
 * and n times varint(2 × (line - previous line) + (count > 1)), with varint(count - 2) after it when count > 1;
 * for a gram varint(lines that hold it) varint(the most a line holds it - 1): a document's best line is
 * bounded from these (search/prose-index.ts), its statistics exact. The file keeps a name's bytes once:
 * a name whose bytes equal an earlier name's holds an empty range and an alias to it (writeProseStatsFile).
 */
export interface ProseStatsBody { docs: ProseDocRecord[]; names: PackedStrings; start: Int32Array; post: Uint8Array }

/** Writes `body` atomically (temp file + rename); its `post` and `start` are compacted in place (aliases). */
export function writeProseStatsFile(file: string, body: ProseStatsBody): void {
  const { docs } = body;
  const { start, post, alias } = shareEqualPostings(body.start, body.post);
  const lenStart = new Int32Array(docs.length + 1);
  docs.forEach((d, i) => { lenStart[i + 1] = lenStart[i] + d.lengths.length; });
  const lengths = new Uint16Array(lenStart[docs.length]);
  docs.forEach((d, i) => lengths.set(d.lengths, lenStart[i]));
  const states = PackedStrings.pack(docs.map((d) => d.state));
  const names = PackedStrings.pack(body.names);
  sweepTempFiles(file);
  writeSectionFile(file, { magic: MAGIC }, [
    { name: 'stateBytes', array: states.bytes }, { name: 'stateOffsets', array: states.offsets },
    { name: 'docDocs', array: Int32Array.from(docs, (d) => d.docs) }, { name: 'docChars', array: Int32Array.from(docs, (d) => d.chars) },
    { name: 'lenStart', array: lenStart }, { name: 'lengths', array: lengths },
    { name: 'nameBytes', array: names.bytes }, { name: 'nameOffsets', array: names.offsets }, { name: 'start', array: start }, { name: 'alias', array: alias },
    { name: 'post', array: post, lazy: true },
  ]);
}

/**
 * Names whose postings bytes equal an earlier name's (a stem that only ever stands for one word, in
 * the same lines) keep an empty range and an alias (name, earlier name) instead: a stem's postings
 * are often its word's, and are among the longest. Compacts `post` and rewrites `start` in place.
 */
function shareEqualPostings(start: Int32Array, post: Uint8Array): { start: Int32Array; post: Uint8Array; alias: Int32Array } {
  const names = start.length - 1;
  const seen = new Map<number, number>();
  const alias: number[] = [];
  let w = 0;
  let from = start[0];
  for (let i = 0; i < names; i++) {
    const s = from;
    const e = start[i + 1];
    from = e;
    start[i] = w;
    if (e - s >= ALIAS_FROM) {
      let h = 0x811c9dc5 ^ (e - s);
      for (let j = s; j < e; j++) h = Math.imul(h ^ post[j], 0x01000193);
      const first = seen.get(h);
      if (first !== undefined && equalBytes(post, start[first], start[first + 1], s, e)) { alias.push(i, first); continue; }
      if (first === undefined) seen.set(h, i);
    }
    post.copyWithin(w, s, e);
    w += e - s;
    // The next name's start is written when it is reached; the one after the last, here.
    start[i + 1] = w;
  }
  start[names] = w;
  return { start, post: post.subarray(0, w), alias: Int32Array.from(alias) };
}

/** Whether post[a0, a1) (already moved, at its new place) and post[b0, b1) (not yet moved) hold the same bytes. */
function equalBytes(post: Uint8Array, a0: number, a1: number, b0: number, b1: number): boolean {
  if (a1 - a0 !== b1 - b0) return false;
  for (let k = 0; k < a1 - a0; k++) if (post[a0 + k] !== post[b0 + k]) return false;
  return true;
}

/** An open statistics file: its documents by state, and each name's postings read on demand (checked per block). */
export interface ProseStatsFile {
  readonly docCount: number;
  /** The document of this state, or undefined when the file holds none (not counted, or changed since). */
  docOf(state: string): number | undefined;
  stateOf(doc: number): string;
  docs(doc: number): number;
  chars(doc: number): number;
  /** Document `doc`'s line lengths, BLANK_BIT on blank lines (a view into the file's section). */
  lengths(doc: number): Uint16Array;
  readonly names: PackedStrings;
  /** The bytes of name i's postings; throws DamagedFileError when a block fails its checksum. */
  postingsAt(i: number): Uint8Array;
  /** Every name's postings (name i's at [from(i), to(i)) of `post`: an aliased name's are its alias's), checked. */
  allPostings(): { post: Uint8Array; from: (i: number) => number; to: (i: number) => number };
  /** The index of `name`, or -1. */
  find(name: string): number;
  /** Whether the file on disk is still this one (same inode, size and mtime). */
  current(): boolean;
  close(): void;
}

/** Opens `file`: null when absent or not of this format; DamagedFileError when a section fails its checksum. */
export function openProseStatsFile(file: string): ProseStatsFile | null {
  let fd: number;
  try { fd = openSync(file, 'r'); } catch { return null; }
  let r: SectionReader | null;
  try {
    r = readSections({ fd }, file);
  } catch (e) {
    closeSync(fd);
    throw e;
  }
  if (!r || r.header.magic !== MAGIC) { closeSync(fd); return null; }
  const reader = r;
  const st = fstatSync(fd);
  const states = new PackedStrings(reader.a('stateBytes') as Uint8Array, reader.a('stateOffsets') as Int32Array);
  const byState = new Map<string, number>();
  for (let i = 0; i < states.length; i++) byState.set(states.at(i)!, i);
  const docDocs = reader.a('docDocs') as Int32Array;
  const docChars = reader.a('docChars') as Int32Array;
  const lenStart = reader.a('lenStart') as Int32Array;
  const lengths = reader.a('lengths') as Uint16Array;
  const names = new PackedStrings(reader.a('nameBytes') as Uint8Array, reader.a('nameOffsets') as Int32Array);
  const start = reader.a('start') as Int32Array;
  const alias = reader.a('alias') as Int32Array;
  if (start.length !== names.length + 1 || lenStart.length !== states.length + 1 || alias.length % 2 !== 0) { closeSync(fd); return null; }
  /** The name whose bytes name i's are: i itself, or its alias (pairs sorted by name; only empty ranges have one). */
  const owner = (i: number): number => {
    if (start[i + 1] > start[i]) return i;
    let lo = 0;
    let hi = alias.length / 2 - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (alias[2 * mid] < i) lo = mid + 1; else if (alias[2 * mid] > i) hi = mid - 1; else return alias[2 * mid + 1];
    }
    return i;
  };
  let open = true;
  return {
    docCount: states.length,
    docOf: (state) => byState.get(state),
    stateOf: (doc) => states.at(doc)!,
    docs: (doc) => docDocs[doc],
    chars: (doc) => docChars[doc],
    lengths: (doc) => lengths.subarray(lenStart[doc], lenStart[doc + 1]),
    names,
    postingsAt: (i) => { const o = owner(i); return reader.range('post', start[o], start[o + 1]) as Uint8Array; },
    allPostings: () => ({ post: reader.range('post', 0, start[names.length]) as Uint8Array, from: (i) => start[owner(i)], to: (i) => start[owner(i) + 1] }),
    find(name) {
      let lo = 0;
      let hi = names.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const v = names.at(mid)!;
        if (v < name) lo = mid + 1; else if (v > name) hi = mid - 1; else return mid;
      }
      return -1;
    },
    current() {
      try {
        const now = statSync(file);
        return now.ino === st.ino && now.size === st.size && now.mtimeMs === st.mtimeMs;
      } catch { return false; }
    },
    close() {
      if (open) closeSync(fd);
      open = false;
    },
  };
}
