// Brings the index up to date with the files under some roots: size + mtime + ctime (or ETag) first,
// then a content hash; only new and changed files are read, cut into the same aligned chunks the ranker scores,
// embedded on the worker pool (a chunk whose text is unchanged keeps its vector) and committed in
// batches; files gone from the roots are dropped. Safe to kill at any point: the next run resumes.
import { createHash } from 'node:crypto';
import { SimgrepError, isSimgrepError } from '../../errors.js';
import type { Executor } from '../../pool.js';
import { createPathReader } from '../../sources/path-reader.js';
import { fileKeys, realPath } from '../../sources/real-paths.js';
import type { RemoteOptions } from '../../sources/remote/options.js';
import { sourcesForPaths } from '../../sources/resolve.js';
import { redactUri } from '../../sources/uri.js';
import { WHOLE_READ_BYTES, streamEntry, type Entry, type Source, type SourceWarning } from '../../sources/source.js';
import { chunkFeatures } from '../snapshot/chunk-features.js';
import { documentState } from '../snapshot/prose-stats-file.js';
import { openChunks } from './file-chunks.js';
import { hexDigest, sha256Hex } from './hex-digest.js';
import { identityOf, underAny, orphanKeys, recordedIdentity, sameIdentity } from '../changes/file-identity.js';
import { ChunkBatch, type PendingChunk } from './chunk-batch.js';
import { loopTurns } from '../../loop-turns.js';
import { emptyChanges, type SnapshotChanges } from '../snapshot/snapshot.js';
import type { FileState, IndexStore } from '../store/store.js';
import { writing } from '../store/writing.js';

/** The counts of an index run: what its progress carries, and its report with more. */
export interface IndexCounts {
  /** Files checked, and how many of them were (re)indexed so far. */
  files: number;
  indexed: number;
  lines: number;
  /** Bytes read so far, of `bytesToRead` (the new and changed files' sizes, known after the check). */
  bytes: number;
  bytesToRead: number;
  /**
   * Chunks of the files indexed so far (cut as they were read; written at their commit), so `indexed`,
   * `lines` and `chunks` count the same files: a local run's as it reads, a cluster build's as it merges
   * its workers' shards (their counts come with each shard's result).
   */
  chunks: number;
  ms: number;
}

/**
 * An index run's progress: its counts only. The report's patch (every row with its vector, files,
 * terms) and warnings went into each one (mend38a): `simgrep serve` sent it to its clients every
 * 100 ms as JSON (1.16 MB each, 14.9 MB the last on a 72k-line tree; past V8's largest string on a
 * ~2.5M-line tree, failing the run). `never` here makes a report passed as a progress a type error:
 * build one with progressOf().
 */
export interface IndexProgress extends IndexCounts {
  patch?: never;
  warnings?: never;
}

/** The counts of `r` (a report so far), as a progress. */
export function progressOf(r: IndexCounts): IndexProgress {
  return { files: r.files, indexed: r.indexed, lines: r.lines, bytes: r.bytes, bytesToRead: r.bytesToRead, chunks: r.chunks, ms: r.ms };
}

/**
 * What brings the index up to date: the local indexer (updateIndex) by default; a cluster build takes
 * the same options and returns the same report, writing the workspace's store only from this process.
 */
export type IndexUpdater = (o: UpdateIndexOptions) => Promise<IndexReport>;

/** What a run changed, to bring the in-memory snapshot up to date without reading the store. */
export type SnapshotPatch = SnapshotChanges;

export interface IndexReport extends IndexCounts {
  unchanged: number;
  /** Of `indexed`, the files that were indexed before and changed (the rest are new); local runs count it. */
  changed?: number;
  deleted: number;
  /** Chunks written, and how many of them kept their vector (unchanged text). */
  chunks: number;
  reused: number;
  errors: number;
  warnings: SourceWarning[];
  patch: SnapshotPatch;
}

