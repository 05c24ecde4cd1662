// Code like a place in a file (find_related, --like PATH:LINE): the chunk around the line, cut where
// the ranker cuts chunks, is the query, and the answer leaves that chunk out. A pasted block of code
// is the same search without the file: its own source ranks first.
import { closeSync, constants, fstatSync, openSync, readFileSync, realpathSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { SimgrepError } from '../errors.js';
import { counted } from '../text/cut.js';
import { looksBinary } from '../text/decode.js';
import { utf16Bom } from '../text/encoding.js';
import { RANK_DEFAULTS } from './plan.js';
import type { SearchResult } from './windows.js';

export interface LikeTarget {
  path: string;
  /** 1-based line. */
  line: number;
}

export interface LikeChunk {
  /** The file's real path. */
  path: string;
  /** 0-based lines [start, end) of the chunk. */
  start: number;
  end: number;
  query: string;
}

/** Candidates asked for beyond top-k: the chunk's own hits are left out of them. */
const OWN_HITS = 4;
/** A chunk's text is at most this long as a query (a 48-line chunk of minified code can be huge). */
const MAX_LIKE_CHARS = 20_000;

export async function likeChunk(t: LikeTarget): Promise<LikeChunk> {
  if (!Number.isInteger(t.line) || t.line < 1) throw new SimgrepError('BAD_FLAG', `the line of ${t.path} must be a whole number >= 1 (got ${t.line})`);
  const size = RANK_DEFAULTS.chunkLines;
  const start = Math.floor((t.line - 1) / size) * size;
  const window = new LineWindow(start, start + size);
  let real: string;
  try {
    real = realpathSync(t.path);
    await readInto(real, window, t.path);
  } catch (e) {
    if (e instanceof SimgrepError) throw e;
    throw new SimgrepError('PATH_NOT_FOUND', `cannot read ${t.path} to find code like it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); pass an existing file`);
  }
  const lines = window.total();
  // The lines to pick from, said: an agent that guessed a line past the end guessed again (agent47).
  if (t.line > lines) throw new SimgrepError('BAD_FLAG', `${t.path} has ${counted(lines, 'line')}; line ${t.line} is past its end: pick one from 1 to ${lines}`);
  const end = Math.min(lines, start + size);
  const query = window.lines.join('\n').slice(0, MAX_LIKE_CHARS);
  if (query.trim() === '') throw new SimgrepError('BAD_QUERY', `lines ${start + 1}-${end} of ${t.path} are blank; pick a line in code`);
  if (!/[\p{L}\p{N}]/u.test(query)) throw new SimgrepError('BAD_QUERY', `lines ${start + 1}-${end} of ${t.path} hold no letter or number, nothing to look for; pick a line in code`);
  return { path: real, start, end, query };
}

/** A file up to this size is read on the calling thread (as a search reads one whole: sources/source.ts WHOLE_READ_BYTES). */
const SYNC_READ_BYTES = 8 << 20;
/** A bigger regular file is read in pieces of this size, up to the chunk's last line. */
const PIECE_BYTES = 1 << 20;

/**
 * The lines [from, to) of a text fed in pieces, each kept to its first MAX_LIKE_CHARS + 1 characters (the query
 * is cut there anyway), and the count of lines seen: a 48-line chunk costs its own lines, not the file. Lines
 * are split as `text.split(/\r?\n/)` splits them, a last empty one dropped.
 */
class LineWindow {
  readonly lines: string[] = [];
  private complete = 0;
  private partial = '';
  private cut = false;
  /** Whether the line being read has a character yet (kept or not). */
  private open = false;
  constructor(private readonly from: number, private readonly to: number) {}

  /** Whether every line of the window is in (no more text is needed). */
  get full(): boolean { return this.complete >= this.to; }

  feed(text: string): void {
    let at = 0;
    while (at <= text.length && !this.full) {
      const nl = text.indexOf('\n', at);
      const piece = nl < 0 ? text.slice(at) : text.slice(at, nl);
      if (piece.length > 0) this.open = true;
      if (this.complete >= this.from && !this.cut) {
        this.partial += piece.slice(0, MAX_LIKE_CHARS + 1 - this.partial.length);
        if (this.partial.length > MAX_LIKE_CHARS) this.cut = true;
      }
      if (nl < 0) return;
      if (this.complete >= this.from) this.lines.push(this.cut || !this.partial.endsWith('\r') ? this.partial : this.partial.slice(0, -1));
      this.complete++;
      this.partial = '';
      this.cut = false;
      this.open = false;
      at = nl + 1;
    }
  }

  /** The file's line count once all of it was fed (an empty file is one empty line, as split gives). */
  total(): number {
    if (this.full) return Infinity;
    if (this.open || this.complete === 0) {
      if (this.complete >= this.from) this.lines.push(this.partial);
      this.partial = '';
      return this.complete + 1;
    }
    return this.complete;
  }
}

/**
 * Feeds `file` (a real path) to `w` decoded as a search decodes it (text/text-stream.ts): a UTF-16 file by its
 * byte-order mark, a binary one (a NUL in its first 8 KiB) refused. A regular file past SYNC_READ_BYTES is read
 * in pieces only up to the chunk's last line: the whole of a 400 MB file was read, decoded and split for a
 * chunk of 48 lines (1.3 GB of memory, trust47). A pipe or device is read whole, as before.
 */
async function readInto(file: string, w: LineWindow, shown: string): Promise<void> {
  let decoder: TextDecoder | null = null;
  const take = (bytes: Uint8Array, last: boolean) => {
    if (!decoder) {
      const utf16 = utf16Bom(bytes);
      if (!utf16 && looksBinary(bytes)) throw new SimgrepError('BAD_QUERY', `${shown} is a binary file (a NUL byte in its first 8 KiB), never searched; pass a line of a text file`);
      // (A UTF-8 byte-order mark is dropped, as the search drops it.)
      decoder = new TextDecoder(utf16 ?? 'utf-8');
    }
    w.feed(decoder.decode(bytes, { stream: !last }));
  };
  const small = readSmall(file);
  if (small === 'big') return readPieces(file, w, take);
  take(small ?? await readFile(file), true);
}

/**
 * The bytes of `file` when it is a regular file of at most SYNC_READ_BYTES, read here: the promise API's open,
 * stat, read and close are four trips through libuv's threads and back for a find_related's ~10 KB (hop40);
 * 'big' for a bigger regular file; else undefined (a pipe or device, or a file that says it is empty, read by
 * the promise API; the open here never waits on a pipe).
 */
function readSmall(file: string): Buffer | 'big' | undefined {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size === 0) return undefined;
    return st.size <= SYNC_READ_BYTES ? readFileSync(fd) : 'big';
  } finally {
    closeSync(fd);
  }
}

