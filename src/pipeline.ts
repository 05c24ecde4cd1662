// The ONLY module that wires the stages: sources -> line pieces -> packed batches -> executor
// (worker pool or in-process) -> bounded top-k with context windows captured on entry. Its parts live
// in pipeline/: the options and stats (types.ts), the scoring end (scoring.ts), progress, the deadline,
// which prose files need not be read (unread-prose.ts).
import { SimgrepError, isSimgrepError } from './errors.js';
import { loopTurns, STOP_TURN_MS } from './loop-turns.js';
import { finishCandidates } from './rank/diversify.js';
import { isProsePath, PROSE_WINDOW_LINES } from './rank/prose.js';
import { ProseFile } from './rank/prose-file.js';
import { proseLineStats } from './rank/prose-lines.js';
import type { ProseLineTerms } from './types.js';
import { streamEntry, WHOLE_READ_BYTES, type Entry, type Source, type SourceWarning } from './sources/source.js';
import { BatchPacker } from './text/batch-packer.js';
import { LineSplitter, type Piece } from './text/line-splitter.js';
import { capBytes, openText } from './text/text-stream.js';
import { Deadline, DeadlineReached } from './pipeline/deadline.js';
import { FileCounts } from './pipeline/file-counts.js';
import { UnpackedLines } from './pipeline/unpacked-lines.js';
import { Progress } from './pipeline/progress.js';
import { Scoring } from './pipeline/scoring.js';
import { hashedFirst, proseOutOfReach } from './pipeline/kept-files.js';
import type { PipelineOptions, PipelineOutcome, SearchStats } from './pipeline/types.js';
import { UnreadProse } from './pipeline/unread-prose.js';
import { embedsQuery } from './rank/plan.js';

const MAX_BATCH_BYTES = 1 << 20;

