// The scoring end of the pipeline: packed batches go to the executor (a bounded number in flight), and
// the distances that come back are offered to the bounded top-k, each hit's context window captured
// as it enters (the batch's bytes are gone after).
import type { LineTokens } from '../embed/line-cosines.js';
import type { ChunkRequest } from '../embed/requests.js';
import { isSimgrepError } from '../errors.js';
import { oneChunk } from '../embed/chunk-scoring.js';
import { chunkStats } from '../rank/chunk-scorer.js';
import { lexicalScore, relevance, toDistance, type KnownSignals } from '../rank/relevance.js';
import { candidateLimit, thresholdsShown } from '../rank/diversify.js';
import { pathSignals } from '../rank/path-signals.js';
import { embedsQuery, type RankPlan } from '../rank/plan.js';
import type { ProseStats } from '../rank/prose.js';
import { TopK, compareRanked } from '../rank/topk.js';
import type { Hit } from '../rank/windows.js';
import type { SourceWarning } from '../sources/source.js';
import type { Batch, Segment } from '../text/batch-packer.js';
import { decodeLines } from '../text/decode.js';
import type { PipelineOptions, SearchStats } from './types.js';
import type { PathFacts } from '../types.js';
import { keptSumsOf } from './kept-files.js';

/** Errors that no other batch can get past: the search fails with the first of them. */
const SETUP_ERRORS = new Set(['EMBEDDER_UNAVAILABLE', 'MODEL_CORRUPT', 'TOKENIZER_CORRUPT', 'MODEL_NOT_FOUND', 'INTERNAL']);

export class Scoring {
  readonly topk: TopK<Hit>;
  /** The best line overall that --max-distance filtered out, kept in case nothing passes it. */
  closest: Hit | null = null;
  /** The first setup error a batch met: the search stops with it. */
  fatal: unknown = null;
  /** Every file's path by its index in the batches' segments. */
  readonly paths: string[] = [];
  /** Each file's path as the ranking reads it (Entry.rank), by file index. */
  readonly rankPaths: string[] = [];
  /** Files' path facts by file index, where their entry carried them (Entry.facts): not worked out again by the scorer. */
  readonly facts: (PathFacts | undefined)[] = [];
  /** Prose files' statistics by file index, once counted (their pieces are scored line by line). */
  readonly proseStats = new Map<number, ProseStats>();
  /** Prose files' kept line tokens by file index (a resident source's: Source.proseTokens), for a search that keeps case. */
  readonly proseTokens = new Map<number, LineTokens>();
  /** Prose files whose kept line terms hold no term of the plan, by file index (ChunkRequest.rangeTermless). */
  readonly proseTermless = new Set<number>();
  private readonly inflight = new Set<Promise<void>>();
  /**
   * Batches packed and not yet sent: those whose submit waits for a free slot, and those the guard stopped (the
   * deadline). The flush after the deadline (`last`) takes and sends them all, so every piece packed before it is
   * scored, as the stats count it; a submit that wakes to find its batch taken stops (trust43: a batch whose
   * submit was still waiting when the flush ran was stopped after it, counted and never scored).
   */
  private readonly unsent = new Set<Batch>();
  /**
   * The hits of chunks whose distance (Piece.distance) or lexical signals (Piece.signals) were known
   * beforehand, by path and line (their chunk's first line where the scorer took them): the lines of those
   * shown are counted at the end (withBestLines).
   */
  private readonly unlined = new Map<string, { seg: Segment; known: number; signals?: KnownSignals }>();

  /**
   * `prunable`: whether workers may skip lines that cannot enter the top-k (not when a source hands
   * over its few candidate pieces: pruning would cost more). `guard` throws when the search must stop.
   */
  constructor(
    private readonly o: PipelineOptions,
    private readonly prunable: boolean,
    private readonly stats: SearchStats,
    private readonly warnings: SourceWarning[],
    private readonly guard: () => void,
  ) {
    this.topk = new TopK<Hit>(candidateLimit(o.topK, o.rank));
    this.maxDistance = thresholdsShown(o.topK, o.rank, o.maxDistance) ? undefined : o.maxDistance;
  }

  /** --max-distance as lines are scored; undefined where it applies to the hits shown (rank/diversify.ts thresholdsShown). */
  private readonly maxDistance: number | undefined;

  /** Sends a batch to be scored once a slot is free; `last`: the flush after the deadline fired, not guarded. */
  async submit(batch: Batch | null, last = false): Promise<void> {
    if (last) {
      const taken = [...this.unsent];
      this.unsent.clear();
      for (const held of taken) await this.send(held);
      if (batch) await this.send(batch);
      return;
    }
    if (!batch) return;
    // Held from here (no await before): the deadline's flush takes it even while this waits for a slot.
    this.unsent.add(batch);
    while (this.inflight.size >= this.o.executor.capacity) await Promise.race(this.inflight);
    if (!this.unsent.has(batch)) { this.guard(); return; } // taken and sent by the deadline's flush
    this.guard(); // throws when the search must stop: the batch stays held for the deadline's flush
    this.unsent.delete(batch);
    this.sendNow(batch);
  }

