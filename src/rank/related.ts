// Code like a place in a file (find_related, --like PATH:LINE): the chunk around the line, cut where
// the ranker cuts chunks, is the query, and the answer leaves that chunk out. A pasted block of code
// is the same search without the file: its own source ranks first.
import { closeSync, constants, fstatSync, openSync, readFileSync, realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
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
  let bytes: Buffer;
  let real: string;
  try {
    real = realpathSync(t.path);
    bytes = readSmall(real) ?? await readFile(real);
  } catch (e) {
    throw new SimgrepError('PATH_NOT_FOUND', `cannot read ${t.path} to find code like it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); pass an existing file`);
  }
  // Read as a search reads it (text/text-stream.ts): a UTF-16 file decoded, a binary one never searched.
  const utf16 = utf16Bom(bytes);
  if (!utf16 && looksBinary(bytes)) throw new SimgrepError('BAD_QUERY', `${t.path} is a binary file (a NUL byte in its first 8 KiB), never searched; pass a line of a text file`);
  // (A UTF-8 byte-order mark is dropped, as the search drops it.)
  const text = utf16 ? new TextDecoder(utf16).decode(bytes) : new TextDecoder('utf-8').decode(bytes);
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  // The lines to pick from, said: an agent that guessed a line past the end guessed again (agent47).
  if (t.line > lines.length) throw new SimgrepError('BAD_FLAG', `${t.path} has ${counted(lines.length, 'line')}; line ${t.line} is past its end: pick one from 1 to ${lines.length}`);
  const size = RANK_DEFAULTS.chunkLines;
  const start = Math.floor((t.line - 1) / size) * size;
  const end = Math.min(lines.length, start + size);
  const query = lines.slice(start, end).join('\n').slice(0, MAX_LIKE_CHARS);
  if (query.trim() === '') throw new SimgrepError('BAD_QUERY', `lines ${start + 1}-${end} of ${t.path} are blank; pick a line in code`);
  if (!/[\p{L}\p{N}]/u.test(query)) throw new SimgrepError('BAD_QUERY', `lines ${start + 1}-${end} of ${t.path} hold no letter or number, nothing to look for; pick a line in code`);
  return { path: real, start, end, query };
}

/** A file up to this size is read on the calling thread (as a search reads one whole: sources/source.ts WHOLE_READ_BYTES). */
const SYNC_READ_BYTES = 8 << 20;

/**
 * The bytes of `file` when it is a regular file of at most SYNC_READ_BYTES, read here: the promise API's open,
 * stat, read and close are four trips through libuv's threads and back for a find_related's ~10 KB (hop40);
 * else undefined (read by the promise API: a big file, or a pipe, which the open here never waits on).
 */
function readSmall(file: string): Buffer | undefined {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = fstatSync(fd);
    return st.isFile() && st.size > 0 && st.size <= SYNC_READ_BYTES ? readFileSync(fd) : undefined;
  } finally {
    closeSync(fd);
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
