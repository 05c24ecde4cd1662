// A search of a workspace (Workspace.search): the same options and answers as Searcher.search. What
// changed since the index saw it is re-indexed first (or, in a one-shot process, re-read for this
// answer only), then candidate chunks picked from the snapshot are scored by the ordinary pipeline.
import path from 'node:path';
import { queryMode } from '../rank/query-mode.js';
import { bundledLexicon } from '../rank/lexical/lexicon.js';
import { CANDIDATES_PER_RESULT } from '../rank/diversify.js';
import { walkAhead } from '../rank/prose-sweep.js';
import type { KnownSignals } from '../rank/relevance.js';
import { SEARCH_MODES } from '../types.js';
import { FRESH_ONLY, validate, type SearchOptions, type SearchResponse } from '../searcher/api.js';
import { executorOf, knownShareFor, sweepWalkerOf } from '../searcher/seams.js';
import { isSimgrepError } from '../errors.js';
import { isGlob } from '../sources/fs.js';
import { fileKeys } from '../sources/real-paths.js';
import { sourcesForPaths } from '../sources/resolve.js';
import type { SourceWarning } from '../sources/source.js';
import { isRemoteUri } from '../sources/uri.js';
import { updateIndex } from './build/indexer.js';
import type { WalkState } from './changes/walk-cache.js';
import { fewBytes, listWalk, recordedWalk, staleEntries } from './changes/walks.js';
import { timer } from './debug-timer.js';
import { Deadline, DeadlineReached } from '../pipeline/deadline.js';
import { KnownDistanceChanged } from '../pipeline/scoring.js';
import { inProcess, waitsBehind } from './lock.js';
import { notSavedWarnings, type OpenWorkspace, type SnapshotNotes } from './open.js';
import { statesOf } from './publish.js';
import { answersBesideIndexRun, indexUse } from './index-use.js';
import { createCandidateSource } from './search/candidate-source.js';
import { selectCandidates } from './search/candidates.js';
import { coverage } from './search/coverage.js';
import { keptText } from './search/kept-text.js';
import { idle, warmChunks } from './search/warm-chunks.js';
import { filterWalk } from './search/walk-filter.js';
import { splitProse } from './search/prose-source.js';
import { countKeptDocuments, keepLineTokensWith } from './search/kept-documents.js';
import { DamagedFileError } from './snapshot/section-file.js';
import { isDamage } from './store/damage.js';
import { patchSnapshot } from './snapshot/snapshot.js';
import { unsavedStore } from './store/unsaved-store.js';
import { Held, heldWalk, only, saveLeft, saveStale, untilBegun } from './stale-save.js';

/**
 * A one-shot search that finds at most this many bytes of new and changed files re-reads them for its
 * own answer and saves nothing (see WorkspaceOptions.oneShot): embedding them in-process costs less
 * than loading LanceDB and committing (~300 ms from a cold process).
 */
export const UNSAVED_REFRESH_BYTES = 512 << 10;

/** Whether a resident search hands its prose sweep's walk to an idle worker of the pool (tests and benches turn it off). */
let walksAhead = true;
export function setWalksAhead(on: boolean): void {
  walksAhead = on;
}

export async function searchWorkspace(ws: OpenWorkspace, so: SearchOptions): Promise<SearchResponse> {
  try {
    return await searchOnce(ws, so);
  } catch (e) {
    // Damaged tables: this search scans, and says so (simgrep index rebuilds them).
    if (isDamage(e)) return scanned(ws, so, `${e.message}; this search scanned the files instead; simgrep index rebuilds it`, 'INDEX_DAMAGED');
    // A block of the snapshot's postings failed its checksum as it was read: a miss, like a damaged
    // section found when the file was opened. The snapshot is rebuilt from the store and the search run again.
    if (!(e instanceof DamagedFileError)) throw e;
    ws.dropSnapshot();
    return searchOnce(ws, so);
  }
}

/** The scan's answer, with why the workspace was not used. */
function scanned(ws: OpenWorkspace, so: SearchOptions, reason: string | null, code = 'INDEX_NOT_USED'): Promise<SearchResponse> {
  return ws.searcher.search(so).then((r) => (reason ? { ...r, warnings: [...r.warnings, { path: ws.dir, code, message: `workspace ${ws.name} not used: ${reason}` }] } : r));
}

/**
 * --timeout bounds the whole search, as it bounds a scan's listing and reading: the walk and the
 * refresh run under it, and the scan or rescore that answers gets what is left. Cut before anything
 * was scored, the answer is a scan's cut before its first file: no results, a TIMEOUT warning, an error.
 * (A one-shot process's refresh of a few changed files, read again on this thread without saving, runs
 * to its end: it never yields to the deadline's timer.)
 */
