// An open workspace: its state and the primitives every run uses — the store (LanceDB, opened on first
// use), its meta and whether this model can use it, the one-writer lock, the ranking snapshot (in
// memory, on disk, or rebuilt from the store) and workspace.json.
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SimgrepError } from '../errors.js';
import { RANK_DEFAULTS } from '../rank/plan.js';
import { createSearcher } from '../searcher.js';
import { type Searcher } from '../searcher/api.js';
import { createPathReader } from '../sources/path-reader.js';
import type { Source, SourceWarning } from '../sources/source.js';
import { isRemoteUri } from '../sources/uri.js';
import type { ModelData } from '../types.js';
import { SharedRebuild, rebuildAborted } from './build/shared-rebuild.js';
import { rebuildSnapshot } from './build/snapshot-rebuild.js';
import { STAT_THREAD_FROM_FILES } from './changes/stat-many.js';
import { WalkCache } from './changes/walk-cache.js';
import { inProcess, isLock, lockedError, tryLock, type Lock } from './lock.js';
import type { WorkspaceOptions } from './options.js';
import { INFO_FILE, checkName, readInfo, workspaceDir, type WorkspaceInfo } from './registry.js';
import type { Snapshot } from './snapshot/snapshot.js';
import { readSnapshotFile, removeSnapshotFiles, verifySnapshotFiles, writeSnapshotDelta, writeSnapshotFile } from './snapshot/snapshot-file.js';
import { guardDamage } from './store/damage.js';
import { ProseIndexLines } from './search/prose-index.js';
import { stopLineTokensWith } from './search/kept-documents.js';
import { stopWarming } from './search/warm-chunks.js';
import { otherProseStatsFormat, PROSE_STATS_FORMAT, proseStatsPathOf } from './snapshot/prose-stats-file.js';
import { openProseStats, proseStatsDeltaPathOf } from './snapshot/prose-stats-layers.js';
import { DamagedFileError } from './snapshot/section-file.js';
import { lanceStorageOptions } from './store/storage-options.js';
import type { IndexStore } from './store/store.js';
import { checkNotForeign, filesStamp, modelFingerprint, snapshotPath, workspaceNameOf } from './workspace-files.js';

/**
 * Bumped when the stored layout, the chunking or the stored chunk features change: older indexes are
 * rebuilt, newer refused. 2: definedName finds definitions behind modifiers (`public final class`).
 */
export const INDEX_FORMAT = 2;

/** Whether the index can answer for this model and simgrep (why not, when not), with its meta. */
export interface Compatibility { ok: boolean; why?: string; m: Record<string, string> | null }

/**
 * What one run (a search, an index run) met of the ranking snapshot, for its own answer or report: each run
 * passes its own to the loads and saves it makes. (A flag the workspace held was taken by whichever run
 * asked next: a search beside an index run reported the run's SNAPSHOT_NOT_SAVED, and the run lost it.)
 */
export interface SnapshotNotes {
  /** Why this run's last write of the snapshot failed (a full or read-only disk); cleared by a later one that succeeded. */
  notSaved?: string;
  /** What a load of the snapshot files by this run found damaged (it was rebuilt from the store then). */
  damaged?: string;
}

/**
 * SNAPSHOT_NOT_SAVED when the run's last write of the snapshot failed (none when it was saved): the index is
 * complete without it, but every search rebuilds it from the store (seconds on a big index). Said, not an
 * error. `what`: what became of the snapshot ("not saved", "rebuilt from the index but not saved").
 */
export function notSavedWarnings(ws: { name: string; dir: string }, notes: SnapshotNotes, what: string): SourceWarning[] {
  if (!notes.notSaved) return [];
  return [{ path: ws.dir, code: 'SNAPSHOT_NOT_SAVED', message: `workspace ${ws.name}: the ranking snapshot was ${what} (${notes.notSaved}); every search rebuilds it from the index, slower; free some space and run simgrep index again` }];
}

