// A workspace: a persistent index of some roots that answers searches exactly as a one-shot scan
// would, in milliseconds. This is its public face; the work is in open.ts (state, store, snapshot,
// lock), index-run.ts and publish.ts (index runs), search-run.ts (searches).
import { existsSync } from 'node:fs';
import { isSimgrepError, SimgrepError } from '../errors.js';
import { withTypes, type SearchOptions, type SearchResponse } from '../searcher/api.js';
import { searchPerFile } from '../searcher/per-file.js';
import { searchLike } from '../rank/related.js';
import { checkOptionTypes } from '../options-check.js';
import { checkFilterValues } from '../sources/filter-options.js';
import { isGone } from '../sources/local-gone.js';
import type { SourceWarning } from '../sources/source.js';
import { isRemoteUri } from '../sources/uri.js';
import type { IndexReport } from './build/indexer.js';
import { indexRun } from './index-run.js';
import { answersBesideIndexRun, indexUse } from './index-use.js';
import { notSavedWarnings, openWorkspace, type SnapshotNotes } from './open.js';
import type { IndexIo, WorkspaceOptions } from './options.js';
import { readInfo } from './registry.js';
import { searchWorkspace } from './search-run.js';
import { statusCounts } from './status-counts.js';
import { emptyChanges, patchSnapshot } from './snapshot/snapshot.js';
import { writing } from './store/writing.js';
import { diskUsage } from './workspace-files.js';
import { keepRestarted, type RestartWarmth } from './keep-restarted.js';

export type { ClusterIndexUpdater, IndexIo, WorkspaceOptions } from './options.js';
export { INDEX_FORMAT } from './open.js';
export { COMPACT_AFTER_FRAGMENTS } from './publish.js';
export { INCOMPLETE_INDEX, isUnfinished } from './unfinished.js';
export { UNSAVED_REFRESH_BYTES } from './search-run.js';

export interface WorkspaceStatus {
  name: string;
  dir: string;
  roots: string[];
  /**
   * Files the index holds that still exist (local files: listed by their directory, or an lstat each;
   * objects in a store count as they are). Of its last completed run; while no run has completed (a
   * first build under way or cut short), of its tables as written so far.
   */
  files: number;
  /** Local files the index holds that are gone since its last run (deleted, renamed away): `simgrep index` or `workspace prune` drops them. */
  gone: number;
  binary: number;
  chunks: number;
  lines: number;
  bytes: number;
  model: string;
  /** Bytes on disk (local workspaces; null for object stores). */
  sizeOnDisk: number | null;
  updated: string | null;
  /**
   * Whether an index run of it ever finished. False: the first build was cut short (killed) or is under
   * way, and the counts are its tables' as written so far, a part of the roots; `simgrep index` finishes it.
   */
  complete: boolean;
  /**
   * Present when status met something to say (SNAPSHOT_NOT_SAVED: the ranking snapshot it rebuilt from the
   * index, none being on disk or it being damaged, could not be saved: every search rebuilds it).
   */
  warnings?: SourceWarning[];
}

/**
 * Workspace.besideIndexRun's answer. `why` (with `reason`): an index is there that cannot answer the search
 * (`incompatible`: another model or an older simgrep, which a run rebuilds over its own paths; `roots`: roots
 * that do not cover its paths, which a run of those paths adds); null: none yet, a first build, or an object store's.
 */
export type BesideIndexRun = { fromIndex: true } | { fromIndex: false; why: null } | { fromIndex: false; why: string; reason: 'incompatible' | 'roots' };

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
  /** `signal`: stops it where it waits (reading the file list, listing the files' directories), with ABORTED. */
  status(o?: { signal?: AbortSignal }): Promise<WorkspaceStatus>;
  /** The roots its index records (status's, from the index's meta alone: no ranking snapshot loaded). */
  roots(): Promise<string[]>;
  /**
   * Whether a search of `paths` during an index run of this process answers from the index, or reads the
   * files (index-use.ts answersBesideIndexRun), and then why: null where no run of the index has finished
   * (a first build), else what stands in the way (another model, other roots). Relative paths start at the
   * working directory.
   */
  besideIndexRun(paths: string[]): Promise<BesideIndexRun>;
  /**
   * Drops files that no longer exist, and local roots that no longer exist (`droppedRoots`; `simgrep
   * index ROOT -w NAME` adds one back). A path that merely cannot be reached now (no access, an I/O
   * error, a stale or unmounted network mount) is kept.
   */
  prune(): Promise<{ deleted: number; droppedRoots: string[]; warnings?: SourceWarning[] }>;
  /**
   * An engine that starts over this index, built earlier (mcp/confined-workspaces.ts warmUp): keeps its prose
   * documents and warms its code chunks in the background as a build of this process would have left them
   * (keep-restarted.ts), taking the main thread only while `ready` says. Resolves once the documents
   * are counted, with how many were kept (0 for a one-shot or remote workspace, which keeps none).
   */
  keepRestarted(o: RestartWarmth): Promise<{ documents: number }>;
  close(): Promise<void>;
}

/** The roots an index's meta records. */
function rootsOf(meta: Record<string, string> | null): string[] {
  return meta?.roots ? JSON.parse(meta.roots) as string[] : [];
}

