// Prose documents kept in memory by a process that searches again (the MCP engine, simgrep serve): their
// bytes as last read (by a search, or by the index build) and, counted in the background, their line terms
// (rank/prose-lines.ts), so later searches neither read nor count them until the index sees them change.
import type { Entry, Source } from '../../sources/source.js';
import { prepareSweep, ProseLinesBuilder, releaseProseLines, sweepProseLines } from '../../rank/prose-lines.js';
import type { ProseLineTerms } from '../../types.js';
import { openChunks } from '../build/file-chunks.js';
import { distinctIds, lineTokensBytes, type LineTokens } from '../../embed/line-cosines.js';
import { type Searcher } from '../../searcher/api.js';
import { executorOf } from '../../searcher/seams.js';
import { pause, turn } from './time-slice.js';

/**
 * Bytes and line terms kept in all (the line terms of the bench tree's 1,387 Markdown files take 106 MB: keptHeld),
 * and the largest file kept (bigger files are read each time, and stream). The lists across the kept
 * documents' line terms have a bound of their own (rank/prose-sweep-bound.ts SWEEP_BYTES).
 */
export const KEPT_BYTES = 160 << 20;
export const KEPT_FILE_BYTES = 4 << 20;
/** About how many bytes of line terms (and line tokens) a document's byte comes to once counted (bench tree: ~12). */
export const LINE_TERMS_PER_BYTE = 12;
let bound = KEPT_BYTES;

/** The bound on what is kept (KEPT_BYTES unless a test set another: setKeptBound). */
export function keptBound(): number {
  return bound;
}

/** Sets the bound on what is kept (tests: a small one, to reach it with a tiny tree). */
export function setKeptBound(bytes: number): void {
  bound = bytes;
}

/** A prose file's entry, with the index's state of the file (key, size, mtime, hash) its bytes are kept under. */
export type StatedEntry = Entry & { state: string };

/** The key a document is kept under: its indexed file's state, so a change the index sees drops it. */
export { documentState } from '../snapshot/prose-stats-file.js';
/**
 * A kept document: its bytes, and once counted, its line terms (null: binary, or longer than its statistics
 * count) and its lines' tokens (embed/line-cosines.ts; null when no searcher could tokenize them).
 */
interface Kept { bytes: Uint8Array; lines?: ProseLineTerms | null; tokens?: LineTokens | null }

/**
 * The searcher whose in-process tokenizer and model give the kept documents' line tokens (the last
 * registered), held weakly: a closed workspace's searcher (and its model) is not kept alive by it.
 */
let tokenizer: WeakRef<Searcher> | null = null;

/**
 * Documents counted from now on also keep their lines' tokens and pooled norms, from this searcher's model
 * (a resident workspace's: search-run.ts, publish.ts), so a search bounds a document's best cosine without
 * reading it. Tokens of another model are never used for a query (they carry the model's id).
 */
export function keepLineTokensWith(searcher: Searcher): void {
  if (tokenizer?.deref() !== searcher) tokenizer = new WeakRef(searcher);
}

/** Documents counted from now on keep no line tokens from this searcher (its workspace is closing). */
export function stopLineTokensWith(searcher: Searcher): void {
  if (tokenizer?.deref() === searcher) tokenizer = null;
}

/**
 * By the index's state of each file: a document is read and counted again only once the index sees it
 * change (the stale check every search makes, by size, mtime and ctime, or the watcher), as the index's own
 * freshness has it. The least recently kept or read go first past the bound (KEPT_BYTES). A document's line terms are kept with its bytes
 * and dropped with them, so the statistics a search takes from them are those of the bytes it reads.
 */
const kept = new Map<string, Kept>();
let keptBytes = 0;
/** Changes to `kept` (a document kept or dropped, its line terms counted): keptChanges. */
let changes = 0;

/** How many times the kept documents or their line terms changed: while it stays, keptLines answers as it did. */
export function keptChanges(): number {
  return changes;
}

/** Told when kept documents are let go for room, so that caches of their line terms let them go too. */
const onDrop = new Set<() => void>();

/** Calls `f` each time kept documents are let go for room (KEPT_BYTES); their line terms are then no longer the process's to hold. */
export function onKeptDropped(f: () => void): void {
  onDrop.add(f);
}
/** States whose line terms are still to count, oldest first, and the count under way (if any). */
const toCount = new Set<string>();
let counting: Promise<void> | null = null;
/** Set by keptPublished: the count under way, and the sweep's making after it, go on without turns. */
let hurry = false;
/**
 * Set while an index build's documents are counted (keepDocument): the sweep is made once, at the build's
 * publish (keptPublished), not each time the count catches up with the build's reading (the bench tree's
 * MCP build made it 5-6 times, 0.5-1.5 s of the main thread each, the last two both held at once).
 * `sweepDue`: a count ended with the sweep left for the publish.
 */