/** A big regular file, piece by piece from its start, until the window is full or the file ends. */
async function readPieces(file: string, w: LineWindow, take: (bytes: Uint8Array, last: boolean) => void): Promise<void> {
  const fh = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const buf = Buffer.allocUnsafe(PIECE_BYTES);
    for (let position = 0; ;) {
      let filled = 0;
      while (filled < buf.length) {
        const { bytesRead } = await fh.read(buf, filled, buf.length - filled, position + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      position += filled;
      const last = filled < buf.length;
      take(buf.subarray(0, filled), last);
      if (last || w.full) return;
    }
  } finally {
    await fh.close();
  }
}

/** Whether a result's match lies in the chunk (its own file, compared by real path where it exists). */
function inChunk(r: SearchResult, c: LikeChunk): boolean {
  if (r.match_line < c.start || r.match_line >= c.end) return false;
  const p = path.resolve(r.filename);
  if (p === c.path) return true;
  try { return realpathSync(p) === c.path; } catch { return false; }
}

/** Runs `run` with the chunk at o.like as the query, then leaves the chunk itself out of the answer. */
export async function searchLike<O extends { like?: LikeTarget; query: string; topK?: number; maxDistance?: number }, R extends { results: SearchResult[]; more?: boolean; closestMiss?: SearchResult }>(
  o: O, run: (o: O) => Promise<R>,
): Promise<R> {
  const chunk = await likeChunk(o.like!);
  const topK = o.topK ?? (o.maxDistance !== undefined ? Infinity : 3);
  const r = await run({ ...o, like: undefined, query: chunk.query, topK: topK === Infinity ? undefined : topK + OWN_HITS });
  const others = r.results.filter((x) => !inChunk(x, chunk));
  const results = others.slice(0, topK);
  // Nothing but the chunk itself within --max-distance: the search named no closest miss (it had a result), or
  // the chunk itself. The closest other code is asked for (without the distance), so that the answer names it
  // as any search names its closest miss.
  const ownMiss = r.closestMiss !== undefined && inChunk(r.closestMiss, chunk);
  if (results.length === 0 && o.maxDistance !== undefined && (r.results.length > 0 || ownMiss)) {
    const nearest = await run({ ...o, like: undefined, query: chunk.query, maxDistance: undefined, topK: OWN_HITS + 1 });
    return { ...r, results, more: false, closestMiss: nearest.results.find((x) => !inChunk(x, chunk)) };
  }
  return { ...r, results, more: others.length > results.length || r.more === true };
}
