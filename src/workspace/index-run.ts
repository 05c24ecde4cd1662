// An index run (Workspace.index): what changed under its paths, from the snapshot when that can tell
// cheaply (nothing changed: LanceDB is never loaded), then the update under the lock — local, or on a
// cluster through the seam the caller plugged in — and its publication.
import { existsSync, rmSync } from 'node:fs';
import { SimgrepError } from '../errors.js';
import { defaultModelSpec } from '../model/default-model.js';
import type { ClusterOptions } from '../searcher/api.js';
import type { Entry } from '../sources/source.js';
import { isRemoteUri } from '../sources/uri.js';
import type { IndexReport, IndexUpdater } from './build/indexer.js';
import { underAny, orphanKeys } from './changes/file-identity.js';
import { indexWalkKey, recordedWalk, staleEntries } from './changes/walks.js';
import { timer } from './debug-timer.js';
import { isDamage } from './store/damage.js';
import type { OpenWorkspace, SnapshotNotes } from './open.js';
import { INDEX_FORMAT, notSavedWarnings } from './open.js';
import type { IndexIo } from './options.js';
import { indexAndPublish, proseStatsWarnings, saveProseStats } from './publish.js';
import { verifySectionFile } from './snapshot/section-file.js';
import { proseStatsDeltaPathOf } from './snapshot/prose-stats-layers.js';
import { realPath } from '../sources/real-paths.js';
import { covers, readInfo } from './registry.js';
import { emptyChanges } from './snapshot/snapshot.js';
import { mergeRoots, modelFingerprint } from './workspace-files.js';

/** What changed under an index run's paths since the snapshot (see changesOf). */
interface Changes { stale: Entry[]; gone: string[]; unchanged: number }

/** Builds or updates the index of `paths` (they become the workspace's roots). */
export async function indexRun(ws: OpenWorkspace, paths: string[], io: IndexIo = {}): Promise<IndexReport> {
  if (paths.length === 0) throw new SimgrepError('BAD_FLAG', 'nothing to index: pass one or more paths');
  const missing = paths.find((p) => !isRemoteUri(p) && !existsSync(p));
  if (missing) throw new SimgrepError('PATH_NOT_FOUND', `${missing}: no such file or directory (relative paths start at ${process.cwd()}); nothing was changed in workspace ${ws.name}`);
  const started = performance.now();
  // The prose statistics are checked in full (a search checks only the blocks it reads): a damaged file is counted again.
  // A damaged delta goes alone (the base's documents are still good); a damaged base takes its delta with it.
  const proseFiles = [ws.proseStatsFile(), proseStatsDeltaPathOf(ws.proseStatsFile())];
  const baseDamaged = verifySectionFile(proseFiles[0]);
  const proseDamaged = baseDamaged ?? verifySectionFile(proseFiles[1]);
  if (proseDamaged) for (const f of baseDamaged ? proseFiles : proseFiles.slice(1)) rmSync(f, { force: true });
  // What this run met of the snapshot (a search beside it keeps its own: open.ts SnapshotNotes).
  const notes: SnapshotNotes = {};
  let damaged: string | null = null;
  const onDamaged = (why: string) => { damaged = why; };
  const report = await indexRunOf(ws, paths, io, started, onDamaged, notes).catch((e: unknown) => rebuiltIfDamaged(ws, paths, io, started, e, onDamaged, notes));
  // A snapshot section that failed its checksum as the run loaded it was rebuilt from the store then.
  damaged ??= notes.damaged ?? null;
  if (damaged) {
    // Rebuilt by the run when it changed something; else here, from the store.
    if (!ws.snapshot) await ws.loadSnapshot(undefined, notes);
    report.warnings.unshift({ path: ws.dir, code: 'SNAPSHOT_REBUILT', message: `workspace ${ws.name}: ${damaged}; rebuilt it from the index` });
  }
  report.warnings.push(...notSavedWarnings(ws, notes, 'not saved'));
  if (proseDamaged) report.warnings.unshift({ path: ws.dir, code: 'PROSE_STATS_REBUILT', message: `workspace ${ws.name}: ${proseDamaged}; its documents were counted again` });
  return report;
}

