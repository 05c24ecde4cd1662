// The candidate files' text kept by a process that searches again (the MCP engine, simgrep serve): each
// code file's lines as a search reads them (build/file-chunks.ts: binary sniff, UTF-16 transcoded, long
// lines cut), as bytes with their line offsets, so a warm search's window is a slice of them, not a read
// of the file and a decode of its lines. Kept under the index's state of the file (key, size, mtime,
// hash): a change the index sees is a miss, and the file is read again. The ctime is left out: every text
// kept under a state is bytes whose SHA-256 is that state's hash (setBytes: the bytes the build hashed;
// set: only after readWhole found the hash), so two states with one key hold the same text, and a change
// that moves only the ctime is seen by the stale check, which then records the new state.
import { createHash } from 'node:crypto';
import { BoundedLru } from '../../bounded-lru.js';
import { openChunks } from '../build/file-chunks.js';
import { looksBinary } from '../../text/decode.js';
import { hasUtf8Bom, utf16Bom } from '../../text/encoding.js';
import { MAX_LINE_BYTES } from '../../text/long-lines.js';

/** Bytes kept in all (text and offsets, 64 more counted per file): the bench tree's 7,650 code files take 43 MiB. */
export const KEPT_TEXT_BYTES = 48 << 20;

/** A file is kept whole up to this many bytes; a bigger one is read up to its last window each time. */
export const KEPT_TEXT_FILE_BYTES = 1 << 20;

const NEWLINE = 10;

/** A file's lines [0, lines) as read: their bytes, each line ending with \n, and where each starts (lines + 1 offsets). */
export interface FileText {
  bytes: Uint8Array;
  offsets: Uint32Array;
  /** The file ends at its last line (not read in part). */
  whole: boolean;
}

/** Files' text by state, least recently used dropped first once over the bound. */
export class KeptText {
  /** A file's text, or its bytes as an index build read them (cut into lines when a search first asks). */
  private readonly files: BoundedLru<FileText | Uint8Array>;

  constructor(limit = KEPT_TEXT_BYTES) {
    this.files = new BoundedLru(limit);
  }

  /** The kept text of the file in this state (now the most recently used), or null. */
  async get(state: string, chunkLines: number): Promise<FileText | null> {
    const kept = this.files.get(state);
    if (!(kept instanceof Uint8Array)) return kept ?? null;
    const text = await readText(once(kept), chunkLines);
    // Kept again unless it went meanwhile (the bound, or another state's search).
    if (this.files.peek(state)?.value === kept) this.set(state, text);
    return text;
  }

  has(state: string): boolean {
    return this.files.peek(state) !== undefined;
  }

  /** Keeps a whole file's text (one read in part, or past the per-file bound, is not kept). */
  set(state: string, text: FileText): void {
    if (!text.whole || text.bytes.length > KEPT_TEXT_FILE_BYTES) return;
    this.files.set(state, text, sizeOf(text));
  }

  /**
   * Keeps a file's bytes as read, the very bytes its state's hash is of (an index build's: publish.ts), in a
   * buffer of their own (a read's may be a view of a bigger one): cut into lines now where a cut at each
   * newline is all readText would do (cutLines: nearly every code file), else when a search first asks.
   * Cut here, a question's candidate files cost it no cut (newq44: ~22 files, ~1 ms of a first-time search's
   * main thread on the bench tree, where the engine built its index; ~10 us a file here, on the build's time).
   */
  setBytes(state: string, bytes: Uint8Array): void {
    if (bytes.length > KEPT_TEXT_FILE_BYTES || this.has(state)) return;
    const text = cutLines(bytes);
    if (text) this.files.set(state, text, sizeOf(text));
    else this.files.set(state, bytes.slice(), bytes.length + 64);
  }

  /** Whether the file in this state is kept cut into lines (not as bytes a search would cut first: tests). */
  cut(state: string): boolean {
    const kept = this.files.peek(state);
    return kept !== undefined && !(kept.value instanceof Uint8Array);
  }

  /** Files and bytes held (benches). */
  held(): { files: number; bytes: number } {
    return { files: this.files.size, bytes: this.files.total };
  }

  /** How many of the files held are kept cut into lines (tests, benches). */
  heldCut(): number {
    let n = 0;
    for (const v of this.files.values()) if (!(v instanceof Uint8Array)) n++;
    return n;
  }
}

/** The text a resident process keeps of the files its searches read and its index build read (search-run.ts, publish.ts, warm-chunks.ts). */
export const keptText = new KeptText();

function sizeOf(text: FileText): number {
  return text.bytes.byteLength + text.offsets.byteLength + 64;
}