export interface UpdateIndexOptions {
  store: IndexStore;
  /** Where to embed, once it is known how many bytes there are to read. */
  executor: (bytesToRead: number) => Promise<Executor>;
  chunkLines: number;
  /** Paths to walk (files or directories, s3://, gs://, az:// and http(s):// URIs). */
  roots: string[];
  /** How remote roots are reached (endpoint, timeouts); credentials come from this machine's settings. */
  remote?: RemoteOptions;
  /** Drop indexed files under the roots that the walk no longer finds (false: only add and update). */
  deleteMissing: boolean;
  /** Indexed files to drop (the caller found them gone), when it passes `entries`. */
  drop?: string[];
  /**
   * The workspace's roots (real paths, as its meta keeps them) when the run saves: indexed files under
   * none of them are dropped too (file-identity.ts orphanKeys).
   */
  within?: string[];
  /** Check exactly these entries instead of walking the roots. */
  entries?: Entry[];
  /** The indexed files' states when the caller has them (the snapshot's); else read from the store. */
  states?: FileState[];
  /** A local directory where a big run's term triples wait for the snapshot (see KeyTriples); none: in memory. */
  spillDir?: string;
  signal?: AbortSignal;
  onProgress?: (p: IndexProgress) => void;
  /**
   * Once every new chunk is embedded (the last commit may still be writing), with the bytes read: a big
   * run can let its worker threads go before its last commit and the snapshot, not after.
   */
  onEmbedded?: (bytesRead: number) => Promise<void> | void;
  /**
   * A run that walks its roots (no `entries`) tells, once it has listed them, what the listing found:
   * every entry as listed, its warnings, the directories it read and when it started (the workspace
   * keeps it as the walk record the next run's check of what changed starts from).
   */
  onWalked?: (walk: WalkListing) => void;
  /**
   * Each file read whole (up to WHOLE_READ_BYTES), with the state it is indexed under, once its chunks
   * are queued: a resident process keeps its prose files' bytes and counts their line terms while the
   * build goes on (search/kept-documents.ts), so its first indexed search need not. `bytes()` joins the
   * file's chunks: only a caller that keeps the file pays for it.
   */
  onFileRead?: (state: FileState, bytes: () => Uint8Array) => void;
  /** Each embedded chunk's exact pooled sum, as the run embeds it (chunk-batch.ts onSums): a resident process keeps them. */
  onSums?: (chunks: PendingChunk[], sums: Float64Array) => void;
}

export interface WalkListing { entries: Entry[]; warnings: SourceWarning[]; listed: string[]; startedMs: number }