let building = false;
let sweepDue = false;
/**
 * Set while an engine that started over an index built earlier keeps its documents (workspace/keep-restarted.ts):
 * the count takes a slice only when it says (no call of the agent under way), so the agent's calls rarely
 * share the thread with it (a slice at most every GATE_HOLD_MS); cleared once that count has ended.
 */
let gate: (() => boolean) | null = null;
/** How often a count held by its gate looks again. */
const GATE_POLL_MS = 20;
/**
 * The longest a count waits for its gate: an agent that never pauses IDLE_MS (calls 50 ms apart) had nothing counted
 * for the engine's lifetime, the documents its own searches read included (review of restart42). Past it a slice
 * goes (SLICE_MS: ~3% of the thread).
 */
export const GATE_HOLD_MS = 250;

/** Counts from now on take a slice only when `ready` says (null: as before, a slice per turn). */
export function countWhen(ready: (() => boolean) | null): void {
  gate = ready;
}

/**
 * Starts counting the line terms of the documents read so far, in the background, and makes the prose
 * sweep after: called once a search has answered (search-run.ts), so the search that read them is not
 * held up by their counting (a search wants the sweep now: a build's documents are swept too).
 */
export function countKeptDocuments(): void {
  building = false;
  startCount();
}

function startCount(): void {
  if (toCount.size > 0 || sweepDue) counting ??= countInBackground();
}

/** A document's bytes, kept (and queued to be counted) when small enough. */
export async function keptRead(reader: Source, entry: StatedEntry, signal?: AbortSignal): Promise<Uint8Array> {
  const hit = kept.get(entry.state);
  if (hit) {
    // Used again: the newest now, the last to go for room (the order is only eviction's: answers do not change).
    kept.delete(entry.state);
    kept.set(entry.state, hit);
    return hit.bytes;
  }
  const bytes = await reader.read(entry, signal);
  if (bytes.length <= KEPT_FILE_BYTES) store(entry.state, bytes);
  return bytes;
}

/** Keeps a document's bytes under its state and queues it to be counted. */
function store(state: string, bytes: Uint8Array): void {
  kept.set(state, { bytes });
  changes++;
  keep(bytes.length);
  toCount.add(state);
}

/**
 * Keeps a document an index build has just read (under the state the build indexes it with) and
 * counts its line terms in the background, slice by slice as searches' documents are: a fresh index
 * then has its documents counted, and its first searches skip them as the later ones do. False when not
 * kept now (too big, or kept already).
 */
export function keepDocument(state: string, bytes: Uint8Array): boolean {
  if (bytes.length > KEPT_FILE_BYTES || kept.has(state)) return false;
  store(state, bytes);
  building = true;
  startCount();
  return true;
}

/**
 * An index build that kept documents (keepDocument) published: its documents are swept now, once. With
 * `now` (an index run's publish, publish.ts, whose searches come next) the count under way, if any, and
 * the prose sweep's making after it (rank/prose-sweep.ts) go on without letting the event loop turn:
 * counted in slices between the build's own turns of the loop, the bench tree's 1,387 documents were
 * counted only 4-13 s after the MCP harness's build published at load 6, and their sweep made ~2 s later,
 * through the warm searches; at once, the rest took ~1 s and its making 0.8 s, before the publish.
 * Without (a search's refresh), in the background.
 */
export function keptPublished(o: { now: boolean }): void {
  building = false;
  if (o.now && (counting || sweepDue)) hurry = true;
  startCount();
}

/** A document's line terms if they are counted by now; undefined when not (yet): it is then read and counted by the search. */
export function keptLines(entry: StatedEntry): ProseLineTerms | null | undefined {
  return kept.get(entry.state)?.lines;
}

/** A document's line tokens if counted by now (null or undefined: none; its cosines are then bounded by 1). */
export function keptTokens(entry: StatedEntry): LineTokens | null | undefined {
  return kept.get(entry.state)?.tokens;
}

/** Settles once every document read so far is counted (tests). */
export async function keptLinesCounted(): Promise<void> {
  countKeptDocuments();
  while (counting) await counting;
}

/** What is kept (benches): the documents, their bytes, and of the counted ones their line terms' and line tokens' bytes. */
export function keptHeld(): { documents: number; bytes: number; lineBytes: number; tokenBytes: number } {
  const held = { documents: kept.size, bytes: 0, lineBytes: 0, tokenBytes: 0 };
  for (const k of kept.values()) {
    held.bytes += k.bytes.length;
    held.lineBytes += k.lines?.bytes ?? 0;
    held.tokenBytes += k.tokens ? lineTokensBytes(k.tokens) : 0;
  }
  return held;
}

/** The bytes kept in all: the documents', and the counted ones' line terms and tokens (the bound is on it). */
export function keptTotal(): number {
  return keptBytes;
}