export function createWorkspace(o: WorkspaceOptions = {}): Workspace {
  const ws = openWorkspace(o);
  const { name, dir, remote } = ws;
  async function search(so: SearchOptions): Promise<SearchResponse> {
    checkOptionTypes(so);
    checkFilterValues(so, 'library');
    if (so.perFile !== undefined || so.filesWithMatches) return searchPerFile(so, search);
    if (so.like) return searchLike(so, search);
    if (so.types) return search(withTypes(so));
    ws.searching++;
    try {
      return await searchWorkspace(ws, so);
    } finally {
      ws.searching--;
      ws.searchedAt = performance.now();
    }
  }
  async function status(signal?: AbortSignal): Promise<WorkspaceStatus> {
    const m = (await ws.meta()) ?? {};
    if (signal?.aborted) throw new SimgrepError('ABORTED', 'status was aborted');
    // A snapshot status rebuilt and could not save is said by status: no later run would (mend41).
    const notes: SnapshotNotes = {};
    const counts = await statusCounts(ws, m.complete, notes, signal);
    const warnings = notSavedWarnings({ name, dir }, notes, 'rebuilt from the index but not saved');
    return {
      name, dir, roots: rootsOf(m), ...counts, model: m.model ?? '',
      sizeOnDisk: remote ? null : diskUsage(dir), updated: readInfo(dir)?.updated ?? null, complete: m.complete !== undefined,
      ...(warnings.length > 0 ? { warnings } : {}),
    };
  }
  return {
    name,
    dir,

    index: (paths, io) => abortedAs(indexRun(ws, paths, io), io?.signal, 'indexing was aborted'),

    search: (so) => abortedAs(search(so), so?.signal, 'the search was aborted'),

    roots: async () => rootsOf(await ws.meta()),

    async besideIndexRun(paths) {
      // An object store's index never answers beside a run (index-use.ts): its meta is not read for every
      // search of the run (a request to the store each).
      if (remote) return { fromIndex: false, why: null };
      // The model's error is the search's and the run's to report: it rejects.
      const model = await ws.searcher.model();
      // A local workspace not made yet (simgrep serve PATH's first build) has no meta to read. A meta that
      // cannot be read (a first build's tables found damaged) is the run's to mend: the files are read, as
      // before integ41.
      const c = existsSync(dir) ? await ws.compatible(model).catch(() => null) : { ok: true, m: null };
      if (!c) return { fromIndex: false, why: null };
      const use = indexUse(c, paths);
      if (answersBesideIndexRun(use, { local: true })) return { fromIndex: true };
      return use.ok || use.reason === 'empty' ? { fromIndex: false, why: null } : { fromIndex: false, why: use.why, reason: use.reason };
    },

    status: (so) => abortedAs(status(so?.signal), so?.signal, 'status was aborted'),

    async prune() {
      const s = await ws.store(false);
      return ws.withLock(async () => {
        // Local files only: objects gone from a store are found by listing it (simgrep index).
        const gone = (await s.fileStates()).filter((f) => !isRemoteUri(f.key) && isGone(f.key)).map((f) => f.key);
        // A local root that no longer exists goes too: kept, every later `simgrep index` of the roots
        // failed on it ("no such file or directory; nothing was changed"), with no way to drop it (trial33).
        const metaNow = await s.readMeta();
        const roots = rootsOf(metaNow);
        const keptRoots = roots.filter((r) => isRemoteUri(r) || !isGone(r));
        const droppedRoots = roots.filter((r) => !keptRoots.includes(r));
        if (gone.length === 0 && droppedRoots.length === 0) return { deleted: 0, droppedRoots };
        const rootsMeta: Record<string, string> = droppedRoots.length > 0 ? { roots: JSON.stringify(keptRoots) } : {};
        // No index run has finished (a first build cut short, or one running in another process and
        // waiting on the lock): the rows go and the index stays as incomplete as it was. Marked
        // complete and published, the partial tables read as a finished index in every surface
        // (status exit 0, MCP status `indexed`, no rebuild by the MCP server).
        if (metaNow.complete === undefined) {
          if (gone.length > 0) await writing(() => s.deleteFiles(gone));
          if (droppedRoots.length > 0) await writing(() => s.writeMeta(rootsMeta));
          ws.snapshot = null;
          return { deleted: gone.length, droppedRoots };
        }
        // What this prune met of the snapshot: said in its answer (no later run would: mend41).
        const notes: SnapshotNotes = {};
        const before = await ws.loadSnapshot(undefined, notes);
        if (gone.length > 0) await writing(() => s.deleteFiles(gone));
        const version = await s.version();
        ws.snapshot = patchSnapshot(before, { ...emptyChanges(), dropChunksOf: new Set(gone), dropFiles: new Set(gone) }, version);
        ws.saveSnapshot(ws.snapshot, notes);
        ws.publishInfo(await writing(() => s.writeMeta({ complete: version, ...rootsMeta })));
        const warnings = notSavedWarnings({ name, dir }, notes, 'not saved');
        return { deleted: gone.length, droppedRoots, ...(warnings.length > 0 ? { warnings } : {}) };
      });
    },

    keepRestarted: (w) => (ws.o.oneShot || remote ? Promise.resolve({ documents: 0 }) : keepRestarted(ws, w)),

    close: () => ws.close(),
  };
}

/**
 * The one way an aborted call ends: SimgrepError ABORTED. A rejection with the signal's reason (a
 * DOMException AbortError, code 20) from a listing, a read or a pool task is restated here (trial33).
 */
function abortedAs<T>(p: Promise<T>, signal: AbortSignal | undefined, message: string): Promise<T> {
  if (!signal) return p;
  return p.catch((e: unknown) => {
    if (signal.aborted && !(isSimgrepError(e) && e.code === 'ABORTED') && (e === signal.reason || (e as Error | null)?.name === 'AbortError')) {
      throw new SimgrepError('ABORTED', message, { cause: e });
    }
    throw e;
  });
}