export interface OpenWorkspace {
  readonly name: string;
  readonly dir: string;
  /** The index lives in an object store (s3://): no lock file, no workspace.json, no watching. */
  readonly remote: boolean;
  readonly o: WorkspaceOptions;
  readonly searcher: Searcher;
  readonly chunkLines: number;
  /** From how many files a search's stats run on two threads; -J 0 means no worker threads at all, so never. */
  readonly statThreadFromFiles: number;
  readonly walks: WalkCache;
  /** Reads indexed files back (local paths and URIs, with this machine's credentials). */
  readonly reader: Source;
  /** Searches of this workspace under way (an index run lets the worker threads go only when none is). */
  searching: number;
  /** When the last search of this workspace ended (performance.now()): background work waits for a pause (search/warm-chunks.ts). */
  searchedAt: number;
  /** The ranking snapshot last loaded or published. */
  snapshot: Snapshot | null;
  /** Set once close() began: background work begun for it (keep-restarted.ts) starts nothing more. */
  closed: boolean;
  /** Whether the store has been opened (or is being opened) by this workspace. */
  storeOpened(): boolean;
  store(create: boolean): Promise<IndexStore>;
  meta(): Promise<Record<string, string> | null>;
  compatible(model: ModelData): Promise<Compatibility>;
  lockFile(): string | null;
  withLock<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * `meta`: the index's meta this caller read (meta()): the snapshot in memory of its version is taken without
   * reading it again. `notes`: the caller's run's, told of a damaged file read or a rebuild not saved.
   * `signal`: a rebuild from the store is given up at once (ABORTED), and stopped if no other load waits for it.
   */
  loadSnapshot(meta?: Record<string, string> | null, notes?: SnapshotNotes, signal?: AbortSignal): Promise<Snapshot>;
  /** Writes the snapshot's files; a failure (a full or read-only disk) is told to `notes` (the next load rebuilds it). */
  saveSnapshot(snap: Snapshot, notes?: SnapshotNotes): void;
  /** Removes a damaged local store's tables, snapshot and workspace.json (the caller holds the lock and rebuilds). */
  resetStore(): Promise<void>;
  /** Forgets the snapshot and removes its files (damaged: the next load rebuilds it from the store). */
  dropSnapshot(): void;
  /** Checks the snapshot files against every checksum: null when sound (or absent), else what is damaged. */
  verifySnapshot(): string | null;
  /** The prose statistics file (snapshot/prose-stats-file.ts), opened again once it is rewritten. */
  proseIndex(): ProseIndexLines;
  /** Where the prose statistics file lives. */
  proseStatsFile(): string;
  publishInfo(m: Record<string, string>): void;
  close(): Promise<void>;
}

