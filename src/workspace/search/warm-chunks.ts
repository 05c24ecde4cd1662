// Every code chunk of a resident process's index, tokenized and pooled once in the background (issue 30):
// a warm search's candidates were read, tokenized and pooled on the main thread the first time a search
// met them (~60 a search); once warmed, the scorer has each one's line tokens and exact pooled sum
// (embed/kept-chunks.ts) under the key a search's piece gives it, so a never-scored candidate costs a dot
// product. The lines are read as a search reads them (candidate-source.ts), so the tokens and sums are the
// very ones a search would make; a file the index sees change has another state, hence other keys.
import { isProsePath } from '../../rank/prose.js';
import { executorOf, type Searcher } from '../../searcher.js';
import type { Source } from '../../sources/source.js';
import { streamEntry } from '../../sources/source.js';
import type { WarmChunk } from '../../embed/kept-scoring.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import { documentState } from '../snapshot/prose-stats-file.js';
import { windowLines } from './candidate-source.js';

/** How long the warm-up holds the thread before it lets the event loop turn (as kept-documents.ts counts). */
const SLICE_MS = 8;
/** Chunks tokenized and pooled at a time (~48 lines each). */
const CHUNKS_PER_STEP = 8;

export interface WarmOptions {
  snapshot: Snapshot;
  reader: Source;
  chunkLines: number;
}

/** Per searcher: the file states warmed (or under way), the warm-up running, and whether it stopped for good. */
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
  if (w.running || w.full || w.stopped || w.done === o.snapshot) return;
  const state = w;
  state.running = warm(searcher, o, state).finally(() => { state.running = null; });
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
  const slice = { at: performance.now() };
  await turn(slice, true); // the search that started it answers first
  let executor;
  try { executor = await executorOf(searcher, false); } catch { return; }
  if (!executor.warmChunks) return;
  for (const f of s.files) {
    if (f.kind !== 'text' || f.chunkCount === 0 || isProsePath(f.key)) continue;
    const state = documentState(f);
    if (w.states.has(state)) continue;
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
    const batch: WarmChunk[] = [];
    for (const [from, to] of windows) {
      const end = Math.min(to, read.extent);
      if (end <= from) continue;
      const lines: string[] = [];
      for (let line = from; line < end; line++) lines.push(read.lines[line]!);
      // As scoreChunks keys a piece's chunk: case kept ('c'), the file's state, its first line and line count.
      batch.push({ key: `c${state}:${from}:${end - from}`, lines });
    }
    for (let i = 0; i < batch.length; i += CHUNKS_PER_STEP) {
      if (w.stopped) return;
      let room: boolean;
      try { room = await executor.warmChunks(batch.slice(i, i + CHUNKS_PER_STEP)); } catch { w.stopped = true; return; }
      if (!room) { w.full = true; return; }
      await turn(slice);
    }
  }
  w.done = s;
}

/** Lets the event loop turn once the slice has held the thread SLICE_MS (a timer that keeps no process alive). */
async function turn(slice: { at: number }, now = false): Promise<void> {
  if (!now && performance.now() - slice.at < SLICE_MS) return;
  await new Promise((resolve) => setTimeout(resolve, 0).unref());
  slice.at = performance.now();
}
