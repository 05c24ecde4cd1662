// The ONLY module that wires the stages: sources -> line pieces -> packed batches -> executor
// (worker pool or in-process) -> bounded top-k with context windows captured on entry.
import { SimgrepError, isSimgrepError } from './errors.js';
import type { Executor } from './pool.js';
import { TopK, compareRanked } from './rank/topk.js';
import type { Hit } from './rank/windows.js';
import { streamEntry, type Entry, type Source, type SourceWarning } from './sources/source.js';
import { BatchPacker, type Batch, type Segment } from './text/batch-packer.js';
import { decodeLines } from './text/decode.js';
import { LineSplitter } from './text/line-splitter.js';
import { capBytes, openText } from './text/text-stream.js';
import type { RankPlan } from './rank/plan.js';
import { CANDIDATES_PER_RESULT, spreadAcrossFiles } from './rank/diversify.js';
import type { ChunkRequest } from './embed/requests.js';
import { isProsePath, PROSE_WINDOW_LINES, termlessProseDistance, type ProseStats } from './rank/prose.js';
import { ProseFile } from './rank/prose-file.js';
import { proseBest, proseLineStats } from './rank/prose-lines.js';
import type { Piece } from './text/line-splitter.js';

export interface SearchStats {
  files: number;
  lines: number;
  bytes: number;
  skipped: number;
  binary: number;
  errors: number;
  ms: number;
  /**
   * Set when a workspace index answered: its name, how many new or changed files it re-indexed first,
   * and how many of those (`pending`, when any) were read for this answer only, not saved into the index.
   */
  index?: { workspace: string; refreshed: number; pending?: number };
}

/** Progress while searching: the counts so far, and the read that has waited longest (a slow or stuck source). */
export interface SearchProgress extends SearchStats {
  waitingOn?: { path: string; ms: number };
  /** A cluster search: shards searched and enqueued so far (listing: the listing is still going on). */
  shards?: { done: number; total: number; listing: boolean };
}

export interface PipelineOptions {
  sources: Source[];
  executor: Executor;
  query: Float32Array;
  queryKey: string;
  topK: number;
  maxDistance?: number;
  nLines: number;
  ignoreCase: boolean;
  /** Hybrid or lexical ranking: one result per chunk (absent: semantic, one per line). */
  rank?: RankPlan;
  batchLines?: number;
  fileConcurrency?: number;
  signal?: AbortSignal;
  /** The overall time budget: when it fires, reading stops and the results so far are returned. */
  deadline?: { signal: AbortSignal; seconds: number };
  /** Stop reading a file after this many bytes, whatever its size claimed (the --max-filesize cap). */
  maxFileBytes?: number;
  onProgress?: (s: SearchProgress) => void;
  /** Return the ranked candidates as kept, before they are spread across files (a cluster shard's answer). */
  candidatesOnly?: boolean;
}

export interface PipelineOutcome {
  hits: Hit[];
  /** The best line overall, kept when --max-distance filtered everything out. */
  closestMiss: Hit | null;
  warnings: SourceWarning[];
  stats: SearchStats;
}

const MAX_BATCH_BYTES = 1 << 20;
const SETUP_ERRORS = new Set(['EMBEDDER_UNAVAILABLE', 'MODEL_CORRUPT', 'TOKENIZER_CORRUPT', 'MODEL_NOT_FOUND', 'INTERNAL']);

/** Thrown inside the pipeline when the deadline fires; caught at the top, never escapes. */
class DeadlineReached extends Error {}

