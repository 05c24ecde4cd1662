// A workspace: a persistent index of some roots that answers searches exactly as a one-shot scan
// would, in milliseconds. search() checks what changed (size + mtime), re-indexes that first, picks
// candidate chunks from the index and lets the ordinary pipeline score them.
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SimgrepError } from '../errors.js';
import { buildRankPlan, RANK_DEFAULTS } from '../rank/plan.js';
import { bundledLexicon } from '../rank/lexical/lexicon.js';
import { CANDIDATES_PER_RESULT } from '../rank/diversify.js';
import { SEARCH_MODES, createSearcher, executorOf, releaseWorkersOf, validate, type ClusterOptions, type SearchOptions, type SearchResponse, type Searcher, type SearcherOptions } from '../searcher.js';
import { createFsSource, isGlob, type FsSourceOptions } from '../sources/fs.js';
import { createPathReader } from '../sources/path-reader.js';
import { sourcesForPaths } from '../sources/resolve.js';
import type { Entry, Source, SourceWarning } from '../sources/source.js';
import { isRemoteUri } from '../sources/uri.js';
import type { ModelData } from '../types.js';
import { defaultModelSpec } from '../model/default-model.js';
import { selectCandidates } from './candidates.js';
import { createCandidateSource } from './candidate-source.js';
import { coverage, fileIndex } from './coverage.js';
import { timer } from './debug-timer.js';
import { fileKey, identityOf, isUnder, sameIdentity } from './file-identity.js';
import { updateIndex, type IndexProgress, type IndexReport, type UpdateIndexOptions, type WalkListing } from './indexer.js';
import { isLock, lockedError, tryLock, type Lock } from './lock.js';
import { INFO_FILE, checkName, covers, readInfo, realPath, workspaceDir, type WorkspaceInfo } from './registry.js';
import { emptyChanges, emptySnapshot, liveChunks, patchSnapshot, type Snapshot } from './snapshot.js';
import { readSnapshotFile, writeSnapshotDelta, writeSnapshotFile } from './snapshot-file.js';
import { STAT_THREAD_FROM_FILES, statMany } from './stat-many.js';
import { rebuildSnapshot } from './snapshot-rebuild.js';
import { lanceStorageOptions } from './storage-options.js';
import type { FileState, IndexStore, SmallFragments } from './store.js';
import { unsavedStore } from './unsaved-store.js';
import { WalkCache, type Walk, type WalkState } from './walk-cache.js';
import { loadWalkRecord, saveWalkRecord, walkRecordFile } from './walk-record.js';
import { checkNotForeign, diskUsage, mergeRoots, modelFingerprint, snapshotPath, workspaceNameOf } from './workspace-files.js';
import { writing } from './writing.js';

/**
 * Re-indexing this many bytes or more starts the worker pool; less is embedded in-process (starting
 * the workers, each loading the model, costs more than it saves on a few files).
 */
const POOL_FROM_BYTES = 1 << 20;
/**
 * An index run that read this much lets the worker threads go once it has embedded everything, before
 * its last commit is written and the snapshot built (a big build's two highest points of memory): their
 * ~40 MB are gone by then. The next search that needs them starts them again (~100 ms, once).
 */
const RELEASE_WORKERS_FROM_BYTES = 16 << 20;

/**
 * A one-shot search that finds at most this many bytes of new and changed files re-reads them for its
 * own answer and saves nothing (see WorkspaceOptions.oneShot): embedding them in-process costs less
 * than loading LanceDB and committing (~300 ms from a cold process).
 */
export const UNSAVED_REFRESH_BYTES = 512 << 10;

/**
 * Bumped when the stored layout, the chunking or the stored chunk features change: older indexes are
 * rebuilt, newer refused. 2: definedName finds definitions behind modifiers (`public final class`).
 */
export const INDEX_FORMAT = 2;

/**
 * Small commits (LanceDB fragments) updates may leave before one compacts them (a rewrite of the
 * table: ~80 ms for the 1M-line tree), beyond those the first build left.
 */
export const COMPACT_AFTER_FRAGMENTS = 16;

/** The walk an index run of `paths` checks for changes (its filters are the defaults), as kept by recordedWalk. */
const indexWalkKey = (paths: string[]): string => JSON.stringify(['index', paths]);

