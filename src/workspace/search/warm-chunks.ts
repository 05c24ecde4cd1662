// Every code chunk of a resident process's index, pooled once (issue 30): a warm search's candidates were
// read, tokenized and pooled on the main thread the first time a search met them (~60 a search); once
// warmed, the in-process scorer has each one's exact pooled sum (embed/kept-chunks.ts) under the key a
// search's piece gives it, so a never-scored candidate costs a dot product. An index build of this process
// hands the sums over as it embeds (builtSums: the kernel's very floats); what it did not embed (an index
// built elsewhere, chunks reused by text hash) is warmed in the background: the file's chunks read as a
// search reads them (build/file-chunks.ts), their bytes sent to the worker pool, which tokenizes and pools
// them as a search's scoring does. A file the index sees change has another state, hence other keys: the
// sums of states the index no longer holds are dropped when the next snapshot is warmed.
import { isProsePath } from '../../rank/prose.js';
import type { Executor } from '../../pool.js';
import { type Searcher } from '../../searcher/api.js';
import { executorOf, pooledFilesOf } from '../../searcher/seams.js';
import type { PooledFile } from '../../pipeline/kept-files.js';
import type { Source } from '../../sources/source.js';
import { streamEntry } from '../../sources/source.js';
import { pack, type PendingChunk } from '../build/chunk-batch.js';
import { sizeToRead, type Snapshot } from '../snapshot/snapshot.js';
import { fileState } from '../snapshot/prose-stats-file.js';
import { KEPT_TEXT_FILE_BYTES, keptText, linesOf, readWhole } from './kept-text.js';
import { pause, turn } from './time-slice.js';

/**
 * Chunks tokenized and pooled per worker task (~48 lines each), gathered across files: a task per file
 * (2.4 chunks on the bench tree) cost the main thread ~0.1 ms each in the pool's messages alone.
 */
const CHUNKS_PER_STEP = 32;

export interface WarmOptions {
  snapshot: Snapshot;
  reader: Source;
  chunkLines: number;
  /**
   * Whether the workspace's searches pause (none under way, the last ended IDLE_MS ago): each step waits
   * for one, so back-to-back searches do not share the cores with the warm-up (its workers pool ~5 s).
   */
  idle?: () => boolean;
  /** Whether the workspace it warms for is closing (or its engine): no warm-up starts, the one under way ends at its next step. */
  closed?: () => boolean;
}

/** How long after a search the warm-up takes a step (an agent's next call comes seconds later; a bench's at once). */
export const IDLE_MS = 100;

/**
 * Per searcher: the file states warmed (or under way), the warm-up running, the snapshot whose warm-up
 * found the store full, whether it was stopped, the snapshot warmed to its end, the chunks its warm-ups pooled.
 */
interface Warmed { states: Set<string>; running: Promise<void> | null; full: Snapshot | null; stopped: boolean; done: Snapshot | null; pooled: number }
const warmed = new WeakMap<Searcher, Warmed>();

function warmedOf(searcher: Searcher): Warmed {
  let w = warmed.get(searcher);
  if (!w) warmed.set(searcher, (w = { states: new Set(), running: null, full: null, stopped: false, done: null, pooled: 0 }));
  return w;
}

/** The key a search's piece gives a chunk it scores with case kept (chunk-scoring.ts): 'c', its file's state, first line, line count. */
function chunkKey(state: string, from: number, lines: number): string {
  return `c${state}:${from}:${lines}`;
}

/** The file state in a warmed chunk's key (chunkKey). */
function stateOfKey(key: string): string {
  return key.slice(1, key.lastIndexOf(':', key.lastIndexOf(':') - 1));
}

/**
 * Starts warming the snapshot's code chunks not warmed yet into the searcher's in-process scorer, in the
 * background, unless a warm-up is under way (the next search starts one for what is left) or this
 * snapshot's found the store full (a later snapshot's drops the stale sums first, so it may find room).
 */