export async function runPipeline(o: PipelineOptions): Promise<PipelineOutcome> {
  const started = performance.now();
  const stats: SearchStats = { files: 0, lines: 0, bytes: 0, skipped: 0, binary: 0, errors: 0, ms: 0 };
  const warnings: SourceWarning[] = [];
  const paths: string[] = [];
  /** Prose files' statistics by file index, once counted (their pieces are scored line by line). */
  const proseStats = new Map<number, ProseStats>();
  const topk = new TopK<Hit>(candidateLimit(o.topK, o.rank));
  let closest: Hit | null = null;
  let fatal: unknown = null;
  // Chunks start at file lines that are multiples of chunkLines: pieces must too.
  const chunkLines = o.rank?.chunkLines ?? 1;
  const batchLines = Math.ceil((o.batchLines ?? 2048) / chunkLines) * chunkLines;
  const packer = new BatchPacker({ batchLines, maxBatchBytes: MAX_BATCH_BYTES });
  const inflight = new Set<Promise<void>>();
  let lastProgress = 0;
  /** Files being read now, and since when: shown on progress, named when the deadline stops the search. */
  const reading = new Map<string, number>();
  const deadlineFired = () => o.deadline?.signal.aborted === true;
  // Sources see one signal: the caller's abort or the deadline, whichever comes first.
  const readSignal = o.deadline
    ? (o.signal ? eitherSignal(o.signal, o.deadline.signal) : o.deadline.signal)
    : o.signal;

  const checkAbort = () => {
    if (o.signal?.aborted) throw new SimgrepError('ABORTED', 'the search was aborted');
    if (fatal) throw fatal;
    if (deadlineFired()) throw new DeadlineReached();
  };

  const hitAt = (batch: Batch, seg: Segment, i: number, distance: number): Hit => {
    const from = Math.max(seg.from, i - o.nLines);
    const to = Math.min(seg.to, i + o.nLines + 1);
    const line = seg.firstLine + (i - seg.from);
    return { path: paths[seg.fileIndex], line, distance, start: line - (i - from), lines: decodeLines(batch.bytes, batch.offsets, from, to) };
  };

  const consume = (batch: Batch, distances: Float32Array) => {
    for (const seg of batch.segments) {
      const path = paths[seg.fileIndex];
      for (let i = seg.scoreFrom; i < seg.scoreTo; i++) {
        const d = distances[i];
        if (d !== d || d === Infinity) continue;
        // Ranked modes: distance 1 is relevance 0, which is no match (a query of stop words).
        if (o.rank && d >= 1) continue;
        const line = seg.firstLine + (i - seg.from);
        if (o.maxDistance !== undefined && !(d < o.maxDistance)) {
          if (!closest || compareRanked({ distance: d, path, line }, closest) < 0) closest = hitAt(batch, seg, i, d);
          continue;
        }
        if (topk.accepts(d, path, line)) topk.offer(hitAt(batch, seg, i, d));
      }
    }
  };

  const batchFailed = (batch: Batch, e: unknown) => {
    if (isSimgrepError(e) && SETUP_ERRORS.has(e.code)) { fatal ??= e; return; }
    const files = [...new Set(batch.segments.map((s) => paths[s.fileIndex]))];
    stats.errors++;
    warnings.push({ path: files[0] ?? '?', code: 'WORKER_FAILED', message: `could not score ${files.join(', ')}: ${(e as Error).message}` });
  };

  // Sources that hand over their candidate pieces (the index) are few lines: pruning would cost more.
  const prunable = !o.sources.every((s) => s.pieces);
  /** Lines farther than this cannot change the outcome, so workers may skip them. */
  const pruneAbove = () => {
    if (!prunable) return Infinity;
    const floor = topk.floorDistance;
    if (o.maxDistance === undefined) return floor;
    // Until some line passes --max-distance, the closest miss is still wanted: only beat that.
    return topk.size > 0 ? Math.min(floor, o.maxDistance) : Math.min(floor, closest?.distance ?? Infinity);
  };

  /** `last`: the final flush after the deadline fired, which still scores what was read. */
  const submit = async (batch: Batch | null, last = false) => {
    if (!batch) return;
    while (inflight.size >= o.executor.capacity) await Promise.race(inflight);
    if (!last) checkAbort();
    const p: Promise<void> = o.executor
      .score({
        bytes: batch.bytes, offsets: batch.offsets, scoreRanges: batch.scoreRanges,
        query: o.query, queryKey: o.queryKey, ignoreCase: o.ignoreCase, pruneAbove: pruneAbove(), exhaustive: !prunable,
        chunks: o.rank ? chunkRequest(o.rank, batch) : undefined,
      })
      .then((d) => consume(batch, d), (e) => batchFailed(batch, e))
      .finally(() => inflight.delete(p));
    inflight.add(p);
  };

  const chunkRequest = (plan: RankPlan, batch: Batch): ChunkRequest => {
    const prose = batch.segments.map((seg) => proseStats.get(seg.fileIndex) ?? null);
    return {
      plan,
      rangeFirstLines: Uint32Array.from(batch.segments, (seg) => seg.firstLine + (seg.scoreFrom - seg.from)),
      rangePaths: batch.segments.map((seg) => paths[seg.fileIndex]),
      ...(prose.some((p) => p !== null) && {
        rangeProse: prose,
        rangeLines: Uint32Array.from(batch.segments.flatMap((seg) => [seg.from, seg.to])),
      }),
    };
  };

  const reportProgress = () => {
    if (!o.onProgress) return;
    const now = performance.now();
    if (now - lastProgress < 100) return;
    lastProgress = now;
    // The oldest read still open: what a stalled search is waiting on.
    const [oldest] = reading;
    o.onProgress({ ...stats, ms: now - started, ...(oldest && { waitingOn: { path: oldest[0], ms: now - oldest[1] } }) });
  };
  // Progress also ticks while nothing arrives, so a stuck source shows on the terminal.
  const ticker = o.onProgress ? setInterval(reportProgress, 250) : null;
  ticker?.unref();

  const processEntry = async (source: Source, entry: Entry) => {
    const fileIndex = paths.push(entry.path) - 1;
    // A prose line's score reads its neighbours (rank/prose.ts): its pieces carry them as context.
    const isProse = o.rank?.prose != null && isProsePath(entry.path);
    const contextLines = isProse ? Math.max(o.nLines, PROSE_WINDOW_LINES) : o.nLines;
    const splitter = new LineSplitter({ pieceLines: batchLines, contextLines, maxPieceBytes: MAX_BATCH_BYTES, alignLines: chunkLines });
    reading.set(entry.path, performance.now());
    try {
      if (source.pieces) {
        for (const piece of await source.pieces(entry, o.nLines, o.signal)) {
          checkAbort();
          stats.lines += piece.scoreTo - piece.scoreFrom;
          await submit(packer.add(piece, fileIndex));
        }
        stats.files++;
        return;
      }
      // Sources decide how to read (whole small files, chunks of big ones); read() is the fallback.
      let raw = streamEntry(source, entry, readSignal);
      if (o.maxFileBytes !== undefined) {
        const cap = o.maxFileBytes;
        raw = capBytes(raw, cap, () => {
          stats.skipped++;
          warnings.push({ path: entry.path, code: 'TOO_LARGE', message: `${entry.path}: stopped reading at --max-filesize ${cap} bytes (its size was not known up front); only those bytes were searched` });
        });
      }
      const text = await openText(raw);
      // A prose file's pieces wait until its document frequencies are counted (rank/prose-file.ts).
      const prose = isProse ? new ProseFile(o.rank!, knownProse.get(entry)) : null;
      knownProse.delete(entry);
      const offer = async (pieces: Piece[]) => {
        if (prose?.stats && !proseStats.has(fileIndex)) proseStats.set(fileIndex, prose.stats);
        for (const piece of pieces) await submit(packer.add(piece, fileIndex));
      };
      if (text.kind === 'binary') {
        stats.binary++;
        stats.skipped++;
        // A walk skips binary files quietly; a file the user named gets a line saying why.
        if (entry.named) warnings.push({ path: entry.path, code: 'BINARY', message: `${entry.path}: binary file (a NUL byte in its first 8 KiB), not searched` });
        return;
      }
      if (text.kind === 'text') {
        for await (const chunk of text.chunks) {
          checkAbort();
          stats.bytes += chunk.length;
          for (const piece of splitter.push(chunk)) await offer(prose ? prose.push(piece) : [piece]);
          reportProgress();
        }
      }
      for (const piece of splitter.end()) await offer(prose ? prose.push(piece) : [piece]);
      if (prose) {
        // A whole prose file none of whose lines can enter the full top-k (its best lexical score, a cosine of 1)
        // is not sent to be scored: its lines would all be dropped.
        const rest = prose.end();
        if (!(rest.length > 0 && prose.bestDistance(entry.path) > topk.floorDistance)) await offer(rest);
      }
      stats.files++;
      stats.lines += splitter.linesSeen;
    } catch (e) {
      if (e instanceof DeadlineReached || deadlineFired()) throw new DeadlineReached();
      if (isSimgrepError(e) && (e.code === 'ABORTED' || fatal)) throw e;
      stats.errors++;
      // A source that knows the cause (a remote store) throws a SimgrepError that says how to fix it.
      if (isSimgrepError(e)) { warnings.push({ path: entry.path, code: e.code, message: e.message }); return; }
      const code = (e as NodeJS.ErrnoException).code;
      warnings.push({ path: entry.path, code: 'PATH_UNREADABLE', message: `${entry.path}: cannot be read (${code ?? (e as Error).message}); check it exists and its permissions` });
    } finally {
      reading.delete(entry.path);
    }
  };

  const drainSourceWarnings = (source: Source) => {
    for (const w of source.drainWarnings?.() ?? []) {
      warnings.push(w);
      if (w.code === 'TOO_LARGE') stats.skipped++; else stats.errors++;
    }
  };

  const running = new Set<Promise<void>>();
  const fileConcurrency = o.fileConcurrency ?? 8;
  // Waits end when the deadline fires, even on a read that never returns (a stuck pipe or server).
  const deadlineP = new Promise<never>((_, reject) => {
    const fire = () => reject(new DeadlineReached());
    if (o.deadline?.signal.aborted) fire(); else o.deadline?.signal.addEventListener('abort', fire, { once: true });
  });
  deadlineP.catch(() => {});
  const untilDeadline = <T>(p: Promise<T>): Promise<T> => (o.deadline ? Promise.race([p, deadlineP]) : p);
  /** Set once everything listed before the first prose file of a source that knows their terms is scored. */
  let settled = false;
  /** Prose entries' statistics from their source's line terms, until they are read. */
  const knownProse = new Map<Entry, ProseStats>();
  /**
   * A prose file none of whose lines holds a query term (its source knows before reading it) whose best
   * case cannot enter the full top-k: skipped unread, since its lines would be dropped. Exact: its
   * lines' lexical score is 0 and their cosine at most 1 (rank/prose.ts); the heap's floor only falls, and a
   * heap that is not full (--max-distance alone, or too few hits yet) skips nothing.
   */
  const outOfReach = async (source: Source, entry: Entry): Promise<boolean> => {
    const plan = o.rank;
    if (!plan?.prose || o.ignoreCase || !source.holdsAnyTerm || !isProsePath(entry.path)) return false;
    if (!settled) {
      // Everything before is scored first: its floor also prunes the prose lines the workers rank.
      settled = true;
      await untilDeadline(Promise.all(running));
      await submit(packer.flush());
      await untilDeadline(Promise.all(inflight));
    }
    if (source.holdsAnyTerm(entry, plan.terms)) {
      // Its line terms, when the source keeps them, give its statistics (exactly those counting it
      // gives) and a bound on its best line unread (rank/prose-lines.ts), unless --max-filesize would
      // cut it: skipped when that cannot enter the top-k. One that cannot be read is read below, which says why.
      const asked = o.maxFileBytes === undefined || (entry.size ?? Infinity) <= o.maxFileBytes ? source.proseLines?.(entry, readSignal) : null;
      const lines = asked instanceof Promise ? await asked.catch(() => null) : asked;
      if (!lines) return false;
      if (proseBest(lines, plan, entry.path) > topk.floorDistance) return true;
      knownProse.set(entry, proseLineStats(lines, plan));
      return false;
    }
    const best = termlessProseDistance(plan, entry.path);
    return best === Infinity || best > topk.floorDistance;
  };
  try {
    for (const source of o.sources) {
      for await (const entry of source.list(readSignal)) {
        checkAbort();
        drainSourceWarnings(source);
        if (await outOfReach(source, entry)) { stats.files++; continue; }
        while (running.size >= fileConcurrency) await untilDeadline(Promise.race(running));
        const p: Promise<void> = processEntry(source, entry).finally(() => running.delete(p));
        p.catch(() => {}); // observed by Promise.race/all below; this only marks it handled
        running.add(p);
      }
      checkAbort();
      drainSourceWarnings(source);
    }
    await untilDeadline(Promise.all(running));
    await submit(packer.flush());
    await Promise.all(inflight);
    checkAbort();
  } catch (e) {
    const waitingFor = [...reading.keys()];
    if (!(e instanceof DeadlineReached)) {
      await Promise.allSettled([...running, ...inflight]);
      throw e;
    }
    // What was read is still scored; reads still waiting on a source are abandoned.
    await submit(packer.flush(), true).catch(() => {});
    await Promise.allSettled([...inflight]);
    // The deadline keeps what was scored: results so far, one line on what was cut short.
    for (const source of o.sources) drainSourceWarnings(source);
    stats.errors++;
    const shown = waitingFor.slice(0, 5).join(', ') + (waitingFor.length > 5 ? `, and ${waitingFor.length - 5} more` : '');
    warnings.push({
      path: shown, code: 'TIMEOUT',
      message: `stopped after the --timeout of ${o.deadline!.seconds} s: the results found so far are shown${waitingFor.length ? `; still reading ${shown}` : ''}`,
    });
  } finally {
    if (ticker) clearInterval(ticker);
  }
  stats.ms = performance.now() - started;
  const hits = o.candidatesOnly ? topk.take() : finishCandidates(topk.take(), o.topK, o.rank);
  return { hits, closestMiss: topk.size === 0 ? closest : null, warnings, stats };
}

