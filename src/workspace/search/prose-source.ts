// Prose files of a workspace search, read whole from disk as a scan reads them: their lines are ranked
// with the file's own document frequencies (rank/prose.ts), which chunk candidates cannot give. The
// postings tell which of them can hold a query term: those are listed first; the others, whose lines
// can score by their cosine alone, after them, so the pipeline can skip the ones out of reach unread.
// A resident process keeps their bytes and line terms (kept-documents.ts).
import { ioPathOf } from '../../sources/dir-listing.js';
import type { Entry, Source } from '../../sources/source.js';
import type { RankPlan } from '../../rank/plan.js';
import { isProsePath, termlessProseDistance } from '../../rank/prose.js';
import { proseReachListedOf } from '../../rank/prose-lines.js';
import { pathSignals, type PathSignals } from '../../rank/path-signals.js';
import { pathInfo, pathWordPrefixes, priorsIndex, type PathInfo } from '../snapshot/path-info.js';
import { KEPT_FILE_BYTES, keptChanges, keptLines, keptRead, keptTokens, onKeptDropped, type StatedEntry } from './kept-documents.js';
import { lineCosines, type LineCosines } from '../../embed/line-cosines.js';
import type { ProseIndexLines } from './prose-index.js';
import type { ModelData, ProseLineTerms, ProsePlanTerms } from '../../types.js';
import { sizeToRead, type Snapshot } from '../snapshot/snapshot.js';
import { fileState } from '../snapshot/prose-stats-file.js';
import { isRemoteUri } from '../../sources/uri.js';
import { readFileSync } from 'node:fs';

/** Files of this many bytes in all, or fewer, are scored on the calling thread (as the searcher's rule). */
const SMALL_BYTES = 2 << 20;

type Terms = readonly { key: string; whole: boolean }[];

/**
 * The covered files split in two: display paths with the prose files left out, and the prose files as a
 * Source that says which of them can hold a term (`plan`: the search's, for their order only; the
 * pipeline asks with its own plan's terms). `model`: the search's, whose kept line tokens bound its
 * documents' cosines (a resident process: keepBytes).
 */