export function warmChunks(searcher: Searcher, o: WarmOptions): void {
  const w = warmedOf(searcher);
  // A snapshot warmed to its end is not walked again (its 9,000 files' states cost ~10 ms a search).
  if (w.running || w.full === o.snapshot || w.done === o.snapshot || o.closed?.()) return;
  w.stopped = false; // a workspace searches with it again (a searcher may serve more than one)
  w.running = warm(searcher, o, w).finally(() => { w.running = null; });
}

/**
 * What a resident process's index build hands its scorer as it embeds (the indexer's onSums): each code
 * chunk's exact sum, kept under the key a search gives it, so the searches right after the index turns
 * fresh find them, and the warm-up after publish pools only what the build did not embed.
 * Undefined when the searcher's in-process scorer keeps none.
 */
export async function builtSums(searcher: Searcher): Promise<BuiltSums | undefined> {
  let scorer: Executor;
  try { scorer = await executorOf(searcher, false); } catch { return undefined; }
  if (!scorer.keepSums) return undefined;
  // The files pooled, for the scans while the build goes on (pipeline/kept-files.ts), until it is published:
  // this build's own entries, which its publish lets go of (another build of this searcher keeps its own).
  const mine = pooledFilesOf(searcher).build();
  const register = (p: string, f: PooledFile) => { mine.files.set(p, f); };
  const onSums = (chunks: PendingChunk[], sums: Float64Array) => {
    for (const c of chunks) if (!isProsePath(c.path) && mine.files.get(c.path)?.state !== c.state) register(c.path, { state: c.state });
    const dim = sums.length / Math.max(1, chunks.length);
    const keys: string[] = [];
    const rows: number[] = [];
    // Prose files are ranked line by line (rank/prose.ts): their chunks' sums would never be asked for.
    chunks.forEach((c, j) => { if (c.end > c.start && !isProsePath(c.path)) { keys.push(chunkKey(c.state, c.start, c.end - c.start)); rows.push(j); } });
    if (keys.length === 0) return;
    const kept = rows.length === chunks.length ? sums : new Float64Array(rows.length * dim);
    if (kept !== sums) rows.forEach((r, j) => kept.set(sums.subarray(r * dim, (r + 1) * dim), j * dim));
    void scorer.keepSums!(keys, kept).catch(() => {});
  };
  const published = () => mine.release();
  return { onSums, kept: register, published };
}

/** builtSums' hand-over, and what the build calls once its index answers (scans of its files end then). */
export interface BuiltSums {
  onSums(chunks: PendingChunk[], sums: Float64Array): void;
  /** A prose document the build keeps (search/kept-documents.ts), with its line terms once counted. */
  kept(path: string, f: PooledFile): void;
  published(): void;
}

/** No search of the workspace under way, and the last ended IDLE_MS ago or more. */
export function idle(ws: { searching: number; searchedAt: number }): boolean {
  return ws.searching === 0 && performance.now() - ws.searchedAt >= IDLE_MS;
}

/** Stops warming for this searcher (its workspace is closing): the warm-up under way ends at its next step. */
export function stopWarming(searcher: Searcher): void {
  const w = warmed.get(searcher);
  if (w) w.stopped = true;
}

/** Settles once the warm-up under way (if any) is done, with how many chunks the searcher's warm-ups have pooled (tests, benches). */
export async function chunksWarmed(searcher: Searcher): Promise<number> {
  const w = warmed.get(searcher);
  await w?.running;
  return w?.pooled ?? 0;
}

/** Chunks read and waiting to be pooled in one worker task: their keys, and their lines' bytes. */
interface Step { keys: string[]; chunks: { bytes: Uint8Array; offsets: Uint32Array }[] }

