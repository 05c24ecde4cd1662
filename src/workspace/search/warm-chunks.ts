// Every code chunk of a resident process's index, pooled once in the background (issue 30): a warm
// search's candidates were read, tokenized and pooled on the main thread the first time a search met
// them (~60 a search); once warmed, the in-process scorer has each one's exact pooled sum (embed/
// kept-chunks.ts) under the key a search's piece gives it, so a never-scored candidate costs a dot
// product. The lines are read as a search reads them (candidate-source.ts) and sent to the worker pool,
// which tokenizes and pools them as a search's scoring does (the very floats); the main thread only reads
// and keeps. A file the index sees change has another state, hence other keys.
import { isProsePath } from '../../rank/prose.js';
import type { Executor } from '../../pool.js';
import { executorOf, type Searcher } from '../../searcher.js';
import type { Source } from '../../sources/source.js';
import { streamEntry } from '../../sources/source.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import { documentState } from '../snapshot/prose-stats-file.js';
import { windowLines } from './candidate-source.js';
import { pause, turn } from './time-slice.js';

const encoder = new TextEncoder();

/** Chunks tokenized and pooled per worker task (~48 lines each). */
const CHUNKS_PER_STEP = 16;

export interface WarmOptions {
  snapshot: Snapshot;
  reader: Source;
  chunkLines: number;
  /**
   * Whether the workspace's searches pause (none under way, the last ended IDLE_MS ago): each step waits
   * for one, so back-to-back searches do not share the cores with the warm-up (its workers pool ~5 s).
   */
  idle?: () => boolean;
}

/** How long after a search the warm-up takes a step (an agent's next call comes seconds later; a bench's at once). */
export const IDLE_MS = 100;

/** Per searcher: the file states warmed (or under way), the warm-up running, whether its store is full or it was stopped, the snapshot warmed to its end. */
interface Warmed { states: Set<string>; running: Promise<void> | null; full: boolean; stopped: boolean; done: Snapshot | null }
const warmed = new WeakMap<Searcher, Warmed>();

/**
 * Starts warming the snapshot's code chunks not warmed yet into the searcher's in-process scorer, in the
 * background, unless a warm-up is under way (the next search starts one for what is left) or the store is full.
 */
export function warmChunks(searcher: Searcher, o: WarmOptions): void {
  let w = warmed.get(searcher);
  if (!w) warmed.set(searcher, (w = { states: new Set(), running: null, full: false, stopped: false, done: null }));
  // A snapshot warmed to its end is not walked again (its 9,000 files' states cost ~10 ms a search).
  if (w.running || w.full || w.done === o.snapshot) return;
  w.stopped = false; // a workspace searches with it again (a searcher may serve more than one)
  const state = w;
  state.running = warm(searcher, o, state).finally(() => { state.running = null; });
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

/** Settles once the warm-up under way (if any) is done (tests, benches). */
export async function chunksWarmed(searcher: Searcher): Promise<void> {
  await warmed.get(searcher)?.running;
}

async function warm(searcher: Searcher, o: WarmOptions, w: Warmed): Promise<void> {
  const s = o.snapshot;
  const slice = { at: -Infinity };
  await turn(slice); // the search that started it answers first
  let pool: Executor;
  let scorer: Executor;
  try { [pool, scorer] = await Promise.all([executorOf(searcher, true), executorOf(searcher, false)]); } catch { return; }
  if (!pool.chunkSums || !scorer.keepSums) return;
  for (const f of s.files) {
    if (f.kind !== 'text' || f.chunkCount === 0 || isProsePath(f.key)) continue;
    const state = documentState(f);
    if (w.states.has(state)) continue;
    while (o.idle && !o.idle() && !w.stopped) await pause(IDLE_MS);
    if (w.stopped) return;
    w.states.add(state);
    const chunks: number[] = [];
    for (let c = f.firstChunk; c < f.firstChunk + f.chunkCount; c++) if (s.end[c] > s.start[c]) chunks.push(c);
    const windows = chunks.map((c) => [s.start[c], Math.min(f.lines, s.end[c])]);
    let read;
    try {
      read = await windowLines(streamEntry(o.reader, { path: f.key, size: f.size }), o.chunkLines, windows);
    } catch {
      continue; // gone or unreadable: a search that meets it reads it and says so
    }
    for (let i = 0; i < windows.length; i += CHUNKS_PER_STEP) {
      while (o.idle && !o.idle() && !w.stopped) await pause(IDLE_MS);
      if (w.stopped) return;
      const keys: string[] = [];
      const lines: string[] = [];
      const chunkStarts: number[] = [0];
      for (const [from, to] of windows.slice(i, i + CHUNKS_PER_STEP)) {
        const end = Math.min(to, read.extent);
        if (end <= from) continue;
        for (let line = from; line < end; line++) lines.push(read.lines[line]!);
        chunkStarts.push(lines.length);
        // As scoreChunks keys a piece's chunk: case kept ('c'), the file's state, its first line and line count.
        keys.push(`c${state}:${from}:${end - from}`);
      }
      if (keys.length === 0) continue;
      try {
        const sums = await pool.chunkSums({ ...encodeLines(lines), chunkStarts: Uint32Array.from(chunkStarts) });
        if (!(await scorer.keepSums(keys, sums))) { w.full = true; return; }
      } catch {
        w.stopped = true; // the searcher closed meanwhile
        return;
      }
      await turn(slice);
    }
  }
  w.done = s;
}

/** Lines as a batch's bytes and offsets, as a search's pieces carry them (candidate-source.ts: a line that ends with \r gets one more). */
function encodeLines(lines: string[]): { bytes: Uint8Array; offsets: Uint32Array } {
  const bytes = encoder.encode(lines.map((l) => (l.endsWith('\r') ? `${l}\r\n` : `${l}\n`)).join(''));
  const offsets = new Uint32Array(lines.length + 1);
  let line = 1;
  for (let i = 0; i < bytes.length && line < lines.length; i++) if (bytes[i] === 10) offsets[line++] = i + 1;
  offsets[lines.length] = bytes.length;
  return { bytes, offsets };
}