/**
 * A file's whole text read as a search reads it, and whether its bytes are the ones the index holds (their
 * SHA-256 is `indexedHash`). Not so, the file changed where its stat cannot tell (its size, mtime and ctime
 * as indexed: an edit after the search's stale check): what the index knows of its chunks (kept text, sums,
 * distances, signals) is the old text's, so it is
 * not kept under the old state nor trusted (candidate-source.ts, warm-chunks.ts).
 */
export async function readWhole(raw: AsyncIterable<Uint8Array>, chunkLines: number, indexedHash: string): Promise<{ text: FileText; indexed: boolean }> {
  const hash = createHash('sha256');
  const text = await readText((async function* () {
    for await (const bytes of raw) {
      hash.update(bytes);
      yield bytes;
    }
  })(), chunkLines);
  return { text, indexed: hash.digest('hex') === indexedHash };
}

/**
 * A file's text read as a search reads it (its bytes as they stream in), up to line `upTo` (the file's
 * end if it comes first; Infinity: whole). A last line without a terminator gets one, so that every
 * line's bytes end with \n (what a piece's lines must: the batch packer puts pieces one after the other).
 */
export async function readText(raw: AsyncIterable<Uint8Array>, chunkLines: number, upTo = Infinity): Promise<FileText> {
  const opened = await openChunks(raw, chunkLines, { decode: false });
  const parts: { bytes: Uint8Array; offsets: Uint32Array }[] = [];
  let lines = 0;
  let size = 0;
  let whole = true;
  for await (const chunk of opened.chunks) {
    parts.push(chunk);
    lines += chunk.offsets.length - 1;
    size += chunk.bytes.length;
    if (chunk.end >= upTo) { whole = false; break; }
  }
  const last = parts[parts.length - 1];
  const open = last !== undefined && last.bytes.length > 0 && last.bytes[last.bytes.length - 1] !== NEWLINE;
  const bytes = new Uint8Array(size + (open ? 1 : 0));
  const offsets = new Uint32Array(lines + 1);
  let at = 0;
  let line = 0;
  for (const p of parts) {
    bytes.set(p.bytes, at);
    for (let i = 0; i < p.offsets.length - 1; i++) offsets[line++] = at + p.offsets[i];
    at += p.bytes.length;
  }
  if (open) bytes[at++] = NEWLINE;
  offsets[lines] = at;
  // A read that stopped exactly at the file's end is whole too, but cannot tell: it is not kept.
  return { bytes, offsets, whole };
}

/**
 * A whole file's bytes as readText cuts them, on this thread, where that is a cut at each newline: UTF-8
 * text without a byte-order mark (openText drops a UTF-8 one and transcodes UTF-16), no NUL in its first
 * 8 KiB (binary: no lines), no line past MAX_LINE_BYTES (long-lines.ts cuts it), not empty. The bytes are
 * copied (a last line without a newline gets one, as readText gives it); null where readText does more.
 */
export function cutLines(bytes: Uint8Array): FileText | null {
  const n = bytes.length;
  if (n === 0 || utf16Bom(bytes) !== null || hasUtf8Bom(bytes) || looksBinary(bytes)) return null;
  // The lines' starts in one pass, into a scratch array grown as needed (the offsets are then a copy of its head).
  let lines = 0;
  for (let at = 0; at < n;) {
    const nl = bytes.indexOf(NEWLINE, at);
    const end = nl < 0 ? n : nl;
    if (end - at > MAX_LINE_BYTES) { releaseScratch(); return null; }
    if (lines + 1 >= starts.length) { const grown = new Uint32Array(starts.length * 2); grown.set(starts); starts = grown; }
    starts[lines++] = at;
    at = end + 1;
  }
  const open = bytes[n - 1] !== NEWLINE;
  const out = new Uint8Array(n + (open ? 1 : 0));
  out.set(bytes);
  if (open) out[n] = NEWLINE;
  starts[lines] = out.length;
  const offsets = starts.slice(0, lines + 1);
  releaseScratch();
  return { bytes: out, offsets, whole: true };
}

/** A file of very many lines does not leave its scratch behind (up to 8 MiB for a 1 MiB file of newlines), cut or declined. */
function releaseScratch(): void {
  if (starts.length > SCRATCH_LINES) starts = new Uint32Array(SCRATCH_LINES);
}

/** cutLines' scratch of line starts (kept: an index build cuts thousands of files one after the other), as long as this kept. */
const SCRATCH_LINES = 1 << 16;
let starts = new Uint32Array(4096);

/** Lines [from, to) of a file's text: a view of their bytes, and their offsets from 0 (a piece's, a chunk's). */
export function linesOf(text: FileText, from: number, to: number): { bytes: Uint8Array; offsets: Uint32Array } {
  const base = text.offsets[from];
  const offsets = new Uint32Array(to - from + 1);
  for (let i = 0; i < offsets.length; i++) offsets[i] = text.offsets[from + i] - base;
  return { bytes: text.bytes.subarray(base, text.offsets[to]), offsets };
}

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}
