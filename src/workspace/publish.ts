// An index run's update and its publication: the indexer (or a cluster build) brings the store up to
// date, then the snapshot is patched with what changed (or rebuilt), written beside the index, and the
// new version marked complete for readers. The caller holds the lock.
import { tmpdir } from 'node:os';
import { isGone } from '../sources/local-gone.js';
import type { Entry, SourceWarning } from '../sources/source.js';
import { isRemoteUri } from '../sources/uri.js';
import { executorOf, releaseWorkersOf } from '../searcher/seams.js';
import { rebuildSnapshot } from './build/snapshot-rebuild.js';
import { updateIndex, type IndexProgress, type IndexReport, type IndexUpdater, type WalkListing } from './build/indexer.js';
import type { Walk } from './changes/walk-cache.js';
import { saveWalkRecord, walkRecordFile } from './changes/walk-record.js';
import { indexWalkKey } from './changes/walks.js';
import { timer } from './debug-timer.js';
import type { OpenWorkspace, SnapshotNotes } from './open.js';
import { emptyChanges, emptySnapshot, fileIndex, patchSnapshot, type Snapshot } from './snapshot/snapshot.js';
import type { FileState, IndexStore, SmallFragments } from './store/store.js';
import { writing } from './store/writing.js';
import { isGlob } from '../sources/fs.js';
import { fileKeys, type FileKeyOf } from '../sources/real-paths.js';
import { isProsePath } from '../rank/prose.js';
import { documentState, keepDocument, keepLineTokensWith, keptLines, keptPublished } from './search/kept-documents.js';
import { keptText } from './search/kept-text.js';
import { builtSums, idle, warmChunks } from './search/warm-chunks.js';
import { cosineKernelMade, cosineKernelNow, MIN_KERNEL_VALUES } from './search/chunk-cosines.js';
import { countProseAhead, updateProseStats, type ProseStatsReport } from './prose-stats.js';

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

/** Bytes of prose files an index run holds for the statistics file; the others are read again for it. */
const PROSE_BYTES_HELD = 64 << 20;

/**
 * Small commits (LanceDB fragments) updates may leave before one compacts them (a rewrite of the
 * table: ~80 ms for the 1M-line tree), beyond those the first build left.
 */
export const COMPACT_AFTER_FRAGMENTS = 16;

/** How indexAndPublish runs: which entries (all walked when none), which keys to drop, and how. */
export interface PublishRun {
  /** Check exactly these entries instead of walking the roots (no file is dropped for being unseen). */
  entries?: Entry[];
  /** Indexed files to drop (gone since the snapshot), with `entries`. */
  drop?: string[];
  compact?: boolean;
  /**
   * An index run's (not a search's refresh, which its search waits for): a resident process makes the new
   * snapshot's cosine kernel at once (~0.1-0.3 s of this thread on the bench tree), not in the background,
   * and finishes counting the prose documents it read, and their sweep, at once (search/kept-documents.ts keptPublished).
   */
  kernelNow?: boolean;
  signal?: AbortSignal;
  onProgress?: (p: IndexProgress) => void;
  update?: IndexUpdater;
  /** The run's own (an index run's, or the search's whose refresh this is): told of a snapshot not saved. */
  notes?: SnapshotNotes;
}