/** Hybrid/lexical results are spread across files, chosen from a larger pool of candidates. */
const spreads = (topK: number, rank: RankPlan | undefined): rank is RankPlan =>
  rank !== undefined && Number.isFinite(topK) && rank.fileDecay < 1;

/** How many candidates the bounded heap keeps for topK results (the same on one machine and per shard). */
export function candidateLimit(topK: number, rank: RankPlan | undefined): number {
  return spreads(topK, rank) ? topK * CANDIDATES_PER_RESULT + 10 : topK;
}

/** The kept candidates (best first) -> the hits shown: spread across files in the ranked modes. */
export function finishCandidates(candidates: Hit[], topK: number, rank: RankPlan | undefined): Hit[] {
  return spreads(topK, rank) ? spreadAcrossFiles(candidates, topK, rank.fileDecay, rank.fileCoherence) : candidates;
}

/** A signal that aborts when either does (AbortSignal.any, which Node 20.0-20.2 lack). */
function eitherSignal(a: AbortSignal, b: AbortSignal): AbortSignal {
  if (typeof AbortSignal.any === 'function') return AbortSignal.any([a, b]);
  const both = new AbortController();
  const fire = (s: AbortSignal) => () => both.abort(s.reason);
  if (a.aborted || b.aborted) both.abort((a.aborted ? a : b).reason);
  a.addEventListener('abort', fire(a), { once: true });
  b.addEventListener('abort', fire(b), { once: true });
  return both.signal;
}