export function splitProse(snap: Snapshot, display: (string | undefined)[], reader: Source, plan: RankPlan, o: { ranks?: (string | undefined)[]; keepBytes: boolean; index?: ProseIndexLines | null; bounded?: boolean; model?: ModelData }): { display: (string | undefined)[]; prose: Source | null; read?: { files: number; probed: number } } {
  const prose = proseFiles(snap, display, o.ranks);
  const { rest, fileOf, entries, files, infos, bytes } = prose;
  const n = entries.length;
  if (n === 0) return { display, prose: null };
  const read = { files: 0, probed: 0 };
  // A document's line terms: counted by this process (a resident one), else from the index's statistics file.
  const linesOf = (e: Entry, p: ProsePlanTerms): ProseLineTerms | null =>
    (o.keepBytes ? keptLines(e as StatedEntry) : undefined) ?? o.index?.linesOf((e as StatedEntry).state, p) ?? null;
  /** linesOf the k-th document for the plan (its kept line terms looked up again only once they changed). */
  const linesAt = (k: number): ProseLineTerms | null => (o.keepBytes ? keptAt(prose, k) : undefined) ?? o.index?.linesOf(entries[k].state, plan) ?? null;
  let known = { terms: plan.terms as Terms, files: filesWithTerms(snap, plan.terms, prose) };
  const { chunkless } = prose;
  const holds = (k: number, marks: Uint8Array) => marks[files[k]] === 1 || chunkless[k] === 1;
  // Each document's path signals for the plan (pathSignals' values): worked out for those with a name that
  // starts with a path word's first three letters (pathSignals' rule: the shorter, 3 letters at least,
  // starts the longer); no word matches the others' (pathMatch 0), whose signals are their priors' for the
  // plan (PathInfo.priors): no map lookup and no match tried for the most of ~1,400 documents a search.
  const named = new Uint8Array(n);
  for (const prefix of pathWordPrefixes(plan)) for (const k of prose.byPrefix.get(prefix) ?? []) named[k] = 1;
  // Those signals by document in one array per priors index, made once per coverage (a search read ~1,400 PathInfos' for them).
  const priors = priorsIndex(plan);
  const unnamed = prose.priorSignals[priors] ??= infos.map((info) => info.priors[priors]);
  const signalsOf = (k: number): PathSignals => (named[k] === 1 ? pathSignals(rankOf(entries[k]), plan, infos[k].facts) : unnamed[k]);
  // What list() sorts the documents by, for `plan` (listedBound; NaN: none): the best case of those that
  // can hold no term, the reach of those whose line terms it knew.
  const listed = new Float64Array(n).fill(NaN);
  // Files that can hold a term first (they set the top-k's floor), then the others by their best case.
  const withTerms: number[] = [];
  const after: number[] = [];
  // The snapshot's postings hold words, not numbers: with the query's numbers (prose terms too) any file may hold one.
  const numbers = (plan.prose?.numbers.length ?? 0) > 0;
  for (let k = 0; k < n; k++) {
    if (numbers || holds(k, known.files)) { withTerms.push(k); continue; }
    listed[k] = termlessProseDistance(plan, rankOf(entries[k]), 1, signalsOf(k));
    after.push(k);
  }
  after.sort((x, y) => listed[x] - listed[y]);
  /** The query's cosine bounds (worked out per token on first use), for the last query vector asked about. */
  let cosines: { query: Float32Array; of: LineCosines } | null = null;
  const model = o.keepBytes ? o.model : undefined;
  // With a bounded top-k, a document whose line terms are known is read only when its bound reaches the
  // results (rarely: most are skipped unread), so only the others count towards scoring on this thread.
  let unknown = bytes;
  if (o.bounded && (o.keepBytes || o.index)) {
    unknown = 0;
    for (const k of withTerms) if (!linesAt(k)) unknown += entries[k].size ?? 0;
  }
  /**
   * The documents in the order they are listed, but those whose bound is past `floor` (left out: counted).
   * The documents whose line terms are known (counted: kept-documents.ts; or in the index: prose-index.ts)
   * by the bound on their best line that visits no line (proseReach), nearest first: the top-k's floor falls
   * soon, and the others are skipped unread once it is past their bound (pipeline/unread-prose.ts). The others first:
   * they are read and counted as a scan does. Then those that can hold no term, by their best case.
   */
  const listing = (floor: number): { entries: Entry[]; left: number } => {
    const out: Entry[] = [];
    let left = 0;
    if (!o.keepBytes && !o.index) for (const k of withTerms) out.push(entries[k]);
    else {
      const best = new Float64Array(withTerms.length);
      const near: number[] = [];
      const reachOf = proseReachListedOf(plan);
      for (let i = 0; i < withTerms.length; i++) {
        const k = withTerms[i];
        const lines = linesAt(k);
        best[i] = lines ? reachOf(lines, rankOf(entries[k]), signalsOf(k)) : -Infinity;
        if (lines) listed[k] = best[i];
        if (best[i] > floor) left++; else near.push(i);
      }
      // By index into a typed array (a sort of ~1,400 documents through a Map took milliseconds); stable
      // (documents not counted yet, all -Infinity, keep their order), so those near come in the order all would.
      near.sort((x, y) => (best[x] - best[y]) || 0);
      for (const i of near) out.push(entries[withTerms[i]]);
    }
    for (const k of after) if (listed[k] > floor) left++; else out.push(entries[k]);
    return { entries: out, left };
  };
  return {
    display: rest,
    read,
    prose: {
      small: unknown <= SMALL_BYTES,
      async *list() {
        listings.whole++;
        yield* listing(Infinity).entries;
      },
      listWithin: (p, floor) => {
        if (p !== plan) return null;
        listings.within++;
        return listing(floor);
      },
      ...((o.keepBytes || o.index) && { proseLines: linesOf }),
      // A document's line terms from the index's statistics file bound its lines' grams; a counted one's are exact.
      ...(o.index && {
        async proseLinesRead(entry: Entry, p: ProsePlanTerms) {
          const index = o.index!;
          if ((o.keepBytes && keptLines(entry as StatedEntry)) || (entry.size ?? Infinity) > KEPT_FILE_BYTES) return null;
          read.probed++;
          // A local file at once (a few KB: an async read's round trips cost more than the read).
          const bytes = o.keepBytes ? await keptRead(reader, entry as StatedEntry).catch(() => null)
            : isRemoteUri(entry.path) ? await reader.read(entry).catch(() => null) : readLocal(entry.path);
          return bytes ? index.linesRead((entry as StatedEntry).state, p, bytes) : null;
        },
      }),
      ...(model && {
        proseCosine(entry: Entry, query: Float32Array) {
          const tokens = keptTokens(entry as StatedEntry);
          if (!tokens) return 1;
          if (cosines?.query !== query) cosines = { query, of: lineCosines(model, query) };
          return cosines.of.documentBest(tokens);
        },
        proseLineCosine(entry: Entry, query: Float32Array) {
          const tokens = keptTokens(entry as StatedEntry);
          if (!tokens) return null;
          if (cosines?.query !== query) cosines = { query, of: lineCosines(model, query) };
          const of = cosines.of;
          return (line: number) => of.lineBest(tokens, line);
        },
        proseTokens: (entry: Entry) => keptTokens(entry as StatedEntry) ?? null,
      }),
      read: (entry, signal) => { read.files++; return o.keepBytes ? keptRead(reader, entry as StatedEntry, signal) : reader.read(entry, signal); },
      // A big document streams in chunks, as a scan reads it (never whole in memory, never kept).
      async *stream(entry: Entry, signal?: AbortSignal) {
        read.files++;
        if (o.keepBytes && ((entry.size ?? Infinity) <= KEPT_FILE_BYTES || !reader.stream)) yield await keptRead(reader, entry as StatedEntry, signal);
        else if (!reader.stream) yield await reader.read(entry, signal);
        else yield* reader.stream(entry, signal);
      },
      listedBound(entry, p) {
        const k = p === plan ? fileOf.get(entry) : undefined;
        return k === undefined || Number.isNaN(listed[k]) ? undefined : listed[k];
      },
      holdsAnyTerm(entry, terms) {
        const k = fileOf.get(entry);
        if (k === undefined) return true;
        if (!sameTerms(known.terms, terms)) known = { terms, files: filesWithTerms(snap, terms, prose) };
        return holds(k, known.files);
      },
    },
  };
}