export async function runPipeline(o: PipelineOptions): Promise<PipelineOutcome> {
  const started = performance.now();
  const stats: SearchStats = { files: 0, lines: 0, bytes: 0, skipped: 0, binary: 0, errors: 0, ms: 0 };
  const warnings: SourceWarning[] = [];
  const deadline = new Deadline(o.deadline, o.signal);
  const checkAbort = () => {
    if (o.signal?.aborted) throw new SimgrepError('ABORTED', 'the search was aborted');
    if (scoring.fatal) throw scoring.fatal;
    if (deadline.reached) throw new DeadlineReached();
  };
  // Sources that hand over their candidate pieces (the index) are few lines: pruning would cost more.
  const scoring = new Scoring(o, !o.sources.every((s) => s.pieces), stats, warnings, checkAbort);
  const { topk, paths } = scoring;
  // Chunks start at file lines that are multiples of chunkLines: pieces must too.
  const chunkLines = o.rank?.chunkLines ?? 1;
  const batchLines = Math.ceil((o.batchLines ?? 2048) / chunkLines) * chunkLines;
  const packer = new BatchPacker({ batchLines, maxBatchBytes: MAX_BATCH_BYTES });
  const progress = new Progress(o.onProgress, stats, started);
  const { reading } = progress;

  /** Whether chunks are embedded (a plan that weighs the cosine): else a code file's kept sums serve nothing. */
  const embeds = o.rank !== undefined && embedsQuery(o.rank);
  /**
   * A kept prose document's line terms, where they stand for what this search would count (not under
   * --ignore-case, nor for a file --max-filesize cuts: as pipeline/unread-prose.ts takes a source's).
   */
  const keptProseLines = (get: (() => ProseLineTerms | null | undefined) | undefined, entry: Entry): ProseLineTerms | undefined => {
    if (!get || !o.rank?.prose || o.ignoreCase || !unread.uncut(entry)) return undefined;
    return get() ?? undefined;
  };

  // A search that can be stopped (a signal, a deadline) lets the event loop turn every STOP_TURN_MS: scored on
  // this thread (-J 0, in-process), its awaits are microtasks only, and an abort that comes as a message (an MCP
  // client's cancellation on a socket) or a timer (--timeout) was seen only once it had read every file. It
  // turns between files and between the batches of one file (notes42: a file read whole, up to
  // WHOLE_READ_BYTES, was scored to its end first: 340-700 ms of CPU for 8 MiB of code warm, 1.2 s cold).
  const mayStop = o.signal !== undefined || o.deadline !== undefined;
  const turns = loopTurns({ everyMs: STOP_TURN_MS, when: () => mayStop });
  /** Lets the event loop turn, then checks for a stop (taken before a piece when `turns.due()`: no await when not). */
  const turn = async (): Promise<void> => {
    await turns.take();
    checkAbort();
  };

  // A file the deadline cuts packs its complete lines read and not yet packed (unpacked-lines.ts): the deadline's flush scores them.
  const counts = new FileCounts(stats, (piece, fileIndex) => scoring.hold(packer.add(piece, fileIndex)));

  const processEntry = async (source: Source, entry: Entry) => {
    const fileIndex = paths.push(entry.path) - 1;
    // What the ranking reads of its path: relative to its root (Entry.rank), however the root was spelled.
    const rank = entry.rank ?? entry.path;
    scoring.rankPaths[fileIndex] = rank;
    if (entry.facts) scoring.facts[fileIndex] = entry.facts;
    // A prose line's score reads its neighbours (rank/prose.ts): its pieces carry them as context.
    const isProse = o.rank?.prose != null && isProsePath(entry.path);
    const contextLines = isProse ? Math.max(o.nLines, PROSE_WINDOW_LINES) : o.nLines;
    const splitter = new LineSplitter({ pieceLines: batchLines, contextLines, maxPieceBytes: MAX_BATCH_BYTES, alignLines: chunkLines });
    reading.set(entry.path, performance.now());
    try {
      if (source.pieces) {
        for (const piece of await source.pieces(entry, o.nLines, o.signal)) {
          checkAbort();
          if (turns.due()) await turn();
          stats.lines += piece.scoreTo - piece.scoreFrom;
          await scoring.submit(packer.add(piece, fileIndex));
        }
        stats.files++;
        return;
      }
      // Sources decide how to read (whole small files, chunks of big ones); read() is the fallback.
      let raw = streamEntry(source, entry, deadline.readSignal);
      if (o.maxFileBytes !== undefined) {
        const cap = o.maxFileBytes;
        raw = capBytes(raw, cap, () => {
          stats.skipped++;
          warnings.push({ path: entry.path, code: 'TOO_LARGE', message: `${entry.path}: stopped reading at --max-filesize ${cap} bytes (its size was not known up front); only those bytes were searched` });
        });
      }
      // A file an index build of this process pooled or kept from these very bytes (pipeline/kept-files.ts):
      // a code file's pieces are keyed by its state, so its chunks are scored from their kept sums.
      let same = false;
      const known = isProse || embeds ? o.kept?.stateOf(entry.path) : undefined;
      // (A file past WHOLE_READ_BYTES is never hashed whole: read as it comes.)
      if (known && !(entry.size !== undefined && entry.size > WHOLE_READ_BYTES)) raw = hashedFirst(raw, known.sha256, () => { same = true; });
      const text = await openText(raw);
      // openText has taken the first bytes (binary or text), which hashedFirst passes on only once all are hashed.
      const key = same && !isProse ? known!.state : undefined;
      // A kept prose document's counted line terms: its statistics, and whether any line can enter the top-k.
      const lines = same && isProse ? keptProseLines(known!.lines, entry) : undefined;
      const unreachable = lines ? proseOutOfReach(lines, o.rank!, rank, topk.floorDistance) : false;
      // A prose file's pieces wait until its document frequencies are counted (rank/prose-file.ts).
      // Counted by its probed lines first where a floor may skip it (ProseFile.outOfReach: a heap not yet full skips nothing).
      const learnt = unread.take(entry);
      const prose = isProse ? new ProseFile(o.rank!, lines && !unreachable ? proseLineStats(lines, o.rank!) : learnt.stats, topk.floorDistance < Infinity) : null;
      // Its kept line tokens stand in for the tokenizer (a search that keeps case: they were tokenized as they are).
      const tokens = isProse && !o.ignoreCase ? source.proseTokens?.(entry) : null;
      if (tokens) scoring.proseTokens.set(fileIndex, tokens);
      if (learnt.termless) scoring.proseTermless.add(fileIndex);
      const unpacked = new UnpackedLines(splitter);
      /** Cut by the deadline: up to a batch of what was read and not packed (a prose file's with its statistics so far). */
      const rest = (): Piece[] => {
        if (!prose) return unpacked.take(batchLines, MAX_BATCH_BYTES);
        const pieces = prose.cut(unpacked.take(batchLines, MAX_BATCH_BYTES), batchLines, MAX_BATCH_BYTES);
        if (prose.stats && !scoring.proseStats.has(fileIndex)) scoring.proseStats.set(fileIndex, prose.stats);
        return pieces;
      };
      const counted = counts.begin(fileIndex, unreachable ? undefined : rest);
      /** Packs a piece to be scored, counted as packed. */
      const pack = async (piece: Piece) => {
        if (key !== undefined) piece.key = key;
        const batch = packer.add(piece, fileIndex);
        counts.packed(counted, piece);
        await scoring.submit(batch);
      };
      const offer = async (pieces: Piece[]) => {
        if (prose?.stats && !scoring.proseStats.has(fileIndex)) scoring.proseStats.set(fileIndex, prose.stats);
        for (const piece of pieces) {
          if (turns.due()) await turn();
          await pack(piece);
        }
      };
      /**
       * The splitter's pieces offered: a prose file's through its counting; a code file's one at a time from
       * `unpacked`, each taken only once it is packed (a turn of the loop first), so a deadline's cut takes the rest in order.
       */
      const feed = async (pieces: Piece[]) => {
        if (unreachable) return;
        if (prose) { for (const piece of pieces) await offer(prose.push(piece)); return; }
        unpacked.queue(pieces);
        for (;;) {
          if (turns.due()) await turn();
          const piece = unpacked.next();
          if (!piece) return;
          await pack(piece);
        }
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
          counts.read(counted, chunk.length);
          await feed(splitter.push(chunk));
          progress.report();
        }
      }
      // A read the deadline ended (a pipe's): cut, its last line without a newline not taken as a line.
      checkAbort();
      await feed(splitter.end());
      if (prose && !unreachable && !prose.outOfReach(rank, topk.floorDistance)) {
        // A whole prose file none of whose lines can enter the full top-k (its best lexical score, a cosine of 1)
        // is not sent to be scored: its lines would all be dropped. (prose.outOfReach: the same, bounded from the lines
        // that may hold a term, before the others are counted.)
        const rest = prose.end();
        if (!(rest.length > 0 && prose.bestDistance(rank) > topk.floorDistance)) await offer(rest);
      }
      counts.ended(fileIndex, splitter.linesSeen);
    } catch (e) {
      counts.cut(fileIndex, e instanceof DeadlineReached || deadline.reached);
      if (e instanceof DeadlineReached || deadline.reached) throw new DeadlineReached();
      if (isSimgrepError(e) && (e.code === 'ABORTED' || scoring.fatal)) throw e;
      stats.errors++;
      // A source that knows the cause (a remote store) throws a SimgrepError that says how to fix it.
      if (isSimgrepError(e)) { warnings.push({ path: entry.path, code: e.code, message: e.message }); return; }
      const code = (e as NodeJS.ErrnoException).code;
      warnings.push({ path: entry.path, code: 'PATH_UNREADABLE', message: `${entry.path}: cannot be read (${code ?? (e as Error).message}); check it exists and its permissions` });
    } finally {
      reading.delete(entry.path);
      counts.drop(fileIndex);
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
  /** Set once everything listed before the first prose file of a source that knows their terms is scored. */
  let settled = false;
  /** Everything listed so far scored, once: its floor prunes what comes next (the prose lines the workers rank too). */
  const settle = async (): Promise<void> => {
    if (settled) return;
    settled = true;
    await deadline.until(Promise.all(running));
    await scoring.submit(packer.flush());
    await deadline.until(scoring.drain());
  };
  /** Which prose files need not be read: out of the top-k's reach before reading them. */
  const unread = new UnreadProse(o, () => topk.floorDistance, settle);
  try {
    for (const source of o.sources) {
      const within = await unread.listWithin(source);
      for await (const entry of within?.entries ?? source.list(deadline.readSignal)) {
        checkAbort();
        if (turns.due()) await turn();
        drainSourceWarnings(source);
        if (await unread.outOfReach(source, entry)) { stats.files++; continue; }
        while (running.size >= fileConcurrency) await deadline.until(Promise.race(running));
        const p: Promise<void> = processEntry(source, entry).finally(() => running.delete(p));
        p.catch(() => {}); // observed by Promise.race/all below; this only marks it handled
        running.add(p);
      }
      checkAbort();
      if (within) stats.files += within.left;
      drainSourceWarnings(source);
    }
    await deadline.until(Promise.all(running));
    await scoring.submit(packer.flush());
    await scoring.drain();
    checkAbort();
  } catch (e) {
    const waitingFor = [...reading.keys()];
    if (!(e instanceof DeadlineReached)) {
      await Promise.allSettled(running);
      await scoring.settle();
      throw e;
    }
    // What was read is still scored; reads still waiting on a source are abandoned. The files under way count
    // what of them was packed, which this flush scores.
    counts.cutAll();
    if (!scoring.fatal) await scoring.submit(packer.flush(), true).catch(() => {});
    await scoring.settle();
    // A setup error (the model, the executor) met before or after the deadline is the answer, not a timeout.
    if (scoring.fatal) throw scoring.fatal;
    // The deadline keeps what was scored: results so far, one line on what was cut short.
    for (const source of o.sources) drainSourceWarnings(source);
    stats.errors++;
    const shown = waitingFor.slice(0, 5).join(', ') + (waitingFor.length > 5 ? `, and ${waitingFor.length - 5} more` : '');
    warnings.push({
      path: shown, code: 'TIMEOUT',
      message: `stopped after the --timeout of ${deadline.seconds} s: the results found so far are shown${waitingFor.length ? `; still reading ${shown}` : ''}`,
    });
  } finally {
    progress.stop();
  }
  stats.ms = performance.now() - started;
  const pool = topk.take();
  const shown = o.candidatesOnly ? { hits: pool, more: false, closest: null } : finishCandidates(pool, o.topK, o.rank, o.maxDistance);
  const hits = scoring.withBestLines(shown.hits);
  const closest = shown.closest ?? (topk.size === 0 ? scoring.closest : null);
  const closestMiss = closest ? scoring.withBestLines([closest])[0] : null;
  return { hits, more: shown.more, closestMiss, warnings, stats };
}