/** Runs the update of `roots` (the caller holds the lock), then publishes its result. */
export async function indexAndPublish(ws: OpenWorkspace, s: IndexStore, roots: string[], run: PublishRun): Promise<IndexReport> {
  const { entries, compact = false, signal, onProgress, update = updateIndex } = run;
  const { searcher, chunkLines, o } = ws;
  const mark = timer('index');
  const model = await searcher.model();
  const latest = await s.version();
  const metaBefore = await s.readMeta();
  const before = metaBefore.complete === latest ? await ws.loadSnapshot(undefined, run.notes) : null;
  const drop = entries !== undefined && metaBefore.complete !== undefined && metaBefore.complete !== latest
    ? [...new Set([...run.drop ?? [], ...await goneSinceKilledRun(s)])] : run.drop;
  const executor = (bytesToRead: number) => executorOf(searcher, bytesToRead >= POOL_FROM_BYTES);
  mark('snapshot read');
  const states = before ? statesOf(before) : undefined;
  // Term triples wait on the disk the index goes to (the system's temp directory may be memory).
  const spillDir = ws.remote ? tmpdir() : ws.dir;
  // Only threads of its own searcher that no search is using (a shared searcher's may be busy elsewhere).
  const releaseWorkers = async (bytesRead: number) => {
    if (bytesRead >= RELEASE_WORKERS_FROM_BYTES && !o.searcher && ws.searching === 0) await releaseWorkersOf(searcher);
  };
  // A walk of local roots is kept: the next index run of them starts from it instead of listing them again.
  const onWalked = entries === undefined && !roots.some(isRemoteUri) ? (w: WalkListing) => recordIndexWalk(roots, w) : undefined;
  // A resident process keeps the prose files the build reads and counts their line terms meanwhile
  // (search/kept-documents.ts): the searches after the build skip them without reading or counting.
  // Every run counts them for the prose statistics file (prose-stats.ts) after its update: a local file
  // is read again then (from the page cache: holding the bench tree's 12 MB of Markdown through the
  // update raised its peak), a remote one's bytes are kept, up to PROSE_BYTES_HELD.
  const proseRead = new Map<string, Uint8Array>();
  const proseSeen = new Map<string, FileState>();
  let proseHeld = 0;
  // ... and their lines' tokens, to bound their cosines (search/prose-source.ts).
  if (o.resident) keepLineTokensWith(searcher);
  const onFileRead = (state: FileState, bytes: () => Uint8Array) => {
    if (state.kind !== 'text') return;
    // A code file's bytes, for the searches' windows (search/kept-text.ts): the searches right after the build read none.
    if (!isProsePath(state.key)) { if (o.resident && state.chunks > 0) keptText.setBytes(documentState(state), bytes()); return; }
    if (o.resident && keepIfProse(state, bytes)) {
      // ... and a scan meanwhile takes its line terms, once counted, instead of counting it (pipeline/kept-files.ts).
      const entry = { path: state.key, state: documentState(state) };
      built?.kept(state.key, { state: entry.state, lines: () => keptLines(entry) });
    }
    if (!isRemoteUri(state.key)) proseSeen.set(documentState(state), state);
    else if (state.size <= PROSE_BYTES_HELD - proseHeld) { proseRead.set(documentState(state), bytes()); proseHeld += state.size; }
  };
  // ... and every code chunk's exact sum as it is embedded (search/warm-chunks.ts): no second pooling after publish.
  // While the build goes on, a scan of this process scores the chunks of the files it pooled from their sums.
  const built = o.resident ? await builtSums(searcher) : undefined;
  // The files registered for the scans meanwhile are let go however the run ends (published below, or failed).
  try {
    // Files an older simgrep keyed under none of the workspace's roots (a tree reached through a symlink, indexed twice) go too.
    const within = metaBefore.roots ? JSON.parse(metaBefore.roots) as string[] : undefined;
    const report: IndexReport = await update({ store: s, executor, chunkLines, roots, remote: o.remote, deleteMissing: entries === undefined, entries, drop, within, states, signal, onProgress, spillDir, onEmbedded: releaseWorkers, onWalked, onFileRead, onSums: built?.onSums });
    // What only collecting needed goes before the snapshot is built: a big run's identifier table and key lookups.
    report.patch.terms.settle();
    // An updater that never said it was done embedding (a cluster build) has its threads let go here.
    await releaseWorkers(report.bytes);
    mark('update');
    // The prose documents read are counted now, before the snapshot is built, and their bytes let go.
    // (Those it did not count are held already; on a failure, what is left is counted after the snapshot.)
    const ahead = await countProseAhead(ws.proseStatsFile(), proseRead, proseSeen).then((f) => { proseRead.clear(); return f; }, () => null);
    mark('prose counted');
    const smallFragments = compact ? JSON.stringify(await compactAfter(s, metaBefore.smallFragments, latest === '0.0')) : undefined;
    mark('compact');
    const version = await s.version();
    const base = before ?? (latest === '0.0' ? emptySnapshot(model.dim) : null);
    const next = base ? patchSnapshot(base, report.patch, version, { consume: true }) : await rebuildSnapshot(s, version, model.dim, chunkLines, ws.reader);
    // The changes are in the snapshot now: let them go before it is saved (a first build's terms and vectors are a third of its memory).
    report.patch = emptyChanges();
    built?.published(); // (the finally below lets go of them on a failure before here; a second call does nothing)
    // A resident process searches it next: the cosine kernel of its vectors is made now (an index run), or
    // from now on in the background, not from the first search on (search/chunk-cosines.ts): made in
    // slices, it took seconds, through the first searches after an MCP background build turned fresh.
    if (o.resident && run.kernelNow && next.halves.length >= MIN_KERNEL_VALUES) cosineKernelNow(next.halves, next.dim);
    else if (o.resident) void cosineKernelMade(next.halves, next.dim);
    // ... and the documents it read still uncounted, and the prose sweep's lists of them (made once per
    // build, here), are finished without turns of the event loop (an index run): before the snapshot's
    // save, not through the first searches; after a search's refresh, in the background.
    if (o.resident) keptPublished({ now: run.kernelNow === true });
    mark('snapshot');
    if (version !== latest || !before) ws.saveSnapshot(next, run.notes);
    mark('save');
    proseStatsWarnings(ws, await saveProseStats(ws, next, proseRead, ahead), report.warnings);
    mark('prose stats');
    ws.publishInfo(await writing(() => s.writeMeta({ complete: version, ...(smallFragments && { smallFragments }) })));
    // The new snapshot serves searches once workspace.json says its version: set before, a search in between
    // (reading the older version there) found it newer than the meta and loaded the older one again, from the
    // file this run had just replaced or rebuilt from the store, seconds on a big index (review of engine40).
    ws.snapshot = next;
    mark('publish');
    // A resident process's scorer keeps every code chunk's sum from now on: those the update did not embed are warmed in the background.
    if (o.resident) warmChunks(searcher, { snapshot: next, reader: ws.reader, chunkLines, idle: () => idle(ws) });
    return report;
  } finally {
    built?.published();
  }
}