/** Settles once the count under way, if any, and the sweep's making after it have ended (tests: starts none, unlike keptLinesCounted). */
export async function keptCountIdle(): Promise<void> {
  while (counting) await counting;
}

function keep(more: number): void {
  keptBytes += more;
  let dropped = false;
  for (const [state, k] of kept) {
    if (keptBytes <= bound) break;
    kept.delete(state);
    changes++;
    dropped = true;
    keptBytes -= k.bytes.length + (k.lines?.bytes ?? 0) + (k.tokens ? lineTokensBytes(k.tokens) : 0);
    if (k.lines) releaseProseLines(k.lines);
  }
  if (dropped) for (const f of onDrop) f();
}

/**
 * Counts the queued documents' line terms a slice at a time (time-slice.ts), letting the event loop turn
 * between slices, so a search that comes meanwhile is held up by at most one slice. The timer does not
 * keep the process alive: one that is done exits, leaving the rest uncounted.
 */
async function countInBackground(): Promise<void> {
  try {
    const slice = { at: -Infinity }; // the search that started it answers first
    const pace = async () => {
      if (hurry) return;
      await turn(slice);
      const since = performance.now();
      while (gate && !hurry && !gate() && performance.now() - since < GATE_HOLD_MS) { await pause(GATE_POLL_MS); slice.at = performance.now(); }
    };
    for (const state of toCount) {
      toCount.delete(state);
      await pace();
      const k = kept.get(state);
      if (!k || k.lines !== undefined) continue;
      const { lines, tokens } = await countLines(k.bytes, pace);
      if (kept.get(state) !== k) { if (lines) releaseProseLines(lines); continue; }
      k.lines = lines;
      changes++;
      k.tokens = lines ? tokens : null;
      // Its lines are bounded with every kept document's at once (rank/prose-sweep.ts).
      if (lines) sweepProseLines(lines);
      keep((lines?.bytes ?? 0) + (k.tokens ? lineTokensBytes(k.tokens) : 0));
    }
    // The lists across the documents counted (rank/prose-sweep.ts), made again if enough changed, a slice
    // at a time; during a build, once at its publish.
    sweepDue = building && !hurry;
    if (!sweepDue) await prepareSweep(pace);
  } finally {
    counting = null;
    hurry = false;
  }
}

/**
 * Line terms of a document's bytes, read as a search reads them (binary sniff, transcoding, long lines
 * cut), 64 lines at a time with a turn of the event loop between slices: a long document never holds
 * the thread much past a slice (time-slice.ts). With a searcher registered (keepLineTokensWith), its lines' tokens too.
 */
async function countLines(bytes: Uint8Array, pace: () => Promise<void>): Promise<{ lines: ProseLineTerms | null; tokens: LineTokens | null }> {
  const opened = await openChunks((async function* () { yield bytes; })(), 64);
  const builder = new ProseLinesBuilder();
  const by = tokenizer?.deref();
  const parts: LineTokens[] = [];
  let tokensFailed = !by;
  for await (const chunk of opened.chunks) {
    for (const line of chunk.lines) builder.add(line);
    if (!tokensFailed && !builder.full && chunk.lines.length > 0) {
      // A searcher whose workspace closed meanwhile is not asked again (it would start a new scorer).
      if (tokenizer?.deref() !== by) tokensFailed = true;
      else try {
        const executor = await executorOf(by!, false);
        const part = await executor.tokenLines?.(chunk.lines);
        if (part) parts.push(part); else tokensFailed = true;
      } catch {
        tokensFailed = true;
      }
    }
    await pace();
  }
  if (opened.binary) return { lines: null, tokens: null };
  const lines = builder.done();
  const tokens = lines && !tokensFailed ? joinTokens(parts) : null;
  if (tokens) tokens.distinct = distinctIds(tokens.ids);
  return { lines, tokens };
}

/** The LineTokens of consecutive slices of a document's lines as one (null when their models differ). */
function joinTokens(parts: LineTokens[]): LineTokens | null {
  if (parts.length === 0 || parts.some((p) => p.model !== parts[0].model)) return null;
  if (parts.length === 1) return parts[0];
  const nLines = parts.reduce((n, p) => n + p.norms.length, 0);
  const nIds = parts.reduce((n, p) => n + p.ids.length, 0);
  const ids = parts.some((p) => p.ids instanceof Uint32Array) ? new Uint32Array(nIds) : new Uint16Array(nIds);
  const starts = new Uint32Array(nLines + 1);
  const norms = new Float32Array(nLines);
  let line = 0;
  let at = 0;
  for (const p of parts) {
    ids.set(p.ids, at);
    norms.set(p.norms, line);
    for (let i = 0; i < p.norms.length; i++) starts[line + i + 1] = at + p.starts[i + 1];
    line += p.norms.length;
    at += p.ids.length;
  }
  return { model: parts[0].model, ids, starts, norms };
}