export interface WorkspaceOptions extends SearcherOptions {
  /** A named workspace under $SIMGREP_HOME/workspaces. */
  name?: string;
  /** Or any directory or s3:// prefix (a team can share one index in a bucket). */
  dir?: string;
  /** LanceDB storage options for an s3:// dir; by default from `remote` and the AWS_* settings, as for s3:// sources. */
  storageOptions?: Record<string, string>;
  /** The S3-compatible endpoint of an s3:// dir (as --s3-endpoint). */
  remote?: { s3Endpoint?: string };
  /**
   * Share this searcher (and the model it has loaded) instead of creating one; close() then leaves
   * it open for its owner. The model options above are then ignored (`concurrency: 0` still keeps
   * a search's stat thread off).
   */
  searcher?: Searcher;
  /**
   * A process that lives on (a server): watch the searched directories from the first search, not
   * the second (a one-shot process never pays for watching).
   */
  resident?: boolean;
  /**
   * A process that answers one search and exits (the CLI): a search that finds a few changed files
   * (up to UNSAVED_REFRESH_BYTES) reads them again for its own answer without saving them into the
   * index, and the next search does the same until simgrep index (or a bigger change) saves them.
   */
  oneShot?: boolean;
  /**
   * @internal Tests: the file count from which a search's stats run on two threads
   * (STAT_THREAD_FROM_FILES), so small fixtures take the threaded path.
   */
  statThreadFromFiles?: number;
}

/**
 * What brings the index up to date: the local indexer by default; a cluster build (cluster/) takes the
 * same options and returns the same report, writing the workspace's store only from this process.
 */
export type IndexUpdater = (o: UpdateIndexOptions) => Promise<IndexReport>;

export interface WorkspaceStatus {
  name: string;
  dir: string;
  roots: string[];
  files: number;
  binary: number;
  chunks: number;
  lines: number;
  bytes: number;
  model: string;
  /** Bytes on disk (local workspaces; null for object stores). */
  sizeOnDisk: number | null;
  updated: string | null;
}

export interface Workspace {
  readonly name: string;
  readonly dir: string;
  /**
   * Builds or updates the index of these paths (they become the workspace's roots). With `cluster`, the
   * cluster's workers read and embed the new and changed files and this process merges their rows.
   */
  index(paths: string[], o?: IndexIo): Promise<IndexReport>;
  /** The same options and answers as Searcher.search, from the index when it covers the paths. */
  search(o: SearchOptions): Promise<SearchResponse>;
  status(): Promise<WorkspaceStatus>;
  /** Drops files that no longer exist. */
  prune(): Promise<{ deleted: number }>;
  close(): Promise<void>;
}

/** How an index run reports and stops, and where it runs. */
export interface IndexIo { signal?: AbortSignal; onProgress?: (p: IndexProgress) => void; cluster?: string | ClusterOptions }

/** What changed under an index run's paths since the snapshot (see changesOf). */
interface Changes { stale: Entry[]; gone: string[]; unchanged: number }

/** How indexAndPublish runs: which entries (all walked when none), which keys to drop, and how. */
interface PublishRun {
  /** Check exactly these entries instead of walking the roots (no file is dropped for being unseen). */
  entries?: Entry[];
  /** Indexed files to drop (gone since the snapshot), with `entries`. */
  drop?: string[];
  compact?: boolean;
  signal?: AbortSignal;
  onProgress?: (p: IndexProgress) => void;
  update?: IndexUpdater;
}

/**
 * The walked files the snapshot does not know with their size and mtime (new, changed, unreadable);
 * with `changedDirs`, only files in those directories can have changed. The local files it knows
 * are stat'ed together (on two threads from `threadFromFiles` files: stat-many.ts).
 */
