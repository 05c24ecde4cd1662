// Prose files of a workspace search, read whole from disk as a scan reads them: their lines are ranked
// with the file's own document frequencies (rank/prose.ts), which chunk candidates cannot give. The
// postings tell which of them can hold a query term: those are listed first; the others, whose lines
// can score by their cosine alone, after them, so the pipeline can skip the ones out of reach unread.
import type { Entry, Source } from '../../sources/source.js';
import type { RankPlan } from '../../rank/plan.js';
import { isProsePath, termlessProseDistance } from '../../rank/prose.js';
import { proseBest, ProseLinesBuilder } from '../../rank/prose-lines.js';
import { pathInfo } from '../snapshot/path-info.js';
import type { ProseLineTerms } from '../../types.js';
import { openChunks } from '../build/file-chunks.js';
import type { Snapshot } from '../snapshot/snapshot.js';

/** Files of this many bytes in all, or fewer, are scored on the calling thread (as the searcher's rule). */
const SMALL_BYTES = 2 << 20;
/**
 * Prose bytes and line terms kept in memory between searches, in all (the bench tree's 12 MB of
 * Markdown take about 60 MB with their line terms), and per file (bigger files are read each time).
 */
const KEPT_BYTES = 160 << 20;
const KEPT_FILE_BYTES = 4 << 20;

type Terms = readonly { key: string; whole: boolean }[];
/** A prose file's entry, with the index's state of the file (key, size, mtime, hash) its bytes are kept under. */
type StatedEntry = Entry & { state: string };
/** A kept document: its bytes, and once asked for, its line terms (null: binary, or longer than its statistics count). */
interface Kept { bytes: Uint8Array; lines?: ProseLineTerms | null }

/**
 * Prose files' bytes as last read, and their line terms, by the index's state of the file (not in a
 * one-shot process, which searches once): a process that searches again reads and counts a
 * document again only once the index sees it change (the stale check every search makes, by size and
 * mtime, or the watcher), as the index's own freshness has it. The oldest go first past KEPT_BYTES.
 * A document's line terms are kept with its bytes and dropped with them, so the statistics the
 * pipeline takes from them are always those of the bytes it reads.
 */
const kept = new Map<string, Kept>();
let keptBytes = 0;
const counting = new Map<string, Promise<ProseLineTerms | null>>();

async function keptRead(reader: Source, entry: StatedEntry, signal?: AbortSignal): Promise<Uint8Array> {
  const hit = kept.get(entry.state);
  if (hit) return hit.bytes;
  const bytes = await reader.read(entry, signal);
  if (bytes.length > KEPT_FILE_BYTES) return bytes;
  kept.set(entry.state, { bytes });
  keep(bytes.length);
  return bytes;
}

function keep(more: number): void {
  keptBytes += more;
  for (const [state, k] of kept) {
    if (keptBytes <= KEPT_BYTES) break;
    kept.delete(state);
    keptBytes -= k.bytes.length + (k.lines?.bytes ?? 0);
  }
}

/** A kept document's line terms, counted from its kept bytes on first asking; null when it is not kept (too big). */
async function keptLines(reader: Source, entry: StatedEntry, signal?: AbortSignal): Promise<ProseLineTerms | null> {
  const hit = kept.get(entry.state);
  if (hit?.lines !== undefined) return hit.lines;
  const running = counting.get(entry.state);
  if (running) return running;
  const p = (async () => {
    const bytes = await keptRead(reader, entry, signal);
    const k = kept.get(entry.state);
    if (!k || k.bytes !== bytes) return null;
    // Read as a search reads it (binary sniff, transcoding, long lines cut), so its lines are the pipeline's.
    const opened = await openChunks((async function* () { yield bytes; })(), 64);
    const builder = new ProseLinesBuilder();
    for await (const chunk of opened.chunks) for (const line of chunk.lines) builder.add(line);
    const lines = opened.binary ? null : builder.done();
    if (kept.get(entry.state) !== k) return lines;
    k.lines = lines;
    keep(lines?.bytes ?? 0);
    return lines;
  })();
  counting.set(entry.state, p);
  try {
    return await p;
  } finally {
    counting.delete(entry.state);
  }
}

/**
 * The covered files split in two: display paths with the prose files left out, and the prose files as a
 * Source that says which of them can hold a term (`plan`: the search's, for their order only; the
 * pipeline asks with its own plan's terms).
 */