async function searchOnce(ws: OpenWorkspace, so: SearchOptions): Promise<SearchResponse> {
  const started = performance.now();
  validate(so);
  const deadline = new Deadline(so.timeoutMs === undefined ? undefined : { signal: AbortSignal.timeout(so.timeoutMs), seconds: so.timeoutMs / 1000 }, so.signal);
  /** The walk's changes this search took to save: given back unless it said they were saved (walk-cache.ts). */
  const held = new Held();
  try {
    return await searchWithin(ws, so, deadline, started, held);
  } catch (e) {
    // The deadline's own rejection only: a damaged table or the caller's abort after it stays what it is.
    if (!(e instanceof DeadlineReached)) throw e;
    return {
      results: [],
      warnings: [{ path: ws.dir, code: 'TIMEOUT', message: `stopped after the --timeout of ${deadline.seconds} s: the results found so far are shown${e.note ? `; ${e.note}` : ''}` }],
      stats: { files: 0, lines: 0, bytes: 0, binary: 0, skipped: 0, errors: 1, ms: performance.now() - started },
    };
  } finally {
    held.end();
  }
}

/** What a TIMEOUT that cut the ranking snapshot's rebuild adds: why nothing was searched, and how to end it. */
function rebuildCut(name: string): string {
  return `workspace ${name}'s ranking snapshot (its file lost or damaged) was being rebuilt from the index, and a rebuild cut short is not saved: `
    + 'run simgrep index to rebuild it (or one search without --timeout; over MCP, the index tool), else every search with as short a --timeout stops here';
}

/** The options with the time left of the search's --timeout, its TIMEOUT warning restated with the whole. */
async function withinRest(so: SearchOptions, started: number, run: (o: SearchOptions) => Promise<SearchResponse>): Promise<SearchResponse> {
  // The search's time is counted from `started`, as its --timeout is (the walk and the refresh before the scan count).
  const whole = (r: SearchResponse): SearchResponse => ({ ...r, stats: { ...r.stats, ms: performance.now() - started } });
  if (so.timeoutMs === undefined) return whole(await run(so));
  const left = Math.max(1, Math.round(so.timeoutMs - (performance.now() - started)));
  const r = await run({ ...so, timeoutMs: left });
  const said = `--timeout of ${left / 1000} s`;
  return whole({ ...r, warnings: r.warnings.map((w) => (w.code === 'TIMEOUT' ? { ...w, message: w.message.replace(said, `--timeout of ${so.timeoutMs! / 1000} s`) } : w)) });
}