async function staleEntries(snap: Snapshot, walk: Walk, threadFromFiles: number, changedDirs?: Set<string>): Promise<Entry[]> {
  const at = fileIndex(snap);
  const stale = new Uint8Array(walk.entries.length);
  /** Local files the snapshot knows: their walk index, and their file index in the snapshot. */
  const local: number[] = [];
  const known: number[] = [];
  walk.entries.forEach((e, i) => {
    const key = walk.keys[i];
    const f = at.get(key);
    if (f === undefined) { stale[i] = 1; return; }
    if (changedDirs && !changedDirs.has(path.dirname(key))) return;
    // Objects (their listing's size and time) and names kept as bytes are looked at one by one.
    if (isRemoteUri(e.path) || (e as { io?: unknown }).io !== undefined) {
      try { stale[i] = sameIdentity(identityOf(e), snap.files[f]) ? 0 : 1; } catch { stale[i] = 1; }
    } else {
      local.push(i);
      known.push(f);
    }
  });
  const stats = await statMany(local.map((i) => walk.entries[i].path), threadFromFiles);
  local.forEach((i, j) => {
    const size = stats[2 * j];
    stale[i] = size === size && sameIdentity({ size, mtime: stats[2 * j + 1], known: true }, snap.files[known[j]]) ? 0 : 1;
  });
  return walk.entries.filter((_, i) => stale[i] === 1);
}

/** The file states a snapshot holds (of these entries' files only, when given), as the indexer compares them. */
function statesOf(snap: Snapshot, entries?: Entry[]): FileState[] {
  let files = snap.files;
  if (entries) {
    const at = fileIndex(snap);
    files = entries.flatMap((e) => { const f = at.get(fileKey(e.path)); return f === undefined ? [] : [snap.files[f]]; });
  }
  return files.map((f) => ({ key: f.key, size: f.size, mtime: f.mtime, hash: f.hash, kind: f.kind, lines: f.lines, chunks: f.chunkCount }));
}

/** True when these entries come to UNSAVED_REFRESH_BYTES or less (an unreadable one counts as none: the run reports it; one of unknown size as too many). */
function fewBytes(entries: Entry[]): boolean {
  let bytes = 0;
  for (const e of entries) {
    let size = 0;
    try { size = identityOf(e).size; } catch { /* reported by the run */ }
    bytes += size < 0 ? Infinity : size;
    if (bytes > UNSAVED_REFRESH_BYTES) return false;
  }
  return true;
}

/** The report of an index run that found nothing to change. */
function unchangedReport(files: number, ms: number): IndexReport {
  return {
    files, indexed: 0, lines: 0, bytes: 0, bytesToRead: 0, ms, unchanged: files, deleted: 0, chunks: 0, reused: 0, errors: 0, warnings: [],
    patch: emptyChanges(),
  };
}