export function openWorkspace(o: WorkspaceOptions): OpenWorkspace {
  if (o.name !== undefined && o.dir !== undefined) throw new SimgrepError('BAD_FLAG', 'pass a workspace name or an index directory, not both');
  if (o.name === undefined && o.dir === undefined) throw new SimgrepError('BAD_FLAG', 'createWorkspace needs a name or a dir');
  const name = o.name !== undefined ? checkName(o.name) : workspaceNameOf(o.dir!);
  const dir = o.dir ?? workspaceDir(name);
  const remote = isRemoteUri(dir);
  let storeP: Promise<IndexStore> | null = null;
  /** The snapshot file failed a check and could not be removed: not read again until rewritten. */
  let fileDamaged = false;
  /** The rebuild of a version from the store under way, which a second load of that version waits for. */
  let rebuilding: SharedRebuild | null = null;
  let proseIndex: ProseIndexLines | null = null;
  /** filesStamp of the statistics files when proseIndex was made from them. */
  let proseStamp = '';

  const ws: OpenWorkspace = {
    name, dir, remote, o,
    searcher: o.searcher ?? createSearcher(o),
    chunkLines: RANK_DEFAULTS.chunkLines,
    statThreadFromFiles: o.concurrency === 0 ? Infinity : o.statThreadFromFiles ?? STAT_THREAD_FROM_FILES,
    walks: new WalkCache(o.resident ? 1 : 2),
    reader: createPathReader({ remote: o.remote }),
    searching: 0,
    searchedAt: -Infinity,
    snapshot: null,
    closed: false,

    storeOpened: () => storeP !== null,

    async store(create) {
      if (!storeP) {
        if (!remote) {
          if (!create && !existsSync(dir)) throw new SimgrepError('WORKSPACE_NOT_FOUND', `workspace ${name} does not exist (${dir}); create it with simgrep index PATH -w ${name}`);
          checkNotForeign(dir);
          if (create) mkdirSync(dir, { recursive: true });
        }
        const model = await ws.searcher.model();
        // LanceDB (a large native module) is loaded only when a workspace is opened.
        const storageOptions = o.storageOptions ?? await lanceStorageOptions(dir, o.remote);
        // A local store's damaged data becomes INDEX_DAMAGED (store/damage.ts): searches scan, simgrep index rebuilds.
        storeP = import('./store/store.js').then(({ openStore }) => openStore(dir, { dim: model.dim, storageOptions }))
          .then((s) => (remote ? s : guardDamage(s, dir)));
        storeP.catch(() => { storeP = null; });
      }
      return storeP;
    },

    /**
     * Meta of the index: null when empty; an error when it is newer than this simgrep. A local
     * workspace's workspace.json carries a copy of the last completed meta, so a reader that finds
     * nothing stale answers without opening LanceDB at all.
     */
    async meta() {
      const fast = remote ? undefined : readInfo(dir)?.meta;
      const m = fast?.complete ? fast : await (await ws.store(false)).readMeta();
      if (!m.format) return null;
      if (Number(m.format) > INDEX_FORMAT) {
        throw new SimgrepError('INDEX_INCOMPATIBLE', `the index at ${dir} was written by a newer simgrep (index format ${m.format}, this one reads ${INDEX_FORMAT}); upgrade simgrep, or remove the workspace (simgrep workspace rm ${name}) and index again`);
      }
      return m;
    },

    async compatible(model) {
      const m = await ws.meta();
      if (!m) return { ok: true, m };
      if (m.fingerprint !== modelFingerprint(model)) {
        // The same id (a local path) with other files there is named once, as changed.
        const why = m.model === model.id ? `model ${model.id} has changed since it was built (its files are not the ones the index was built with)` : `it was built with model ${m.model}, not ${model.id}`;
        return { ok: false, why, m };
      }
      if (Number(m.format) !== INDEX_FORMAT || Number(m.chunkLines) !== ws.chunkLines) return { ok: false, why: 'it was built by an older simgrep', m };
      return { ok: true, m };
    },

    lockFile: () => (remote ? null : path.join(dir, '.simgrep-lock')),

    withLock(fn) {
      const file = ws.lockFile();
      if (!file) return fn();
      // Calls of this process queue in memory first: it never finds itself holding the lock.
      return inProcess(file, () => {
        const got = tryLock(file);
        if (!isLock(got)) throw lockedError(name, got, file);
        return fn().finally(() => (got as Lock).release());
      });
    },

    /**
     * The ranking snapshot of the last completed version (meta `complete`; a write in progress is never
     * seen): in memory, else on disk, else rebuilt from the store as of that version.
     */
    async loadSnapshot(meta, notes, signal) {
      if (meta !== undefined) {
        // The caller's meta (read before its walk) serves the snapshot in memory; anything else reads the
        // meta again: an index run may have published since, and a rebuild of the older version would cost
        // seconds and write it over the newer snapshot file (review of warm39).
        if (meta?.complete !== undefined && ws.snapshot?.version === meta.complete) return ws.snapshot;
        return ws.loadSnapshot(undefined, notes, signal);
      }
      const version = (await ws.meta())?.complete ?? await (await ws.store(false)).version();
      if (ws.snapshot && ws.snapshot.version === version) return ws.snapshot;
      ws.snapshot = fileDamaged ? null : readSnapshotFile(snapshotPath(dir, remote), version, (why) => { if (notes) notes.damaged = why; });
      if (ws.snapshot) return ws.snapshot;
      // One rebuild of a version at a time: the engine's start (its keeping, its first made-up search) and the
      // agent's first search each found the file missing and rebuilt it at once, three times (review of session
      // 42). The one that rebuilds it says it was not saved (notes), as a later search finding it in memory would not.
      // A load that gives up (its signal) stops waiting at once; the rebuild stops at its next check once none
      // waits (trust43), and a load after it saw that starts another.
      // A load that stopped the rebuild it waited for and came back before the rebuild saw it (still in the store's
      // reads) takes the stop back and joins: not a second rebuild beside it (trust43 review).
      if (rebuilding?.version === version && !rebuilding.stopped) return rebuilding.wait(signal);
      // A load given up already starts nothing (its rebuild would have had no load to stop it).
      if (signal?.aborted) throw rebuildAborted();
      const r = new SharedRebuild(version, async (stop) => {
        const model = await ws.searcher.model();
        const rebuilt = await rebuildSnapshot(await ws.store(false), version, model.dim, ws.chunkLines, ws.reader, stop);
        ws.snapshot = rebuilt;
        ws.saveSnapshot(rebuilt, notes);
        return rebuilt;
      });
      rebuilding = r;
      void r.done.then(() => undefined, () => undefined).then(() => { if (rebuilding === r) rebuilding = null; });
      return r.wait(signal);
    },

    /** Writes the base file when the snapshot is compacted, else only the delta of what it appended. */
    saveSnapshot(snap, notes) {
      const file = snapshotPath(dir, remote);
      try {
        mkdirSync(path.dirname(file), { recursive: true });
        if (snap.version === snap.baseVersion) writeSnapshotFile(file, snap); else if (!fileDamaged) writeSnapshotDelta(file, snap); else return;
        fileDamaged = false;
        if (notes) notes.notSaved = undefined;
      } catch (e) {
        // Full or read-only: rebuilt from the store by the next load; the run that wrote it says so (index-run.ts, search-run.ts).
        if (notes) notes.notSaved = (e as Error).message;
        // A base not written: the file on disk is not this snapshot's, and a delta written over it would be
        // read with the wrong base (or not at all) and would clear the note (a prune that rebuilt it: mend41).
        if (snap.version === snap.baseVersion) fileDamaged = true;
      }
    },

    async resetStore() {
      const s = storeP ? await storeP.catch(() => null) : null;
      try { s?.close(); } catch { /* damaged: its handles go with it */ }
      storeP = null;
      for (const table of ['chunks.lance', 'files.lance', 'meta.lance', INFO_FILE]) rmSync(path.join(dir, table), { recursive: true, force: true });
      for (const f of [ws.proseStatsFile(), proseStatsDeltaPathOf(ws.proseStatsFile())]) rmSync(f, { force: true });
      ws.dropSnapshot();
    },

    dropSnapshot() {
      ws.snapshot = null;
      fileDamaged = true;
      try { removeSnapshotFiles(snapshotPath(dir, remote)); } catch { /* read-only: not read again by this process */ }
    },

    verifySnapshot: () => verifySnapshotFiles(snapshotPath(dir, remote)),

    proseStatsFile: () => proseStatsPathOf(snapshotPath(dir, remote)),

    proseIndex() {
      const file = ws.proseStatsFile();
      // Without open statistics (none, an older format, damaged): what was there when last looked at, so
      // an outdated file is not opened and read again every search (~2 ms) while it stays as it was.
      const stamp = proseIndex?.file ? '' : filesStamp(file, proseStatsDeltaPathOf(file));
      if (proseIndex && (proseIndex.file ? proseIndex.file.current() : stamp === proseStamp)) return proseIndex;
      proseIndex?.file?.close();
      proseStamp = stamp || filesStamp(file, proseStatsDeltaPathOf(file));
      try {
        const layers = openProseStats(file);
        const other = layers ? null : otherProseStatsFormat(file);
        proseIndex = other
          ? new ProseIndexLines(null, `its prose statistics (${path.basename(file)}) are in an older simgrep's format (${other}; this one reads ${PROSE_STATS_FORMAT})`, true)
          : new ProseIndexLines(layers);
      } catch (e) {
        if (!(e instanceof DamagedFileError)) throw e;
        proseIndex = new ProseIndexLines(null, e.message);
      }
      return proseIndex;
    },

    /** workspace.json: who the workspace is, for discovery and for readers that skip LanceDB. */
    publishInfo(m) {
      writeInfo({ name, roots: m.roots ? JSON.parse(m.roots) as string[] : [], model: m.model ?? '', updated: new Date().toISOString(), meta: m });
    },

    async close() {
      ws.closed = true;
      const s = storeP ? await storeP.catch(() => null) : null;
      s?.close();
      storeP = null;
      ws.snapshot = null;
      proseIndex?.file?.close();
      proseIndex = null;
      ws.walks.close();
      stopLineTokensWith(ws.searcher);
      stopWarming(ws.searcher);
      if (!o.searcher) await ws.searcher.close();
    },
  };

  function writeInfo(info: WorkspaceInfo): void {
    if (remote) return;
    const tmp = path.join(dir, `${INFO_FILE}.${process.pid}.tmp`);
    writeFileSync(tmp, JSON.stringify(info, null, 2));
    renameSync(tmp, path.join(dir, INFO_FILE));
  }

  return ws;
}