async function searchWithin(ws: OpenWorkspace, so: SearchOptions, deadline: Deadline, started: number, held: Held): Promise<SearchResponse> {
  const paths = so.paths ?? [];
  const signal = deadline.readSignal;
  const mark = timer('search', { memory: false });
  const fallback = (reason: string | null) => withinRest(so, started, (o) => scanned(ws, o, reason));
  // -L: the index holds what its walk found, which follows no link (a scan's -L walk does).
  if ((so.mode ?? 'hybrid') === 'line' || so.ignoreCase || so.followSymlinks || (so.sources?.length ?? 0) > 0 || paths.length === 0) return fallback(null);
  const model = await ws.searcher.model();
  mark('model');
  const c = await ws.compatible(model);
  mark('meta');
  const use = indexUse(c, paths);
  if (!use.ok) return fallback(`${use.why}; ${use.reason === 'roots' ? 'this search scanned the files instead' : use.reason === 'empty' ? 'run simgrep index' : 'run simgrep index to rebuild it'}`);
  if (!(SEARCH_MODES as readonly string[]).includes(so.mode ?? 'hybrid')) return fallback(null);

  // What the search covers, and what changed since the index saw it.
  // The name filters (extensions, types left out, globs) are applied to the walk afterwards: one walk
  // of the paths (cached, watched) serves every filter. A quoted glob's walk takes them as it walks.
  const names = { extensions: so.extensions, typesNot: so.typesNot, globs: so.globs };
  const after = !paths.some(isRemoteUri) && !paths.some(isGlob);
  const walkKey = JSON.stringify([paths, so.recursive, so.hidden, so.noIgnore, so.maxFileBytes, ...(after ? [] : [names])]);
  const filters = { recursive: so.recursive, hidden: so.hidden, noIgnore: so.noIgnore, maxFileBytes: so.maxFileBytes, ...(after ? {} : names) };
  // Cut from the walk on, the walk is not trusted by the next search: what it found stale may be unchecked or unsaved.
  const until = <T>(p: Promise<T>): Promise<T> => deadline.until(p).catch((e: unknown) => { ws.walks.invalidate(walkKey); throw e; });
  // An object store cannot be watched: a search of URIs lists them every time.
  const state: WalkState = paths.some(isRemoteUri)
    ? { walk: await deadline.until(listWalk(await sourcesForPaths(paths, { ...filters, remote: so.remote ?? ws.o.remote, listOnly: true }), fileKeys(paths), signal)), cached: false }
    : await until(heldWalk(ws.walks.get(walkKey, paths, () => recordedWalk(walkKey, paths, filters, signal, true), true), held));
  const { cached, changedDirs } = state;
  const walk = after ? filterWalk(state.walk, paths, names) : state.walk;
  const { entries, warnings: walkWarnings } = walk;
  if (entries.some((e) => e.pipe)) return fallback(null); // a named pipe is read once, as it streams
  mark('walk');
  // What this search met of the snapshot: its own, not an index run's beside it (open.ts SnapshotNotes).
  const notes: SnapshotNotes = {};
  // The version of the meta compatible() read (workspace.json read once a search, not twice). The search's signal
  // goes with it: a rebuild from the store (the snapshot file lost or damaged) is given up on as the search is
  // (trust44: it read every file of the store first), and stopped unless a load without a signal waits for it too.
  // The deadline's abort of a rebuild is said as the deadline, with what it cut: a script that always passes a short
  // --timeout would otherwise be answered empty by every search, told nothing of why (mend44).
  const loaded = (m?: Record<string, string> | null) => ws.loadSnapshot(m, notes, signal).catch((e: unknown) => {
    throw deadline.reached && isSimgrepError(e) && e.code === 'ABORTED' ? new DeadlineReached(rebuildCut(ws.name)) : e;
  });
  let snap = await loaded(use.m);
  mark('snapshot');
  // Nothing changed on disk since the last check (the watcher saw no event): nothing is stale.
  const stale = cached ? [] : await until(staleEntries(snap, walk, ws.statThreadFromFiles, changedDirs));
  mark(`stale check (${cached ? 'watched' : `${stale.length} stale`})`);
  // A walk narrowed by names (extensions, types, globs) checked only its own files: what changed under the rest
  // is not in the index, so the next search walks again (review of session 41: an unfiltered search after a
  // filtered one was told nothing changed, and answered from the index before the change, saying fresh).
  const checkedAll = walk === state.walk;
  // The MCP engine's made-up searches at its start: what changed is the agent's first search's to save, not
  // theirs (review of start42: the engine's start embedded it and wrote the index under its lock, before any
  // call; a `simgrep index` meanwhile was refused). The walk is given back unsaved, naming the directories of
  // what changed: the next search checks only those, not the whole walk again (trust43).
  if (so[FRESH_ONLY] && stale.length > 0) {
    held.settle(false, checkedAll ? new Set(only(walk, stale).keys.map((k) => path.dirname(k))) : undefined);
    return notFresh(ws, stale.length, [...notSavedWarnings(ws, notes, 'rebuilt from the index but not saved'), ...(state.note ? [state.note] : []), ...walkWarnings], started);
  }
  if (stale.length === 0) held.settle(checkedAll);
  let refreshed = 0;
  let pending = 0;
  const refreshWarnings: SourceWarning[] = [];
  /** Why what changed was not saved: said once, and no error (the answer is complete). */
  const notSaved: SourceWarning[] = [];
  /** Reads the stale files again for this answer only: nothing is written, and the next search finds them again. */
  const unsaved = async () => {
    ws.walks.invalidate(walkKey);
    const report = await updateIndex({ store: unsavedStore, executor: () => executorOf(ws.searcher, !fewBytes(stale, UNSAVED_REFRESH_BYTES)), chunkLines: ws.chunkLines, roots: paths, remote: so.remote ?? ws.o.remote, deleteMissing: false, entries: stale, states: statesOf(snap, { entries: stale, keyOf: fileKeys(paths) }), signal: so.signal });
    snap = patchSnapshot(snap, report.patch, `${snap.version} unsaved`);
    refreshed = pending = report.indexed;
    refreshWarnings.push(...report.warnings);
  };
  const lockFile = ws.lockFile();
  /** The stale files with their keys: what this search's save claims, and what it waits for another's save of. */
  const mine = stale.length > 0 ? only(walk, stale) : null;
  if (stale.length > 0 && ws.o.oneShot && !ws.storeOpened() && fewBytes(stale, UNSAVED_REFRESH_BYTES)) {
    await until(unsaved());
  } else if (stale.length > 0 && answersBesideIndexRun(use, { local: lockFile !== null }) && waitsBehind(lockFile!, mine!.keys) === 'other') {
    // An index run or prune of this process holds or waits for the lock (simgrep serve's start-up update, an MCP
    // index call), over an index a run completed: the search never waits for it; it reads what changed for its own
    // answer, and the run saves it. A first build is waited for (below): every file is stale then, and reading
    // them all beside the build would double its work and memory (review of engine40). The resident server asks
    // the same rule before it hands a search here (index-use.ts). So is a search's save of files that are not all
    // those this one found changed (a search of other paths): waiting would make this search's answer, a few files
    // read, wait for a save of thousands (review of save42). Searches' saves of every file this one found changed
    // are waited for (below): they save what it would (the walk cache handed this one what they took, walk-cache.ts `hold`).
    await until(unsaved());
  } else if (stale.length > 0) {
    // Calls of this process queue for the lock (an index run under way here is waited for, not refused).
    // The save runs to its end though the search is aborted (an MCP call cancelled, a client gone) or cut by
    // its deadline: it writes the index every later search reads, and is never left half-written by a caller
    // giving up; the search stops after it (its rescore reads the signal), and the save settles the walk.
    // Aborted while it still waits for its turn, the search stops at once (its save, when its turn comes, finds
    // what those ahead left: review of save42, it stopped only after the save ahead of it, seconds later).
    const seen = snap;
    /** Whether its save has begun (no lock file: it begins at once): an abort before then does not wait for it. */
    let begun = !lockFile;
    const saving = lockFile
      ? inProcess(lockFile, () => { begun = true; return saveLeft(ws, paths, mine!, seen, notes); }, { claims: mine!.keys })
      : saveStale(ws, paths, stale, notes);
    held.after(saving.then((s) => checkedAll && s.report !== undefined && (s.report?.errors ?? 0) === 0, () => false));
    const saved = await deadline.until(untilBegun(saving, () => begun, so.signal));
    if (saved.holder) { ws.walks.invalidate(walkKey); return fallback(`another process is updating it (pid ${saved.holder.pid}); this search scanned the files instead`); }
    if (saved.report !== undefined) {
      refreshed = saved.report?.indexed ?? 0;
      refreshWarnings.push(...saved.report?.warnings ?? []);
      snap = await loaded();
    } else {
      // A search is a read: when what changed cannot be saved (a full or read-only disk), it answers
      // from the index and the files it reads again, and says why once.
      ws.snapshot = null;
      snap = await loaded();
      await until(unsaved());
      notSaved.push({ path: ws.dir, code: 'INDEX_NOT_SAVED', message: `workspace ${ws.name}: what changed was not saved (${saved.errno}); this search read ${stale.length === 1 ? 'it' : `the ${stale.length} changed files`} again for its own answer` });
    }
  }
  const { display, ranks, infos, files, lines, bytes, binary, namedBinary } = coverage(snap, walk);
  mark('coverage');

  const query = await ws.searcher.embed([so.query]);
  mark('embed');
  // As the scan does (searcher.ts): a query the model cannot embed picks candidates by its words alone.
  // ... with the share of its words the model knows, as the searcher plans it: the same plan object, which
  // the prose source lists for (prose-source.ts listWithin; another share is another plan: listed whole).
  const asked = so.mode ?? 'hybrid';
  const share = asked === 'hybrid' ? await knownShareFor(ws.searcher, so.query) : 1;
  const plan = queryMode(so.query, asked, query.some((x) => x !== 0), bundledLexicon(), share).rank!;
  mark('plan');
  const topK = so.topK ?? (so.maxDistance !== undefined ? Infinity : 3);
  const heapSize = Number.isFinite(topK) ? topK * CANDIDATES_PER_RESULT + 10 : Infinity;
  // Prose files rank line by line with their own document frequencies: they are read, not picked (those
  // whose postings hold no query term only while their best case can reach the results).
  const proseIndex = plan.prose ? ws.proseIndex() : null;
  // A resident process keeps its documents' line tokens too, to bound their cosines (kept-documents.ts).
  if (plan.prose && !ws.o.oneShot) keepLineTokensWith(ws.searcher);
  const split = plan.prose ? splitProse(snap, display, ws.reader, plan, { ranks, keepBytes: !ws.o.oneShot, index: proseIndex, bounded: Number.isFinite(heapSize), model }) : { display, prose: null };
  mark('prose split');
  // A resident process's prose sweep is walked for the plan on an idle worker of the pool while this thread
  // picks and scores the code candidates; the prose documents' listing after those takes its bests
  // (rank/prose-sweep.ts walkAhead).
  if (split.prose && !ws.o.oneShot && walksAhead) {
    const hand = sweepWalkerOf(ws.searcher);
    if (hand) walkAhead(plan, hand);
  }
  const known = new Map<number, number>();
  // A resident process's scorer keeps the chunks' sums (kept-chunks.ts): a term chunk whose lexical signals
  // the index knows is then scored by its sum alone (embed/chunk-scoring.ts).
  const signals = ws.o.oneShot ? undefined : new Map<number, KnownSignals>();
  const candidates = selectCandidates(snap, { plan, query, display: split.display, infos, heapSize, maxDistance: so.maxDistance, resident: !ws.o.oneShot }, undefined, known, signals);
  mark(`candidates (${candidates.length})`);
  const rescore = (exactly: Map<number, number> | undefined, termSignals: Map<number, KnownSignals> | undefined) => {
    const source = createCandidateSource({ snapshot: snap, candidates, display: split.display, chunkLines: ws.chunkLines, reader: ws.reader, kept: ws.o.oneShot ? undefined : keptText, known: exactly, signals: termSignals, infos, ranks });
    return withinRest(so, started, (o) => ws.searcher.search({ ...o, paths: [], sources: split.prose ? [source, split.prose] : [source] }));
  };
  // A file changed unseen since it was indexed (its size, mtime and ctime as indexed): its chunks' known distances and signals
  // do not hold. Read whole (a resident process), its hash tells and its own chunks are counted as read
  // (candidate-source.ts); read in part, a shown hit's lines tell (pipeline/scoring.ts withBestLines), and then
  // every candidate's lines are counted as read, as before those were known.
  const r = await rescore(known.size > 0 ? known : undefined, signals?.size ? signals : undefined).catch((e: unknown) => {
    if (e instanceof KnownDistanceChanged) return rescore(undefined, undefined);
    throw e;
  });
  // The documents this search read are counted into line terms now, in the background, for the next;
  // and a resident process's scorer keeps every code chunk's tokens and sums, once (warm-chunks.ts).
  if (split.prose) countKeptDocuments();
  if (!ws.o.oneShot) warmChunks(ws.searcher, { snapshot: snap, reader: ws.reader, chunkLines: ws.chunkLines, idle: () => idle(ws) });
  mark(`rescore (${split.read?.files ?? 0} prose files read, ${split.read?.probed ?? 0} probed for their grams)`);
  // A damaged statistics file, or one in another simgrep's format, is only slower (the documents were read and counted): said, and rebuilt by simgrep index.
  const proseDamaged = split.prose && proseIndex?.damaged ? [{ path: ws.dir, code: proseIndex.outdated ? 'PROSE_STATS_OUTDATED' : 'PROSE_STATS_DAMAGED', message: `workspace ${ws.name}: ${proseIndex.damaged}; this search counted the documents instead; simgrep index rebuilds it` }] : [];
  // A snapshot rebuilt from the store (none on disk, or damaged) that could not be written back.
  notSaved.push(...notSavedWarnings(ws, notes, 'rebuilt from the index but not saved'));
  const warnings = [...notSaved, ...(state.note ? [state.note] : []), ...walkWarnings, ...refreshWarnings, ...namedBinary, ...proseDamaged, ...r.warnings];
  const tooLarge = walkWarnings.filter((w) => w.code === 'TOO_LARGE').length;
  return {
    ...r,
    warnings,
    stats: {
      files, lines, bytes, binary, skipped: binary + tooLarge,
      errors: r.stats.errors + walkWarnings.length - tooLarge + refreshWarnings.length,
      ms: performance.now() - started,
      index: pending > 0 ? { workspace: ws.name, refreshed, pending } : { workspace: ws.name, refreshed },
    },
  };
}

/** The warning of a search that stopped at files changed since the index saw them (FRESH_ONLY). */
export const NOT_FRESH = 'NOT_FRESH';

/** A FRESH_ONLY search's answer over `stale` changed files: nothing, and why; `said`: the walk's warnings, said once. */
function notFresh(ws: OpenWorkspace, stale: number, said: SourceWarning[], started: number): SearchResponse {
  return {
    results: [],
    warnings: [...said, { path: ws.dir, code: NOT_FRESH, message: `workspace ${ws.name}: ${stale} ${stale === 1 ? 'file' : 'files'} changed since it was indexed; this search stopped there, reading none (the next search saves them)` }],
    stats: { files: 0, lines: 0, bytes: 0, binary: 0, skipped: 0, errors: 0, ms: performance.now() - started },
  };
}