export function createWorkspace(o: WorkspaceOptions = {}): Workspace {
  if (o.name !== undefined && o.dir !== undefined) throw new SimgrepError('BAD_FLAG', 'pass a workspace name or an index directory, not both');
  if (o.name === undefined && o.dir === undefined) throw new SimgrepError('BAD_FLAG', 'createWorkspace needs a name or a dir');
  const name = o.name !== undefined ? checkName(o.name) : workspaceNameOf(o.dir!);
  const dir = o.dir ?? workspaceDir(name);
  const remote = isRemoteUri(dir);
  const searcher = o.searcher ?? createSearcher(o);
  const chunkLines = RANK_DEFAULTS.chunkLines;
  /** From how many files a search's stats run on two threads; -J 0 means no worker threads at all, so never. */
  const statThreadFromFiles = o.concurrency === 0 ? Infinity : o.statThreadFromFiles ?? STAT_THREAD_FROM_FILES;
  let storeP: Promise<IndexStore> | null = null;
  let snapshot: Snapshot | null = null;
  /** Searches of this workspace under way (an index run lets the worker threads go only when none is). */
  let searching = 0;
  const walks = new WalkCache(o.resident ? 1 : 2);
  /** Reads indexed files back (local paths and URIs, with this machine's credentials). */
  const reader = createPathReader({ remote: o.remote });

  const lockFile = () => (remote ? null : path.join(dir, '.simgrep-lock'));

  async function store(create: boolean): Promise<IndexStore> {
    if (!storeP) {
      if (!remote) {
        if (!create && !existsSync(dir)) throw new SimgrepError('WORKSPACE_NOT_FOUND', `workspace ${name} does not exist (${dir}); create it with simgrep index PATH -w ${name}`);
        checkNotForeign(dir);
        if (create) mkdirSync(dir, { recursive: true });
      }
      const model = await searcher.model();
      // LanceDB (a large native module) is loaded only when a workspace is opened.
      const storageOptions = o.storageOptions ?? await lanceStorageOptions(dir, o.remote);
      storeP = import('./store.js').then(({ openStore }) => openStore(dir, { dim: model.dim, storageOptions }));
      storeP.catch(() => { storeP = null; });
    }
    return storeP;
  }

  /**
   * Meta of the index: null when empty; an error when it is newer than this simgrep. A local
   * workspace's workspace.json carries a copy of the last completed meta, so a reader that finds
   * nothing stale answers without opening LanceDB at all.
   */
  async function meta(): Promise<Record<string, string> | null> {
    const fast = remote ? undefined : readInfo(dir)?.meta;
    const m = fast?.complete ? fast : await (await store(false)).readMeta();
    if (!m.format) return null;
    if (Number(m.format) > INDEX_FORMAT) {
      throw new SimgrepError('INDEX_INCOMPATIBLE', `the index at ${dir} was written by a newer simgrep (index format ${m.format}, this one reads ${INDEX_FORMAT}); upgrade simgrep, or remove the workspace (simgrep workspace rm ${name}) and index again`);
    }
    return m;
  }

  function withLock<T>(fn: () => Promise<T>): Promise<T> {
    const file = lockFile();
    if (!file) return fn();
    const got = tryLock(file);
    if (!isLock(got)) throw lockedError(name, got, file);
    return fn().finally(() => (got as Lock).release());
  }

  /**
   * The ranking snapshot of the last completed version (meta `complete`; a write in progress is never
   * seen): in memory, else on disk, else rebuilt from the store as of that version.
   */
  async function loadSnapshot(): Promise<Snapshot> {
    const version = (await meta())?.complete ?? await (await store(false)).version();
    if (snapshot && snapshot.version === version) return snapshot;
    snapshot = readSnapshotFile(snapshotPath(dir, remote), version);
    if (snapshot) return snapshot;
    const model = await searcher.model();
    const rebuilt = await rebuildSnapshot(await store(false), version, model.dim, chunkLines, reader);
    snapshot = rebuilt;
    saveSnapshot(rebuilt);
    return rebuilt;
  }

  /** Writes the base file when the snapshot is compacted, else only the delta of what it appended. */
  function saveSnapshot(snap: Snapshot): void {
    const file = snapshotPath(dir, remote);
    try {
      mkdirSync(path.dirname(file), { recursive: true });
      if (snap.version === snap.baseVersion) writeSnapshotFile(file, snap); else writeSnapshotDelta(file, snap);
    } catch { /* read-only: rebuilt next time */ }
  }

  /**
   * Runs the indexer (the caller holds the lock), then publishes the result: the snapshot patched
   * with what changed (rebuilt from the store if the last run did not complete), written next to the
   * index, then the new version marked complete for readers.
   */
  async function indexAndPublish(s: IndexStore, roots: string[], run: PublishRun): Promise<IndexReport> {
    const { entries, drop, compact = false, signal, onProgress, update = updateIndex } = run;
    const mark = timer('index');
    const model = await searcher.model();
    const latest = await s.version();
    const metaBefore = await s.readMeta();
    const before = metaBefore.complete === latest ? await loadSnapshot() : null;
    const executor = (bytesToRead: number) => executorOf(searcher, bytesToRead >= POOL_FROM_BYTES);
    mark('snapshot read');
    const states = before ? statesOf(before) : undefined;
    // Term triples wait on the disk the index goes to (the system's temp directory may be memory).
    const spillDir = remote ? tmpdir() : dir;
    // Only threads of its own searcher that no search is using (a shared searcher's may be busy elsewhere).
    const releaseWorkers = async (bytesRead: number) => {
      if (bytesRead >= RELEASE_WORKERS_FROM_BYTES && !o.searcher && searching === 0) await releaseWorkersOf(searcher);
    };
    // A walk of local roots is kept: the next index run of them starts from it instead of listing them again.
    const onWalked = entries === undefined && !roots.some(isRemoteUri) ? (w: WalkListing) => recordIndexWalk(roots, w) : undefined;
    const report = await update({ store: s, executor, chunkLines, roots, remote: o.remote, deleteMissing: entries === undefined, entries, drop, states, signal, onProgress, spillDir, onEmbedded: releaseWorkers, onWalked });
    // What only collecting needed goes before the snapshot is built: a big run's identifier table and key lookups.
    report.patch.terms.settle();
    // An updater that never said it was done embedding (a cluster build) has its threads let go here.
    await releaseWorkers(report.bytes);
    mark('update');
    const smallFragments = compact ? JSON.stringify(await compactAfter(s, metaBefore.smallFragments, latest === '0.0')) : undefined;
    mark('compact');
    const version = await s.version();
    const base = before ?? (latest === '0.0' ? emptySnapshot(model.dim) : null);
    const next = base ? patchSnapshot(base, report.patch, version, { consume: true }) : await rebuildSnapshot(s, version, model.dim, chunkLines, reader);
    // The changes are in the snapshot now: let them go before it is saved (a first build's terms and vectors are a third of its memory).
    report.patch = emptyChanges();
    snapshot = next;
    mark('snapshot');
    if (version !== latest || !before) saveSnapshot(next);
    mark('save');
    publishInfo(await writing(() => s.writeMeta({ complete: version, ...(smallFragments && { smallFragments }) })));
    mark('publish');
    return report;
  }


  async function compatible(model: ModelData): Promise<{ ok: boolean; why?: string; m: Record<string, string> | null }> {
    const m = await meta();
    if (!m) return { ok: true, m };
    if (m.fingerprint !== modelFingerprint(model)) return { ok: false, why: `it was built with model ${m.model}, not ${model.id}`, m };
    if (Number(m.format) !== INDEX_FORMAT || Number(m.chunkLines) !== chunkLines) return { ok: false, why: 'it was built by an older simgrep', m };
    return { ok: true, m };
  }

  /** A search of the workspace (see Workspace.search). */
  async function searchWorkspace(so: SearchOptions): Promise<SearchResponse> {
    const started = performance.now();
    const paths = so.paths ?? [];
    validate(so);
    const mark = timer('search');
    const fallback = (reason: string | null) => searcher.search(so).then((r) => (reason ? { ...r, warnings: [...r.warnings, { path: dir, code: 'INDEX_NOT_USED', message: `workspace ${name} not used: ${reason}` }] } : r));
    if ((so.mode ?? 'hybrid') === 'line' || so.ignoreCase || (so.sources?.length ?? 0) > 0 || paths.length === 0) return fallback(null);
    const model = await searcher.model();
    mark('model');
    const c = await compatible(model);
    mark('meta');
    if (!c.ok || !c.m) return fallback(c.ok ? 'it is empty; run simgrep index' : `${c.why}; run simgrep index to rebuild it`);
    const roots = JSON.parse(c.m.roots ?? '[]') as string[];
    if (!covers(roots, paths)) return fallback(`it indexes ${roots.join(', ')}, not all of ${paths.join(', ')}; this search scanned the files instead`);
    if (!(SEARCH_MODES as readonly string[]).includes(so.mode ?? 'hybrid')) return fallback(null);

    // What the search covers, and what changed since the index saw it.
    const walkKey = JSON.stringify([paths, so.recursive, so.hidden, so.noIgnore, so.extensions, so.maxFileBytes]);
    const filters = { recursive: so.recursive, hidden: so.hidden, noIgnore: so.noIgnore, extensions: so.extensions, maxFileBytes: so.maxFileBytes };
    // An object store cannot be watched: a search of URIs lists them every time.
    const { walk, cached, changedDirs }: WalkState = paths.some(isRemoteUri)
      ? { walk: await listWalk(await sourcesForPaths(paths, { ...filters, remote: so.remote ?? o.remote, listOnly: true }), so.signal), cached: false }
      : await walks.get(walkKey, paths, () => recordedWalk(walkKey, paths, filters, so.signal, true));
    const { entries, warnings: walkWarnings } = walk;
    if (entries.some((e) => e.pipe)) return fallback(null); // a named pipe is read once, as it streams
    mark('walk');
    let snap = await loadSnapshot();
    mark('snapshot');
    // Nothing changed on disk since the last check (the watcher saw no event): nothing is stale.
    const stale = cached ? [] : await staleEntries(snap, walk, statThreadFromFiles, changedDirs);
    let refreshed = 0;
    let pending = 0;
    const refreshWarnings: SourceWarning[] = [];
    if (stale.length > 0 && o.oneShot && !storeP && fewBytes(stale)) {
      // Read again for this answer only; nothing is written, and the next search finds them again.
      walks.invalidate(walkKey);
      const report = await updateIndex({ store: unsavedStore, executor: () => executorOf(searcher, false), chunkLines, roots: paths, remote: so.remote ?? o.remote, deleteMissing: false, entries: stale, states: statesOf(snap, stale), signal: so.signal });
      snap = patchSnapshot(snap, report.patch, `${snap.version} unsaved`);
      refreshed = pending = report.indexed;
      refreshWarnings.push(...report.warnings);
    } else if (stale.length > 0) {
      const file = lockFile();
      const got = file ? tryLock(file) : null;
      if (got && !isLock(got)) { walks.invalidate(walkKey); return fallback(`another process is updating it (pid ${got.pid}); this search scanned the files instead`); }
      try {
        const report = await indexAndPublish(await store(false), paths, { entries: stale, signal: so.signal });
        refreshed = report.indexed;
        refreshWarnings.push(...report.warnings);
        if (report.errors > 0) walks.invalidate(walkKey);
      } catch (e) {
        walks.invalidate(walkKey);
        throw e;
      } finally {
        if (got && isLock(got)) got.release();
      }
      snap = await loadSnapshot();
    }
    const { display, infos, files, lines, bytes, binary, namedBinary } = coverage(snap, walk);
    mark('coverage');

    const mode = so.mode ?? 'hybrid';
    const plan = buildRankPlan(so.query, mode as 'hybrid' | 'semantic' | 'lexical', bundledLexicon());
    mark('plan');
    const query = await searcher.embed([so.query]);
    mark('embed');
    const topK = so.topK ?? (so.maxDistance !== undefined ? Infinity : 3);
    const heapSize = Number.isFinite(topK) ? topK * CANDIDATES_PER_RESULT + 10 : Infinity;
    mark('stale check');
    const candidates = selectCandidates(snap, { plan, query, display, infos, heapSize, maxDistance: so.maxDistance });
    mark(`candidates (${candidates.length})`);
    const source = createCandidateSource({ snapshot: snap, candidates, display, chunkLines, reader });
    const r = await searcher.search({ ...so, paths: [], sources: [source] });
    mark('rescore');
    const warnings = [...walkWarnings, ...refreshWarnings, ...namedBinary, ...r.warnings];
    const tooLarge = walkWarnings.filter((w) => w.code === 'TOO_LARGE').length;
    return {
      ...r,
      warnings,
      stats: {
        files, lines, bytes, binary, skipped: binary + tooLarge,
        errors: r.stats.errors + walkWarnings.length - tooLarge + refreshWarnings.length,
        ms: performance.now() - started,
        index: pending > 0 ? { workspace: name, refreshed, pending } : { workspace: name, refreshed },
      },
    };
  }

  const workspace: Workspace = {
    name,
    dir,
    async index(paths, io = {}) {
      if (paths.length === 0) throw new SimgrepError('BAD_FLAG', 'nothing to index: pass one or more paths');
      const missing = paths.find((p) => !isRemoteUri(p) && !existsSync(p));
      if (missing) throw new SimgrepError('PATH_NOT_FOUND', `${missing}: no such file or directory (relative paths start at ${process.cwd()}); nothing was changed in workspace ${name}`);
      const started = performance.now();
      // What changed under roots it already indexes, from the snapshot: nothing means LanceDB is never loaded.
      const changes = io.cluster === undefined ? await changesOf(paths, io.signal) : null;
      if (changes && changes.stale.length === 0 && changes.gone.length === 0) return unchangedReport(changes.unchanged, performance.now() - started);
      // The changes were handed out: if they are not all indexed, the next run must look at everything again.
      const forget = () => walks.invalidate(indexWalkKey(paths));
      try {
        const report = await indexChanges(paths, changes, io);
        if (report.errors > 0) forget();
        return report;
      } catch (e) {
        forget();
        throw e;
      }
    },

    async search(so) {
      searching++;
      try {
        return await searchWorkspace(so);
      } finally {
        searching--;
      }
    },

    async status() {
      const m = (await meta()) ?? {};
      const snap = await loadSnapshot();
      let lines = 0; let bytes = 0; let binary = 0;
      for (const f of snap.files) { lines += f.lines; bytes += f.size; if (f.kind === 'binary') binary++; }
      return {
        name, dir, roots: m.roots ? JSON.parse(m.roots) as string[] : [],
        files: snap.files.length, binary, chunks: liveChunks(snap), lines, bytes, model: m.model ?? '',
        sizeOnDisk: remote ? null : diskUsage(dir), updated: readInfo(dir)?.updated ?? null,
      };
    },

    async prune() {
      const s = await store(false);
      return withLock(async () => {
        // Local files only: objects gone from a store are found by listing it (simgrep index).
        const gone = (await s.fileStates()).filter((f) => !isRemoteUri(f.key) && !existsSync(f.key)).map((f) => f.key);
        if (gone.length === 0) return { deleted: 0 };
        const before = await loadSnapshot();
        await writing(() => s.deleteFiles(gone));
        const version = await s.version();
        snapshot = patchSnapshot(before, { ...emptyChanges(), dropChunksOf: new Set(gone), dropFiles: new Set(gone) }, version);
        saveSnapshot(snapshot);
        publishInfo(await writing(() => s.writeMeta({ complete: version })));
        return { deleted: gone.length };
      });
    },

    async close() {
      const s = storeP ? await storeP.catch(() => null) : null;
      s?.close();
      storeP = null;
      snapshot = null;
      walks.close();
      if (!o.searcher) await searcher.close();
    },
  };

  /** The cluster build (its code, BullMQ and ioredis are loaded only for one). */
  async function clusterUpdater(cluster: string | ClusterOptions): Promise<IndexUpdater> {
    const { clusterIndexUpdater } = await import('../cluster/index-coordinator.js');
    return clusterIndexUpdater(typeof cluster === 'string' ? { url: cluster } : cluster, { model: o.model ?? defaultModelSpec() });
  }

  /** The update of an index run (under the lock): of what `changes` found, or of everything walked. */
  async function indexChanges(paths: string[], changes: Changes | null, io: IndexIo): Promise<IndexReport> {
    const mark = timer('index');
    const s = await store(true);
    mark('open');
    return withLock(async () => {
      const model = await searcher.model();
      const c = await compatible(model);
      if (!c.ok) { await s.clear(); snapshot = null; }
      const roots = mergeRoots(c.ok && c.m?.roots ? JSON.parse(c.m.roots) as string[] : [], paths.map(realPath));
      await s.writeMeta({ format: String(INDEX_FORMAT), chunkLines: String(chunkLines), model: model.id, fingerprint: modelFingerprint(model), name, roots: JSON.stringify(roots) });
      mark('meta');
      if (io.cluster !== undefined) return indexAndPublish(s, paths, { compact: true, signal: io.signal, onProgress: io.onProgress, update: await clusterUpdater(io.cluster) });
      // What the check above found changed (the run rechecks each against the latest snapshot), or a full walk.
      if (!c.ok || !changes) return indexAndPublish(s, paths, { compact: true, signal: io.signal, onProgress: io.onProgress });
      const report = await indexAndPublish(s, paths, { entries: changes.stale, drop: changes.gone, compact: true, signal: io.signal, onProgress: io.onProgress });
      return { ...report, files: report.files + changes.unchanged, unchanged: report.unchanged + changes.unchanged };
    });
  }

  /**
   * What an index run of local paths under the workspace's roots would look at, from the snapshot:
   * the walked files that are new or have another size or mtime (stale), the indexed files under the
   * paths that are gone, and how many are unchanged. Null when it cannot tell cheaply (remote paths, a
   * new root, an incompatible or incomplete index, a walk with warnings): then the run walks itself.
   */
  async function changesOf(paths: string[], signal?: AbortSignal): Promise<Changes | null> {
    if (remote || paths.some(isRemoteUri) || !readInfo(dir)?.meta?.complete) return null;
    const mark = timer('changes');
    const c = await compatible(await searcher.model());
    if (!c.ok || !c.m || !covers(JSON.parse(c.m.roots ?? '[]') as string[], paths)) return null;
    mark('model');
    const snap = await loadSnapshot();
    mark('snapshot');
    const walkKey = indexWalkKey(paths);
    const { walk, cached, changedDirs } = await walks.get(walkKey, paths, () => recordedWalk(walkKey, paths, {}, signal));
    if (walk.warnings.length > 0) return null;
    mark('walk');
    const stale = cached ? [] : await staleEntries(snap, walk, statThreadFromFiles, changedDirs);
    mark('stat');
    // Watched and nothing created or removed since the last look: nothing can be gone.
    const seen = cached || changedDirs ? null : new Set(walk.keys);
    const gone = seen ? snap.files.filter((f) => !seen.has(f.key) && paths.some((p) => isUnder(f.key, p))).map((f) => f.key) : [];
    return { stale, gone, unchanged: walk.entries.length - stale.length };
  }

  /**
   * The walk of local paths: as recorded by the last walk of them when no directory or ignore file it
   * depends on changed since (walk-record.ts), else walked (and recorded).
   */
  async function recordedWalk(walkKey: string, paths: string[], filters: Omit<FsSourceOptions, 'paths'>, signal?: AbortSignal, pathFacts = false): Promise<Walk> {
    const file = filters.maxFileBytes === undefined && !paths.some(isGlob) ? walkRecordFile(JSON.stringify([process.cwd(), walkKey])) : null;
    const recorded = file ? loadWalkRecord(file) : null;
    if (recorded) return recorded;
    const listed: string[] = [];
    const startedMs = Date.now();
    const walk = await listWalk([createFsSource({ paths, ...filters, onListed: (d) => listed.push(d) })], signal);
    if (file) saveWalkRecord(file, walk, { roots: paths, listed, rules: !filters.noIgnore, startedMs, pathFacts });
    return walk;
  }

  /**
   * Keeps a full index run's walk of local `paths` as the record recordedWalk would have made of it, so
   * the next run's check of what changed (changesOf) does not list the tree again.
   */
  function recordIndexWalk(paths: string[], w: WalkListing): void {
    if (paths.some(isGlob)) return;
    const file = walkRecordFile(JSON.stringify([process.cwd(), indexWalkKey(paths)]));
    const walk: Walk = { entries: w.entries, keys: w.entries.map((e) => fileKey(e.path)), warnings: w.warnings };
    if (file) saveWalkRecord(file, walk, { roots: paths, listed: w.listed, rules: true, startedMs: w.startedMs });
  }

  /**
   * Compacts the store once updates have left more than COMPACT_AFTER_FRAGMENTS small commits beyond
   * those its first build left (`built`, kept in the meta): a build's own fragments are sized by its
   * commits, and compacting them would make the first small update after it pay for the build.
   * Returns what later runs count from.
   */
  async function compactAfter(s: IndexStore, built: string | undefined, firstBuild: boolean): Promise<SmallFragments> {
    const base: SmallFragments = { chunks: 0, files: 0, ...(built ? JSON.parse(built) as Partial<SmallFragments> : {}) };
    const left = await writing(() => s.compact({ chunks: base.chunks + COMPACT_AFTER_FRAGMENTS, files: base.files + COMPACT_AFTER_FRAGMENTS }));
    // After a compaction there are fewer than the build left: those are what later runs count from.
    return firstBuild ? left : { chunks: Math.min(base.chunks, left.chunks), files: Math.min(base.files, left.files) };
  }

  /** A walk of the sources: the entries, their keys in the index, and the listing's warnings. */
  async function listWalk(sources: Source[], signal?: AbortSignal): Promise<Walk> {
    const found: Entry[] = [];
    for (const source of sources) for await (const e of source.list(signal)) found.push(e);
    return { entries: found, keys: found.map((e) => fileKey(e.path)), warnings: sources.flatMap((s) => s.drainWarnings?.() ?? []) };
  }

  /** workspace.json: who the workspace is, for discovery and for readers that skip LanceDB. */
  function publishInfo(m: Record<string, string>): void {
    const model = m.model ?? '';
    writeInfo({ name, roots: m.roots ? JSON.parse(m.roots) as string[] : [], model, updated: new Date().toISOString(), meta: m });
  }

  function writeInfo(info: WorkspaceInfo): void {
    if (remote) return;
    const tmp = path.join(dir, `${INFO_FILE}.${process.pid}.tmp`);
    writeFileSync(tmp, JSON.stringify(info, null, 2));
    renameSync(tmp, path.join(dir, INFO_FILE));
  }

  return workspace;
}