export async function updateIndex(o: UpdateIndexOptions): Promise<IndexReport> {
  const started = performance.now();
  const patch: SnapshotPatch = emptyChanges({ spillDir: o.spillDir });
  const report: IndexReport = { files: 0, indexed: 0, lines: 0, bytes: 0, bytesToRead: 0, ms: 0, unchanged: 0, deleted: 0, chunks: 0, reused: 0, errors: 0, warnings: [], patch };
  const states = new Map((o.states ?? await o.store.fileStates()).map((s) => [s.key, s]));
  // Checked under the caller's lock: nothing else writes while the run does.
  const fresh = await o.store.isEmpty();
  const seen = new Set<string>();
  const newBatch = (executor: Executor) => new ChunkBatch({
    store: o.store, executor, chunkLines: o.chunkLines, signal: o.signal, fresh,
    onEmbedded: o.onEmbedded && (() => o.onEmbedded!(report.bytes)),
    onSums: o.onSums,
    onCommit(c) {
      report.chunks += c.chunks.length;
      report.reused += c.reused;
      patch.files.push(...c.files);
      const dim = c.chunks.length > 0 ? c.halves.length / c.chunks.length : 0;
      c.chunks.forEach((k, i) => {
        patch.terms.add(patch.rows.length, k.identifiers);
        patch.terms.addDefs(patch.rows.length, k.defs);
        patch.rows.push({
          path: k.path, start: k.start, end: k.end, halves: c.halves.subarray(i * dim, (i + 1) * dim), hasTokens: c.hasTokens[i],
          chars: k.chars, blank: k.blank, defs: k.defs,
        });
      });
    },
  });
  const listed: string[] = [];
  const walkStarted = Date.now();
  const listing = o.entries ? [] : await sourcesForPaths(o.roots, { remote: o.remote, listOnly: true, onListed: o.onWalked && ((d) => { listed.push(d); }) });
  const walked: Entry[] = [];
  const source = createPathReader({ remote: o.remote });
  const entries: AsyncIterable<Entry> = o.entries ? iterate(o.entries) : listAll(listing, o.signal);
  // Listing problems count as errors, as in a scan (a file too large is a skip).
  const drainListing = () => {
    const ws = listing.flatMap((l) => l.drainWarnings?.() ?? []);
    report.errors += ws.filter((w) => w.code !== 'TOO_LARGE').length;
    return ws;
  };
  let lastProgress = 0;
  const keyOf = fileKeys(o.roots);

  const unreadable = (entry: Entry, e: unknown) => {
    if (isSimgrepError(e) && (e.code === 'ABORTED' || e.code.startsWith('INDEX_') || e.code === 'WORKER_FAILED')) throw e;
    report.errors++;
    report.warnings.push(unreadableWarning(entry.path, e));
  };
  // First what changed (a stat per file, cheap), so progress knows how much is left to read.
  const work: { entry: Entry; key: string; id: { size: number; mtime: number; ctime: number }; prev: FileState | undefined }[] = [];
  // Before any stat: a file changed since (or just before) is recorded as one to hash again (recordedIdentity).
  const statStartedMs = Date.now();
  // Other calls of the process (a resident engine's status, search) get the event loop every few ms.
  const turns = loopTurns();
  for await (const entry of entries) {
    if (o.signal?.aborted) throw new SimgrepError('ABORTED', 'indexing was aborted');
    if (turns.due()) await turns.take();
    if (o.onWalked) walked.push(entry);
    const key = keyOf(entry.path);
    // A file reached through two overlapping roots is checked (and indexed) once.
    if (seen.has(key)) continue;
    seen.add(key);
    report.files++;
    try {
      const st = identityOf(entry);
      const prev = states.get(key);
      if (prev && sameIdentity(st, prev)) { report.unchanged++; continue; }
      work.push({ entry, key, id: recordedIdentity(key, st, statStartedMs), prev });
      report.bytesToRead += Math.max(0, st.size);
    } catch (e) {
      unreadable(entry, e);
    }
  }
  const listingWarnings = drainListing();
  report.warnings.push(...listingWarnings);
  if (!o.entries) o.onWalked?.({ entries: walked, warnings: listingWarnings, listed, startedMs: walkStarted });
  const batch = newBatch(await o.executor(report.bytesToRead));
  for (const w of work) {
    if (o.signal?.aborted) throw new SimgrepError('ABORTED', 'indexing was aborted');
    if (turns.due()) await turns.take();
    try {
      const read = await indexFile(source, w.entry, w.key, w.id, w.prev, batch, patch, o.chunkLines, o.signal, o.onFileRead);
      report.bytes += read.bytes;
      if (!read.changed) { report.unchanged++; continue; }
      report.indexed++;
      if (w.prev) report.changed = (report.changed ?? 0) + 1;
    } catch (e) {
      unreadable(w.entry, e);
    }
    report.lines = batch.linesSeen;
    const now = performance.now();
    // Chunks as cut from the files read so far, as `indexed` and `lines` count them: those committed
    // alone stayed 0 while files grew, a commit holding 65,536 lines (trial37's MCP status).
    if (o.onProgress && now - lastProgress > 100) { lastProgress = now; o.onProgress(progressOf({ ...report, chunks: batch.chunksSeen, ms: now - started })); }
  }
  report.warnings.push(...drainListing());
  await batch.finish();
  report.lines = batch.linesSeen;
  await dropMissing(o, report, states.keys(), seen);
  report.ms = performance.now() - started;
  // One last progress with the run's final counts (files indexed, chunks written): the caller publishes
  // next, and what shows the progress meanwhile (the MCP status of a background build) says it all.
  o.onProgress?.(progressOf(report));
  return report;
}

/**
 * Reads one file that looks changed: its bytes read, and whether its content hash differs from the
 * indexed one (else only its size, mtime and ctime are updated; when it did, its chunks were queued).
 */