/** How often the prose sources listed within a floor (the pipeline's plan was theirs) and whole (tests, benches). */
const listings = { within: 0, whole: 0 };
export function proseListings(): { within: number; whole: number } {
  return { ...listings };
}

/**
 * The prose files of a coverage, in display order: each one's entry (`fileOf`: its place here), snapshot
 * index and path's facts (pathInfo, kept here: a search reads every one's), and their bytes in all.
 */
interface ProseFiles {
  snap: Snapshot;
  /** The covered paths without the prose files. */
  rest: (string | undefined)[];
  fileOf: Map<Entry, number>;
  entries: StatedEntry[];
  files: Int32Array;
  infos: PathInfo[];
  /** The files by the first three letters of their names (PathInfo.namePrefixes). */
  byPrefix: Map<string, number[]>;
  bytes: number;
  /** The prose files with chunks (snapshot indices) in the order of their first chunk, and each one's chunks [chunkFrom[i], chunkTo[i]). */
  inChunkOrder: Int32Array;
  chunkFrom: Int32Array;
  chunkTo: Int32Array;
  /** 1 where the k-th has no chunks (no postings say what it holds: splitProse lists it with those that can hold a term). */
  chunkless: Uint8Array;
  /** Each one's keptLines, as they were at keptChanges() `keptAt` (-1: not looked up). */
  kept: (ProseLineTerms | null | undefined)[];
  keptAt: number;
  /** Per priorsIndex, each file's PathInfo.priors of it (made when first asked). */
  priorSignals: (PathSignals[] | undefined)[];
}