/**
 * A run that found the local store damaged (its data files cut short or overwritten): the tables are
 * removed under the lock and everything under the roots (the known ones and `paths`) indexed again.
 * The index is only a copy of what the files say, so nothing is lost. An object store's index is left
 * as it is: the error says how to rebuild it.
 */
async function rebuiltIfDamaged(ws: OpenWorkspace, paths: string[], io: IndexIo, started: number, e: unknown, onDamaged: (why: string) => void, notes: SnapshotNotes): Promise<IndexReport> {
  if (!isDamage(e) || io.cluster !== undefined) throw e;
  if (ws.remote) throw new SimgrepError('INDEX_DAMAGED', `${e.message}; remove it (simgrep workspace rm ${ws.name}) and index again`, { cause: e });
  const roots = mergeRoots(readInfo(ws.dir)?.roots ?? [], paths.map(realPath));
  await ws.withLock(() => ws.resetStore());
  ws.walks.invalidate(indexWalkKey(paths));
  const report = await indexRunOf(ws, roots, io, started, onDamaged, notes);
  report.warnings.unshift({ path: ws.dir, code: 'INDEX_DAMAGED', message: `workspace ${ws.name}: ${e.message}; rebuilt it from the files` });
  return report;
}

async function indexRunOf(ws: OpenWorkspace, paths: string[], io: IndexIo, started: number, onDamaged: (why: string) => void, notes: SnapshotNotes): Promise<IndexReport> {
  // What changed under roots it already indexes, from the snapshot: nothing means LanceDB is never loaded.
  const changes = io.cluster === undefined ? await changesOf(ws, paths, notes, io.signal) : null;
  if (changes && changes.stale.length === 0 && changes.gone.length === 0) {
    // Nothing to index; the prose statistics may still lack documents (an index made before them, or rebuilt after damage).
    const report = unchangedReport(changes.unchanged, 0);
    if (ws.snapshot) proseStatsWarnings(ws, await saveProseStats(ws, ws.snapshot), report.warnings);
    report.ms = performance.now() - started;
    return report;
  }
  // A run that changes something checks the snapshot in full first (postings' entries too, which a load
  // and the searches check only as they read them): its patch reads them, and a damaged one is rebuilt
  // from the store. A run that finds nothing changed reads only what the load checks: its sections are
  // written whole and renamed into place, so a crash leaves no half file, and a block damaged on disk
  // later fails its checksum when a search reads it (that search rebuilds the snapshot, then answers).
  const damaged = ws.verifySnapshot();
  if (damaged) { ws.dropSnapshot(); onDamaged(damaged); }
  // The changes were handed out: if they are not all indexed, the next run must look at everything again.
  const forget = () => ws.walks.invalidate(indexWalkKey(paths));
  try {
    const report = await indexChanges(ws, paths, changes, io, notes);
    if (report.errors > 0) forget();
    return report;
  } catch (e) {
    forget();
    throw e;
  }
}

/** The update of an index run (under the lock): of what `changes` found, or of everything walked. */
async function indexChanges(ws: OpenWorkspace, paths: string[], changes: Changes | null, io: IndexIo, notes: SnapshotNotes): Promise<IndexReport> {
  const mark = timer('index');
  const s = await ws.store(true);
  mark('open');
  return ws.withLock(async () => {
    const model = await ws.searcher.model();
    const c = await ws.compatible(model);
    if (!c.ok) { await s.clear(); ws.snapshot = null; }
    const roots = mergeRoots(c.ok && c.m?.roots ? JSON.parse(c.m.roots) as string[] : [], paths.map(realPath));
    await s.writeMeta({ format: String(INDEX_FORMAT), chunkLines: String(ws.chunkLines), model: model.id, fingerprint: modelFingerprint(model), name: ws.name, roots: JSON.stringify(roots) });
    mark('meta');
    const run = { compact: true, kernelNow: true, signal: io.signal, onProgress: io.onProgress, notes };
    if (io.cluster !== undefined) return indexAndPublish(ws, s, paths, { ...run, update: await clusterUpdater(ws, io.cluster, model.dim) });
    // What the check above found changed (the run rechecks each against the latest snapshot), or a full walk.
    if (!c.ok || !changes) return indexAndPublish(ws, s, paths, run);
    const report = await indexAndPublish(ws, s, paths, { ...run, entries: changes.stale, drop: changes.gone });
    return { ...report, files: report.files + changes.unchanged, unchanged: report.unchanged + changes.unchanged };
  });
}