async function indexFile(source: Source, entry: Entry, key: string, st: { size: number; mtime: number; ctime: number }, prev: FileState | undefined, batch: ChunkBatch, patch: SnapshotPatch, chunkLines: number, signal?: AbortSignal, onRead?: UpdateIndexOptions['onFileRead']): Promise<{ bytes: number; changed: boolean }> {
  // Small files are read once; big ones twice (hash, then chunks), so memory stays bounded.
  const parts: Uint8Array[] | null = st.size > WHOLE_READ_BYTES ? null : [];
  const hash = parts ? null : createHash('sha256');
  let size = 0;
  for await (const chunk of streamEntry(source, entry, signal)) {
    if (parts) parts.push(chunk); else hash!.update(chunk);
    size += chunk.length;
  }
  const digest = parts ? sha256OfParts(parts) : hash!.digest('hex');
  // A listing that gave no size (an https URL without Content-Length, a single object not stat'ed): the
  // index keeps the bytes read, so stats and status count them (before: -1, "-1 bytes"), and no mtime,
  // which marks the size as one a later read may not take (snapshot.ts sizeToRead: it may have changed).
  const kept = st.size >= 0 ? st : { size, mtime: -1, ctime: st.ctime };
  if (prev && prev.hash === digest) {
    const same = { ...prev, size: kept.size, mtime: kept.mtime, ctime: kept.ctime };
    await batch.fileDone(same);
    if (parts && onRead) onRead(same, () => joined(parts));
    return { bytes: size, changed: false };
  }
  const opened = await openChunks(parts ? iterate(parts) : streamEntry(source, entry, signal), chunkLines);
  const state: FileState = { key, size: kept.size, mtime: kept.mtime, ctime: kept.ctime, hash: digest, kind: opened.binary ? 'binary' : 'text', lines: 0, chunks: 0 };
  batch.fileStarted(key, prev !== undefined);
  patch.dropChunksOf.add(key);
  const docState = documentState(state);
  for await (const c of opened.chunks) {
    const f = chunkFeatures(c.lines, patch.terms.identifiers);
    await batch.addChunk({
      path: key, start: c.start, end: c.end, chars: f.chars, blank: f.blank, identifiers: f.identifiers, defs: f.definitions,
      hash: hexDigest('sha1', c.bytes), state: docState, bytes: c.bytes, offsets: c.offsets,
    });
    state.chunks++;
  }
  state.lines = opened.lines();
  await batch.fileDone(state);
  if (parts && onRead) onRead(state, () => joined(parts));
  return { bytes: size, changed: true };
}

function joined(parts: Uint8Array[]): Uint8Array {
  return parts.length === 1 ? parts[0] : Buffer.concat(parts);
}

function sha256OfParts(parts: Uint8Array[]): string {
  if (parts.length === 1) return sha256Hex(parts[0]);
  const hash = createHash('sha256');
  for (const p of parts) hash.update(p);
  return hash.digest('hex');
}

/** The warning for an indexed path that cannot be read. */
export function unreadableWarning(p: string, e: unknown): SourceWarning {
  return { path: p, code: 'PATH_UNREADABLE', message: `${p}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); check it exists and its permissions` };
}

/**
 * Drops the indexed files that are gone, recording them in the report and its patch: with
 * `deleteMissing`, those under the roots that the listing did not see (`seen`; a root whose listing
 * failed part-way, store down or access denied, keeps its indexed files), else those the caller found
 * gone (`drop`); and, with `within`, those under none of the workspace's roots.
 */
export async function dropMissing(o: Pick<UpdateIndexOptions, 'roots' | 'store' | 'deleteMissing' | 'drop' | 'within'>, report: IndexReport, indexed: Iterable<string>, seen: Set<string>): Promise<void> {
  const keys = [...indexed];
  const gone = new Set<string>(o.deleteMissing ? [] : o.drop ?? []);
  if (o.deleteMissing) {
    const failed = new Set(report.warnings.filter((w) => w.code !== 'TOO_LARGE' && w.code !== 'PATH_NOT_FOUND').map((w) => w.path));
    const roots = o.roots.filter((r) => !failed.has(redactUri(r))).map(realPath);
    const under = underAny(roots);
    for (const k of keys) if (!seen.has(k) && under(k)) gone.add(k);
  }
  if (o.within) for (const k of orphanKeys(keys, o.within)) if (!seen.has(k)) gone.add(k);
  if (o.deleteMissing || gone.size > 0) await dropKeys(o.store, report, [...gone]);
}

/** Drops these indexed files, recording them in the report and its patch. */
async function dropKeys(store: IndexStore, report: IndexReport, gone: string[]): Promise<void> {
  await writing(() => store.deleteFiles(gone));
  for (const k of gone) { report.patch.dropFiles.add(k); report.patch.dropChunksOf.add(k); }
  report.deleted = gone.length;
}

async function* iterate<T>(xs: T[]): AsyncIterable<T> { yield* xs; }

async function* listAll(sources: Source[], signal?: AbortSignal): AsyncIterable<Entry> {
  for (const s of sources) yield* s.list(signal);
}
