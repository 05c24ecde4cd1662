// The Source seam: WHAT to search. list() streams entries; read()/stream() fetch their bytes.
import type { Piece } from '../text/line-splitter.js';
import type { LineTokens, PathFacts, ProseLineTerms, ProsePlanTerms } from '../types.js';

export interface Entry {
  /** How results name this file: a path as the user gave it, or a full URI. */
  path: string;
  /** Size in bytes when known up front (used for --max-filesize). */
  size?: number;
  /**
   * The path the ranking reads (its words, its test and side-code marks): relative to the searched
   * directory it was found under, a named file's own name; where absent, `path`. Not the path as the user
   * spelled the root: `tree`, `/abs/tree` and `.` in tree gave other scores and, with a query word in a
   * directory above, other files (audit44).
   */
  rank?: string;
  /** Its path's facts (rank/path-signals.ts pathFacts of `rank`) where the source knows them (a workspace's coverage): not worked out again to rank it. */
  facts?: PathFacts;
  /** When an object store's listing says it was last written (ms since the epoch); the index's change check. */
  modifiedMs?: number;
  /** The ETag (Cloud Storage: the generation) an object store's listing gave: it changes with every write, within the second too. */
  etag?: string;
  /** Named by the user (not found by a walk): a skip is said, never silent. */
  named?: boolean;
  /** A pipe or device named explicitly: opened without blocking the thread, read until its end. */
  pipe?: boolean;
}

/** Files and objects up to this size are read whole; bigger ones stream in chunks of STREAM_CHUNK_BYTES. */
export const WHOLE_READ_BYTES = 8 << 20;
export const STREAM_CHUNK_BYTES = 1 << 20;

/** A per-item problem: reported, counted, and the run goes on. */
export interface SourceWarning {
  path: string;
  code: string;
  message: string;
}

/**
 * The warnings about the whole search, not a file (path ''): the query was searched by its words alone,
 * was stop words or numbers only, or -J was capped. Their messages name no place; no other path-less
 * warning's message is known to be free of one (a worker's error, a missing path).
 */
export const WHOLE_SEARCH_CODES: ReadonlySet<string> = new Set(['QUERY_WORDS_ONLY', 'QUERY_STOP_WORDS', 'QUERY_NUMBERS_ONLY', 'CONCURRENCY_CAPPED']);

export interface Source {
  list(signal?: AbortSignal): AsyncIterable<Entry>;
  read(entry: Entry, signal?: AbortSignal): Promise<Uint8Array>;
  /** Optional capability: stream big entries in chunks; the pipeline falls back to read(). */
  stream?(entry: Entry, signal?: AbortSignal): AsyncIterable<Uint8Array>;
  /** Warnings found while listing (missing paths, unreadable dirs), drained by the pipeline. */
  drainWarnings?(): SourceWarning[];
  /**
   * Optional capability of a source that already knows which lines can match (the workspace index's
   * candidate chunks): the pieces to score, each with up to `contextLines` lines of context around
   * it, in file order. The pipeline then scores only these instead of splitting the whole entry.
   */
  pieces?(entry: Entry, contextLines: number, signal?: AbortSignal): Promise<Piece[]>;
  /**
   * Optional capability of a source that knows, before reading an entry, whether any of its lines can
   * hold one of a ranking's terms (a whole identifier equal to `key`, lower-cased, or a part whose stem
   * is `key`): false only when none can (the workspace index's postings say so). The pipeline reads
   * such entries after the others and skips one whose best case cannot enter its full top-k.
   */
  holdsAnyTerm?(entry: Entry, terms: readonly { key: string; whole: boolean }[]): boolean;
  /**
   * Optional capability of a source that keeps its prose entries' line terms (the workspace index: a
   * resident process's counted documents, or the index's statistics file): an entry's, as its bytes now
   * read, for at least `plan`'s terms and grams, or null when not kept (the pipeline then reads and
   * counts it). The pipeline takes the entry's statistics and best line's bound from them and skips it
   * unread when that bound cannot enter its full top-k.
   */
  proseLines?(entry: Entry, plan: ProsePlanTerms): ProseLineTerms | null;
  /**
   * Optional, with proseLines: the entry's line terms with what proseLines could only bound (the index's
   * statistics file: each gram at its most in every line) counted from its bytes, read now; null when
   * proseLines' are exact already or the bytes are not what it counted. The pipeline asks for it when
   * proseLines' bound reaches its top-k, before it reads and scores the whole entry.
   */
  proseLinesRead?(entry: Entry, plan: ProsePlanTerms): Promise<ProseLineTerms | null>;
  /**
   * Optional capability of a source that keeps its prose entries' line tokens (a resident workspace:
   * embed/line-cosines.ts): at least the greatest cosine of any of the entry's lines to `query` (the
   * search's unit vector, as the executor scores them), 1 when it cannot tell. The pipeline bounds an
   * entry's best line with it instead of a cosine of 1.
   */
  proseCosine?(entry: Entry, query: Float32Array): number;
  /**
   * Optional, with proseCosine: at least each of the entry's lines' cosine to `query` (line: its index in
   * the entry; Infinity when it cannot tell), or null when it keeps no line tokens for the entry.
   */
  proseLineCosine?(entry: Entry, query: Float32Array): ((line: number) => number) | null;
  /**
   * Optional, with proseCosine: the entry's kept line tokens (its lines as the executor's tokenizer cut them,
   * case kept), or null when none are kept. A scorer of the same model takes a line's ids from them instead
   * of tokenizing it again (embed/prose-scoring.ts).
   */
  proseTokens?(entry: Entry): LineTokens | null;
  /**
   * Optional, with holdsAnyTerm: the bound the source listed a prose entry by, when it worked it out for
   * this very plan (the same object; undefined otherwise, or when it had none): at most the distance of
   * every line of the entry at any cosine. The pipeline skips an entry whose bound is past its floor
   * without working it out again.
   */
  listedBound?(entry: Entry, plan: ProsePlanTerms): number | undefined;
  /**
   * Optional, with listedBound: list() for this very plan (the same object; null for another), once the
   * pipeline has scored everything listed before and its full top-k's floor is `floor` (Infinity: not
   * full): the entries whose listed bound is past the floor are left out and counted in `left` (the
   * pipeline would skip each at its turn unread: the floor only falls; it counts them as searched once it
   * is through the listing, not when a deadline cuts it before), the others in list()'s order.
   */
  listWithin?(plan: ProsePlanTerms, floor: number): { entries: Entry[]; left: number } | null;
  /** True when the source is small enough to score on the calling thread (no worker start-up). */
  readonly small?: boolean;
}

/** All of a stream's chunks as one buffer (no copy when there is a single chunk). */
export async function collectBytes(chunks: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const c of chunks) parts.push(c);
  return parts.length === 1 && Buffer.isBuffer(parts[0]) ? parts[0] : Buffer.concat(parts);
}

/** Reads an entry as a stream, using the capability when present, read() otherwise. */
export async function* streamEntry(source: Source, entry: Entry, signal?: AbortSignal): AsyncIterable<Uint8Array> {
  if (source.stream) yield* source.stream(entry, signal);
  else yield await source.read(entry, signal);
}