/** keptLines of the k-th prose file, looked up again for all of them once the kept documents changed (a search asks for every one's). */
function keptAt(p: ProseFiles, k: number): ProseLineTerms | null | undefined {
  const now = keptChanges();
  if (p.keptAt !== now) {
    const first = p.keptAt === -1;
    for (let i = 0; i < p.entries.length; i++) p.kept[i] = keptLines(p.entries[i]);
    p.keptAt = now;
    if (first) remember(p);
  }
  return p.kept[k];
}

/** The prose files whose `kept` is filled: a kept document let go for room is let go by them too (not held until their coverage is searched again). */
const filled = new Set<WeakRef<ProseFiles>>();
function remember(p: ProseFiles): void {
  if (filled.size >= 64) for (const ref of filled) if (!ref.deref()) filled.delete(ref);
  filled.add(new WeakRef(p));
}
onKeptDropped(() => {
  for (const ref of filled) {
    const p = ref.deref();
    if (p) { p.kept.fill(undefined); p.keptAt = -1; }
  }
  filled.clear();
});

const split = new WeakMap<(string | undefined)[], ProseFiles>();

/** The path the ranking reads of an entry (Entry.rank: below the searched root). */
const rankOf = (e: Entry): string => e.rank ?? e.path;

/** The prose files of the covered paths (kept while the coverage is), each with its rank path (coverage.ts ranks). */
function proseFiles(snap: Snapshot, display: (string | undefined)[], ranks?: (string | undefined)[]): ProseFiles {
  const kept = split.get(display);
  if (kept && kept.snap === snap) return kept;
  const fileOf = new Map<Entry, number>();
  const entries: StatedEntry[] = [];
  const indices: number[] = [];
  const rest = display.map((path, f) => {
    if (path === undefined || !isProsePath(path)) return path;
    const rank = ranks?.[f];
    const entry = (rank === undefined ? { path, size: sizeToRead(snap.files[f]), state: fileState(snap.files[f]) } : { path, rank, size: sizeToRead(snap.files[f]), state: fileState(snap.files[f]) }) as StatedEntry;
    fileOf.set(entry, entries.length);
    entries.push(entry);
    indices.push(f);
    return undefined;
  });
  const files = Int32Array.from(indices);
  const infos = entries.map((e) => pathInfo(rankOf(e)));
  const byPrefix = new Map<string, number[]>();
  infos.forEach((info, k) => { for (const p of info.namePrefixes) { const ks = byPrefix.get(p); if (ks) ks.push(k); else byPrefix.set(p, [k]); } });
  const bytes = entries.reduce((sum, e) => sum + (e.size ?? 0), 0);
  const inChunkOrder = files.filter((f) => snap.files[f].chunkCount > 0).sort((x, y) => snap.files[x].firstChunk - snap.files[y].firstChunk);
  const chunkFrom = inChunkOrder.map((f) => snap.files[f].firstChunk);
  const chunkTo = inChunkOrder.map((f) => snap.files[f].firstChunk + snap.files[f].chunkCount);
  const made: ProseFiles = { snap, rest, fileOf, entries, files, infos, byPrefix, bytes, inChunkOrder, chunkFrom, chunkTo, kept: new Array(entries.length), keptAt: -1, priorSignals: [], chunkless: Uint8Array.from(files, (f) => (snap.files[f].chunkCount === 0 ? 1 : 0)) };
  split.set(display, made);
  return made;
}