/** The cluster build, from the seam the caller plugged in (library.ts plugs in the cluster adapter). */
async function clusterUpdater(ws: OpenWorkspace, cluster: string | ClusterOptions, dim: number): Promise<IndexUpdater> {
  if (!ws.o.clusterIndex) throw new SimgrepError('BAD_FLAG', 'this workspace has no cluster plugged in: create it with createWorkspace from the simgrep package, which builds indexes on clusters');
  return ws.o.clusterIndex(typeof cluster === 'string' ? { url: cluster } : cluster, { model: ws.o.model ?? defaultModelSpec(), dim });
}

/**
 * What an index run of local paths under the workspace's roots would look at, from the snapshot:
 * the walked files that are new or have another size or mtime (stale), the indexed files under the
 * paths that are gone, and how many are unchanged. Null when it cannot tell cheaply (remote paths, a
 * new root, an incompatible or incomplete index, a walk with warnings): then the run walks itself.
 */
async function changesOf(ws: OpenWorkspace, paths: string[], notes: SnapshotNotes, signal?: AbortSignal): Promise<Changes | null> {
  if (ws.remote || paths.some(isRemoteUri) || !readInfo(ws.dir)?.meta?.complete) return null;
  const mark = timer('changes');
  const c = await ws.compatible(await ws.searcher.model());
  const roots = JSON.parse(c.m?.roots ?? '[]') as string[];
  if (!c.ok || !c.m || !covers(roots, paths)) return null;
  mark('model');
  const snap = await ws.loadSnapshot(undefined, notes);
  mark('snapshot');
  const walkKey = indexWalkKey(paths);
  const { walk, cached, changedDirs } = await ws.walks.get(walkKey, paths, () => recordedWalk(walkKey, paths, {}, signal));
  if (walk.warnings.length > 0) return null;
  mark('walk');
  const stale = cached ? [] : await staleEntries(snap, walk, ws.statThreadFromFiles, changedDirs);
  mark('stat');
  // Watched and nothing created or removed since the last look: nothing can be gone.
  const seen = cached || changedDirs ? null : new Set(walk.keys);
  const real = paths.map(realPath);
  const underReal = underAny(real);
  const gone = seen ? snap.files.filter((f) => !seen.has(f.key) && underReal(f.key)).map((f) => f.key) : [];
  // ... but files an older simgrep keyed under none of the roots (a tree reached through a symlink) are.
  const orphans = orphanKeys(snap.files.map((f) => f.key), roots).filter((k) => !seen?.has(k));
  // A file two of the paths reach (a directory and its subdirectory, a link and its target) counts once.
  const files = seen ? seen.size : new Set(walk.keys).size;
  return { stale, gone: orphans.length > 0 ? [...new Set([...gone, ...orphans])] : gone, unchanged: files - stale.length };
}

/** The report of an index run that found nothing to change. */
function unchangedReport(files: number, ms: number): IndexReport {
  return {
    files, indexed: 0, lines: 0, bytes: 0, bytesToRead: 0, ms, unchanged: files, deleted: 0, chunks: 0, reused: 0, errors: 0, warnings: [],
    patch: emptyChanges(),
  };
}