async function warm(searcher: Searcher, o: WarmOptions, w: Warmed): Promise<void> {
  const s = o.snapshot;
  const slice = { at: -Infinity };
  /** The searcher closed (stopWarming), or the workspace that asked did. */
  const off = () => w.stopped || o.closed?.() === true;
  await turn(slice); // the search that started it answers first
  if (o.closed?.()) return;
  let scorer: Executor;
  try { scorer = await executorOf(searcher, false); } catch { return; }
  const store = scorer.keptChunks?.();
  if (!scorer.keepSums || !store) return;
  // The worker pool only once there is something to pool (a build that handed every sum over let its threads go).
  let pool: Executor | null = null;
  // The states this snapshot holds: the sums and marks of any other (a changed or removed file's) go.
  const live = new Set<string>();
  for (const f of s.files) if (f.kind === 'text' && f.chunkCount > 0 && !isProsePath(f.key)) live.add(fileState(f));
  store.dropWarmed((key) => !live.has(stateOfKey(key)));
  for (const state of w.states) if (!live.has(state)) w.states.delete(state);
  let step: Step = { keys: [], chunks: [] };
  // Steps the pool is working on, one per thread at most (its gate lets a build have one while searches run).
  const pooling: Promise<boolean>[] = [];
  const settled = async (most: number): Promise<boolean> => {
    while (pooling.length > most) if (!(await pooling.shift())) return false;
    return true;
  };
  /** Sends the step's chunks to the pool (once it has a thread free): false once the store is full or the searcher closed. */
  const send = async (): Promise<boolean> => {
    const { keys, chunks } = step;
    step = { keys: [], chunks: [] };
    if (keys.length === 0) return true;
    if (o.closed?.()) return false; // a closed workspace's warm-up starts no pool
    try { pool ??= await executorOf(searcher, true); } catch { return false; }
    if (!pool.chunkSums || !(await settled(Math.max(1, pool.capacity / 2) - 1))) return false;
    pooling.push(pool.chunkSums(pack(chunks)).then(
      // Full: the files not kept are looked at again by a later snapshot's warm-up, which finds room once the stale sums go.
      (sums) => scorer.keepSums!(keys, sums).then((room) => { w.pooled += keys.length; if (!room) { w.full = s; w.states.clear(); } return room; }),
      () => { w.stopped = true; return false; }, // the searcher closed meanwhile
    ));
    return true;
  };
  for (const f of s.files) {
    if (f.kind !== 'text' || f.chunkCount === 0 || isProsePath(f.key)) continue;
    const state = fileState(f);
    if (w.states.has(state)) continue;
    w.states.add(state);
    // The chunks whose sums are not kept (all of them, unless this process built the index: builtSums).
    const wanted = new Map<number, string>();
    for (let c = f.firstChunk; c < f.firstChunk + f.chunkCount; c++) {
      const from = s.start[c];
      const to = Math.min(f.lines, s.end[c]);
      const key = chunkKey(state, from, to - from);
      if (to > from && !store.hasSum(key)) wanted.set(from, key);
    }
    // Its text too, for the searches' windows (kept-text.ts), unless kept already.
    const read = !keptText.has(state) && f.size <= KEPT_TEXT_FILE_BYTES;
    if (wanted.size === 0 && !read) continue;
    while (o.idle && !o.idle() && !off()) await pause(IDLE_MS);
    if (off()) return;
    try {
      // As a search reads the file (candidate-source.ts): the chunks the snapshot has, with the lines they had.
      let text = await keptText.get(state, o.chunkLines);
      if (!text) {
        const read = await readWhole(streamEntry(o.reader, { path: f.key, size: sizeToRead(f) }), o.chunkLines, f.hash);
        if (!read.indexed) continue; // changed unseen (its size, mtime and ctime as indexed): its text and sums are not the indexed state's
        keptText.set(state, text = read.text);
      }
      const lines = text.offsets.length - 1;
      for (const [from, key] of wanted) {
        const to = Math.min(lines, from + o.chunkLines - (from % o.chunkLines));
        if (key !== chunkKey(state, from, to - from)) continue;
        step.keys.push(key);
        step.chunks.push(linesOf(text, from, to));
      }
    } catch {
      continue; // gone or unreadable: a search that meets it reads it and says so
    }
    if (step.keys.length >= CHUNKS_PER_STEP && !(await send())) return;
    await turn(slice);
  }
  if (off() || !(await send()) || !(await settled(0))) return;
  w.done = s;
}