/**
 * A killed run's commits are in the store past its complete version: files it indexed and that are gone
 * since are in no snapshot, so the changes a run is given never name them, and this run would publish
 * them. Found by a stat of each local file the store holds (only after such a crash; found by the
 * session 33 trial: `simgrep index` reported 0 removed and the status counted 494 files too many).
 */
async function goneSinceKilledRun(s: IndexStore): Promise<string[]> {
  return (await s.fileStates()).filter((f) => !isRemoteUri(f.key) && isGone(f.key)).map((f) => f.key);
}

/** The prose statistics file brought up to date with `snap` (a failure to write it is only slower searches: said in the report). */
export async function saveProseStats(ws: OpenWorkspace, snap: Snapshot, given?: Map<string, Uint8Array>, ahead?: string | null): Promise<ProseStatsReport> {
  try {
    return await updateProseStats(ws.proseStatsFile(), snap, { ahead, given, readMissing: !ws.remote });
  } catch (e) {
    return { counted: 0, copied: 0, left: 0, written: false, failed: (e as Error).message };
  }
}

/** What an update of the prose statistics has to say: a damaged file counted again, or a file not written. */
export function proseStatsWarnings(ws: OpenWorkspace, r: ProseStatsReport, out: SourceWarning[]): void {
  if (r.damaged) out.push({ path: ws.dir, code: 'PROSE_STATS_REBUILT', message: `workspace ${ws.name}: ${r.damaged}; its documents were counted again` });
  if (r.failed) out.push({ path: ws.dir, code: 'PROSE_STATS_NOT_SAVED', message: `workspace ${ws.name}: the prose statistics were not saved (${r.failed}); searches read and count its documents instead` });
}

function keepIfProse(state: FileState, bytes: () => Uint8Array): boolean {
  if (state.kind !== 'text' || !isProsePath(state.key)) return false;
  keepDocument(documentState(state), bytes());
  return true;
}

/** The file states a snapshot holds (of these entries' files only, when given, keyed by `keyOf`), as the indexer compares them. */
export function statesOf(snap: Snapshot, only?: { entries: Entry[]; keyOf: FileKeyOf }): FileState[] {
  let files = snap.files;
  if (only) {
    const at = fileIndex(snap);
    files = only.entries.flatMap((e) => { const f = at.get(only.keyOf(e.path)); return f === undefined ? [] : [snap.files[f]]; });
  }
  return files.map((f) => ({ key: f.key, size: f.size, mtime: f.mtime, ctime: f.ctime, hash: f.hash, kind: f.kind, lines: f.lines, chunks: f.chunkCount }));
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

/**
 * Keeps a full index run's walk of local `paths` as the record recordedWalk would have made of it, so
 * the next run's check of what changed (changesOf) does not list the tree again.
 */
function recordIndexWalk(paths: string[], w: WalkListing): void {
  if (paths.some(isGlob)) return;
  const file = walkRecordFile(JSON.stringify([process.cwd(), indexWalkKey(paths)]));
  const keyOf = fileKeys(paths);
  const walk: Walk = { entries: w.entries, keys: w.entries.map((e) => keyOf(e.path)), warnings: w.warnings };
  if (file) saveWalkRecord(file, walk, { roots: paths, listed: w.listed, rules: true, startedMs: w.startedMs });
}