  /** Holds a batch packed after the deadline fired (a cut file's lines not yet packed then): the deadline's flush sends it. */
  hold(batch: Batch | null): void {
    if (batch) this.unsent.add(batch);
  }

  /** Sends a batch once a slot is free. */
  private async send(batch: Batch): Promise<void> {
    while (this.inflight.size >= this.o.executor.capacity) await Promise.race(this.inflight);
    if (this.fatal) return; // the executor cannot score (the search throws its error): nothing more is sent
    this.sendNow(batch);
  }

  private sendNow(batch: Batch): void {
    const o = this.o;
    const p: Promise<void> = o.executor
      .score({
        bytes: batch.bytes, offsets: batch.offsets, scoreRanges: batch.scoreRanges,
        query: o.query, queryKey: o.queryKey, ignoreCase: o.ignoreCase, pruneAbove: this.pruneAbove(), exhaustive: !this.prunable,
        chunks: o.rank ? this.chunkRequest(o.rank, batch) : undefined,
      })
      .then((d) => this.consume(batch, d), (e) => this.batchFailed(batch, e))
      .finally(() => this.inflight.delete(p));
    this.inflight.add(p);
  }

  /** Waits for every batch in flight. */
  async drain(): Promise<void> {
    await Promise.all(this.inflight);
  }