/**
 * Per prose file (`inChunkOrder`: the only files asked about), 1 when one of its chunks lists one of the
 * terms in the postings: the postings count what countTerms counts in the chunk's lines (as
 * candidates.ts relies on), so a file marked 0 has no line that holds a term. Each term's list is
 * searched only for the files no earlier term marked, and none once all are (a pasted block's 24 terms:
 * its first common ones mark nearly every prose file). A list of no more entries than those files has
 * each entry's file marked (a pasted block's rare terms: a few entries each); a longer one that ascends
 * by chunk (every list since merge31; not always in a snapshot file an older build wrote: checked once
 * per postings and key) is searched for each such file's chunk range in turn, by galloping (a long
 * query's 24 lists hold ~330,000 entries on the bench tree, nearly all of code chunks); another has each
 * entry's file marked.
 */
function filesWithTerms(snap: Snapshot, terms: Terms, prose: ProseFiles): Uint8Array {
  const out = new Uint8Array(snap.files.length);
  const { chunkFile } = snap;
  const { inChunkOrder, chunkFrom, chunkTo } = prose;
  // The files not marked yet, by their place in inChunkOrder (ascending).
  const open = Int32Array.from({ length: inChunkOrder.length }, (_, i) => i);
  let left = open.length;
  for (const term of terms) {
    if (left === 0) break;
    const postings = term.whole ? snap.byLower : snap.byStem;
    const found = postings.find(term.key);
    if (!found) continue;
    work.lists++;
    const chunk = found.chunk;
    const n = chunk.length;
    // Marking costs an entry, galloping about a file left (and, once per list, a look at every entry to know it ascends).
    if (n <= left || !ascends(postings, term.key, chunk)) for (let j = 0; j < n; j++) out[chunkFile[chunk[j]]] = 1;
    else {
      let j = 0;
      for (let o = 0; o < left && j < n; o++) {
        const i = open[o];
        j = gallop(chunk, chunkFrom[i], j);
        if (j < n && chunk[j] < chunkTo[i]) out[inChunkOrder[i]] = 1;
      }
    }
    let kept = 0;
    for (let o = 0; o < left; o++) if (out[inChunkOrder[open[o]]] === 0) open[kept++] = open[o];
    left = kept;
  }
  return out;
}

/** The term lists filesWithTerms read, and how many of them it checked to ascend (tests). */
const work = { lists: 0, checked: 0 };
export function proseFilesWork(): { lists: number; checked: number } {
  return { ...work };
}

/** Per postings (a snapshot's byLower or byStem: never changed, a new one made), whether each key's list asked about ascends by chunk. */
const ascending = new WeakMap<object, Map<string, boolean>>();
/** Keys remembered per postings (a map of a resident process's queries' terms; started again when full). */
const ASCENDING_KEYS = 100_000;

function ascends(postings: object, key: string, chunk: Int32Array): boolean {
  let known = ascending.get(postings);
  if (!known) ascending.set(postings, (known = new Map()));
  let up = known.get(key);
  if (up === undefined) {
    work.checked++;
    up = true;
    for (let j = 1; j < chunk.length && up; j++) up = chunk[j - 1] <= chunk[j];
    if (known.size >= ASCENDING_KEYS) known.clear();
    known.set(key, up);
  }
  return up;
}

/** The first index at or past `from` of the ascending array whose value is at least v (xs.length: none). */
function gallop(xs: Int32Array, v: number, from: number): number {
  if (from >= xs.length || xs[from] >= v) return from;
  let step = 1;
  let lo = from;
  while (lo + step < xs.length && xs[lo + step] < v) { lo += step; step *= 2; }
  let hi = Math.min(lo + step, xs.length);
  // xs[lo] < v; the answer is in (lo, hi].
  while (lo + 1 < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] < v) lo = mid; else hi = mid;
  }
  return hi;
}

/** A local file's bytes, or null when it cannot be read (the pipeline's read reports why). */
function readLocal(path: string): Uint8Array | null {
  try { return readFileSync(ioPathOf(path)); } catch { return null; }
}

function sameTerms(a: Terms, b: Terms): boolean {
  return a === b || (a.length === b.length && a.every((t, i) => t.key === b[i].key && t.whole === b[i].whole));
}