export function splitProse(snap: Snapshot, display: (string | undefined)[], reader: Source, plan: RankPlan, o: { keepBytes: boolean }): { display: (string | undefined)[]; prose: Source | null } {
  const { rest, fileOf } = proseFiles(snap, display);
  if (fileOf.size === 0) return { display, prose: null };
  let known = { terms: plan.terms as Terms, files: filesWithTerms(snap, plan.terms) };
  const holds = (f: number, files: Uint8Array) => files[f] === 1 || snap.files[f].chunkCount === 0;
  // Files that can hold a term first (they set the top-k's floor), then the others by their best case.
  const termless = new Map<Entry, number>();
  for (const [e, f] of fileOf) if (!holds(f, known.files)) termless.set(e, termlessProseDistance(plan, e.path));
  const withTerms = [...fileOf.keys()].filter((e) => !termless.has(e));
  const after = [...termless.keys()].sort((x, y) => termless.get(x)! - termless.get(y)!);
  const bytes = [...fileOf.keys()].reduce((sum, e) => sum + (e.size ?? 0), 0);
  return {
    display: rest,
    prose: {
      small: bytes <= SMALL_BYTES,
      async *list(signal?: AbortSignal) {
        if (!o.keepBytes) { yield* withTerms; yield* after; return; }
        // With their line terms kept, the documents whose best line is nearest go first: the top-k's
        // floor falls soonest, and more of the others are skipped unread (pipeline.ts).
        const best = new Map<Entry, number>();
        for (const e of withTerms) {
          // One that cannot be read now is read by the pipeline, which reports it.
          const lines = kept.get((e as StatedEntry).state)?.lines ?? await keptLines(reader, e as StatedEntry, signal).catch(() => null);
          best.set(e, lines ? proseBest(lines, plan, e.path, pathInfo(e.path).facts) : -Infinity);
        }
        yield* withTerms.sort((x, y) => best.get(x)! - best.get(y)!);
        yield* after;
      },
      ...(o.keepBytes && {
        proseLines: (entry: Entry, signal?: AbortSignal) => kept.get((entry as StatedEntry).state)?.lines ?? keptLines(reader, entry as StatedEntry, signal),
      }),
      read: (entry, signal) => (o.keepBytes ? keptRead(reader, entry as StatedEntry, signal) : reader.read(entry, signal)),
      // A big document streams in chunks, as a scan reads it (never whole in memory, never kept).
      async *stream(entry: Entry, signal?: AbortSignal) {
        if (o.keepBytes && ((entry.size ?? Infinity) <= KEPT_FILE_BYTES || !reader.stream)) yield await keptRead(reader, entry as StatedEntry, signal);
        else if (!reader.stream) yield await reader.read(entry, signal);
        else yield* reader.stream(entry, signal);
      },
      holdsAnyTerm(entry, terms) {
        const f = fileOf.get(entry);
        if (f === undefined) return true;
        if (!sameTerms(known.terms, terms)) known = { terms, files: filesWithTerms(snap, terms) };
        return holds(f, known.files);
      },
    },
  };
}

const split = new WeakMap<(string | undefined)[], { snap: Snapshot; rest: (string | undefined)[]; fileOf: Map<Entry, number> }>();

/** The covered paths without the prose files, and each prose file's entry and snapshot index (kept while the coverage is). */
function proseFiles(snap: Snapshot, display: (string | undefined)[]): { rest: (string | undefined)[]; fileOf: Map<Entry, number> } {
  const kept = split.get(display);
  if (kept && kept.snap === snap) return kept;
  const fileOf = new Map<Entry, number>();
  const rest = display.map((path, f) => {
    if (path === undefined || !isProsePath(path)) return path;
    const { key, size, mtime, hash } = snap.files[f];
    fileOf.set({ path, size, state: `${key}\0${size}\0${mtime}\0${hash}` } as StatedEntry, f);
    return undefined;
  });
  split.set(display, { snap, rest, fileOf });
  return { rest, fileOf };
}

/**
 * Per snapshot file, 1 when one of its chunks lists one of the terms in the postings: the postings count
 * what countTerms counts in the chunk's lines (as candidates.ts relies on), so a file marked 0 has no
 * line that holds a term.
 */
function filesWithTerms(snap: Snapshot, terms: Terms): Uint8Array {
  const out = new Uint8Array(snap.files.length);
  for (const term of terms) {
    const found = (term.whole ? snap.byLower : snap.byStem).find(term.key);
    if (!found) continue;
    for (let j = 0; j < found.chunk.length; j++) out[snap.chunkFile[found.chunk[j]]] = 1;
  }
  return out;
}

function sameTerms(a: Terms, b: Terms): boolean {
  return a === b || (a.length === b.length && a.every((t, i) => t.key === b[i].key && t.whole === b[i].whole));
}