  /** Waits for every batch in flight, failed or not (after an error or the deadline). */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.inflight]);
  }

  /** Lines farther than this cannot change the outcome, so workers may skip them. */
  private pruneAbove(): number {
    if (!this.prunable) return Infinity;
    const floor = this.topk.floorDistance;
    if (this.maxDistance === undefined) return floor;
    // Until some line passes --max-distance, the closest miss is still wanted: only beat that.
    return this.topk.size > 0 ? Math.min(floor, this.maxDistance) : Math.min(floor, this.closest?.distance ?? Infinity);
  }

  private chunkRequest(plan: RankPlan, batch: Batch): ChunkRequest {
    const prose = batch.segments.map((seg) => this.proseStats.get(seg.fileIndex) ?? null);
    // A scan's keyed pieces bring the sums kept for their chunks (kept-files.ts); keyed without any, they are scored as read.
    const embeds = embedsQuery(plan);
    const sent = this.o.kept && embeds ? keptSumsOf(batch, this.o.kept, plan.chunkLines, this.o.ignoreCase) : undefined;
    const keyed = !this.o.kept && batch.segments.some((seg) => seg.piece.key !== undefined);
    return {
      plan,
      rangeFirstLines: Uint32Array.from(batch.segments, (seg) => seg.firstLine + (seg.scoreFrom - seg.from)),
      rangePaths: batch.segments.map((seg) => this.rankPaths[seg.fileIndex]),
      ...(this.facts.length > 0 && { rangeFacts: batch.segments.map((seg) => this.facts[seg.fileIndex]) }),
      ...(prose.some((p) => p !== null) && {
        rangeProse: prose,
        rangeLines: Uint32Array.from(batch.segments.flatMap((seg) => [seg.from, seg.to])),
        ...(this.proseTokens.size > 0 && { rangeTokens: batch.segments.map((seg) => this.proseTokens.get(seg.fileIndex) ?? null) }),
        ...(this.proseTermless.size > 0 && { rangeTermless: Uint8Array.from(batch.segments, (seg) => (this.proseTermless.has(seg.fileIndex) ? 1 : 0)) }),
      }),
      ...(keyed && { rangeKeys: batch.segments.map((seg) => seg.piece.key ?? '') }),
      ...(!embeds && batch.segments.some((seg) => seg.piece.distance !== undefined) && { rangeDistances: Float64Array.from(batch.segments, (seg) => seg.piece.distance ?? NaN) }),
      ...(embeds && batch.segments.some((seg) => seg.piece.signals !== undefined) && {
        rangeLexical: Float64Array.from(batch.segments, (seg) => seg.piece.signals?.lexical ?? NaN),
        rangeSymbol: Float64Array.from(batch.segments, (seg) => seg.piece.signals?.symbol ?? NaN),
      }),
      ...(sent && { rangeKeys: sent.rangeKeys, keptSums: { keys: sent.keys, sums: sent.sums } }),
    };
  }

  private hitAt(seg: Segment, i: number, distance: number): Hit {
    const n = this.o.nLines;
    const from = Math.max(seg.from, i - n);
    const to = Math.min(seg.to, i + n + 1);
    const line = seg.firstLine + (i - seg.from);
    // From the piece, not the batch: the batch's bytes went to the worker (pool.ts moves them).
    const lines = decodeLines(seg.piece.bytes, seg.piece.offsets, from - seg.from, to - seg.from);
    return { path: this.paths[seg.fileIndex], line, distance, start: line - (i - from), lines };
  }

  /**
   * Whether the scorer may have written this segment's chunk at its first line from what was known of it
   * (embed/chunk-scoring.ts's own tests: a known distance, where the plan does not embed; known signals, in a
   * hybrid plan, where the scorer keeps the chunk's sum, which only it knows: its best line is then counted
   * at the end either way).
   */
  private knownUsed(seg: Segment): boolean {
    const plan = this.o.rank;
    if (!plan) return false;
    const embeds = embedsQuery(plan);
    if (embeds ? seg.piece.signals === undefined || plan.mode !== 'hybrid' : seg.piece.distance === undefined) return false;
    return oneChunk(seg.firstLine + (seg.scoreFrom - seg.from), seg.scoreTo - seg.scoreFrom, plan.chunkLines);
  }

  /** What the scorer knew of a segment's chunk (knownUsed), kept with its hit. */
  private unline(seg: Segment, line: number, path: string, d: number): void {
    this.unlined.set(`${line}:${path}`, { seg, known: d, ...(seg.piece.signals && embedsQuery(this.o.rank!) && { signals: seg.piece.signals }) });
  }

  private consume(batch: Batch, distances: Float32Array): void {
    const { rank } = this.o;
    const { maxDistance } = this;
    for (const seg of batch.segments) {
      const path = this.paths[seg.fileIndex];
      for (let i = seg.scoreFrom; i < seg.scoreTo; i++) {
        const d = distances[i];
        if (d !== d || d === Infinity) continue;
        // Ranked modes: distance 1 is relevance 0, which is no match (a query of stop words).
        if (rank && d >= 1) continue;
        const line = seg.firstLine + (i - seg.from);
        if (maxDistance !== undefined && !(d < maxDistance)) {
          if (!this.closest || compareRanked({ distance: d, path, line }, this.closest) < 0) {
            this.closest = this.hitAt(seg, i, d);
            if (this.knownUsed(seg)) this.unline(seg, line, path, d);
          }
          continue;
        }
        if (this.topk.accepts(d, path, line)) {
          this.topk.offer(this.hitAt(seg, i, d));
          if (this.knownUsed(seg)) this.unline(seg, line, path, d);
        }
      }
    }
  }

  /**
   * The hits shown, each of a chunk whose distance was known beforehand moved from its chunk's first line
   * to the line chunk scoring picks (its lines counted now, for these few chunks only). The order is the
   * same: a file's chunks are disjoint, so any of a chunk's lines orders it among its file's others. The
   * known distance is the candidate pass's float64, worked out as the scorer works it out (bit for bit:
   * definition-bounds.ts), rounded to float32 as the scorer's is; it is checked against the lines counted
   * now: a file whose text changed where its stat cannot tell (the same size, mtime and ctime: an edit made
   * after the search's stale check, or an object without an ETag) throws KnownDistanceChanged, and the caller scores its candidates' lines instead.
   * Known signals (a hybrid plan's) are checked the same way, as the lexical signal and symbol counted now;
   * a chunk whose lines then hold no term (its shown line would be the one closest to the query, the
   * kernel's) throws too.
   */
  withBestLines(hits: Hit[]): Hit[] {
    const plan = this.o.rank;
    if (!plan || this.unlined.size === 0) return hits;
    return hits.map((hit) => {
      const u = this.unlined.get(`${hit.line}:${hit.path}`);
      if (!u) return hit;
      const { seg } = u;
      const { piece } = seg;
      const lines = decodeLines(piece.bytes, piece.offsets, piece.scoreFrom, piece.scoreTo);
      const rankPath = this.rankPaths[seg.fileIndex];
      const signals = pathSignals(rankPath, plan, this.facts[seg.fileIndex]);
      const [k] = chunkStats(lines, seg.firstLine + piece.scoreFrom, rankPath, plan, signals);
      // (The hit's distance may carry its file's coherence boost since: compared with what was scored.)
      if (u.signals ? lexicalScore(k.bm25, plan) !== u.signals.lexical || k.symbol !== u.signals.symbol || k.best < 0
        : Math.fround(toDistance(relevance(0, lexicalScore(k.bm25, plan), k.symbol, signals, plan))) !== u.known) throw new KnownDistanceChanged(hit.path);
      const best = k.best >= 0 ? k.best : Math.max(0, k.first);
      return this.hitAt(seg, seg.scoreFrom + best, hit.distance);
    });
  }

  private batchFailed(batch: Batch, e: unknown): void {
    if (isSimgrepError(e) && SETUP_ERRORS.has(e.code)) { this.fatal ??= e; return; }
    const files = [...new Set(batch.segments.map((s) => this.paths[s.fileIndex]))];
    this.stats.errors++;
    this.warnings.push({ path: files[0] ?? '?', code: 'WORKER_FAILED', message: `could not score ${files.join(', ')}: ${(e as Error).message}` });
  }
}

/** A chunk's known distance (from the index) is not what its lines give now: the file changed unseen since it was indexed. */
export class KnownDistanceChanged extends Error {
  constructor(readonly path: string) {
    super(`${path} changed since it was indexed (its size, mtime and ctime as indexed)`);
  }
}
