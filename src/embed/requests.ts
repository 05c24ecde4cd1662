// What the scheduler asks of a scorer, in-process or on a worker: lines to score against a query
// (optionally as chunks, for the hybrid ranking), or chunks of lines to embed for the index.
import type { RankPlan } from '../rank/plan.js';
import type { PathFacts } from '../types.js';
import type { ProseStats } from '../rank/prose.js';
import type { LineTokens } from './line-cosines.js';

export interface ScoreRequest {
  bytes: Uint8Array;
  offsets: Uint32Array;
  /** Pairs [from, to) of lines to score; other lines get NaN. */
  scoreRanges: Uint32Array;
  query: Float32Array;
  /** Identifies one search (query + options), so cached line distances never leak across searches. */
  queryKey: string;
  /** Lines provably farther than this may come back as +Infinity (exact pruning). */
  pruneAbove?: number;
  /** Few lines (the index's candidates): score everything in full, no pruning bounds to set up. */
  exhaustive?: boolean;
  ignoreCase: boolean;
  /** Hybrid/lexical ranking: score chunks instead of lines (see src/rank/chunk-scorer.ts). */
  chunks?: ChunkRequest;
}

/** What chunk scoring needs beyond the lines: the plan, and each score range's file line and path. */
export interface ChunkRequest {
  plan: RankPlan;
  /**
   * The pool's number for `plan` (plan-key.ts): a worker scores every batch of the same plan with the one
   * object it first received (its memos kept from batch to batch). Absent in-process.
   */
  planKey?: number;
  /** File line number of each score range's first line. */
  rangeFirstLines: Uint32Array;
  rangePaths: string[];
  /** Per score range, its path's facts where the source knew them (Entry.facts; pathFacts of its path): pathSignals takes them. */
  rangeFacts?: (PathFacts | undefined)[];
  /** Per score range: its prose file's statistics (ranked line by line: rank/prose.ts), or null (chunks). */
  rangeProse?: (ProseStats | null)[];
  /**
   * With rangeProse: per score range, the batch lines [from, to) of its piece, context lines included
   * (a prose line's window reads its neighbours, which may be the piece's context lines).
   */
  rangeLines?: Uint32Array;
  /**
   * Per score range: what its piece's lines are known by (a resident index's state of the file: equal
   * keys, equal lines), or ''. A resident scorer keeps such chunks' tokens and sums (kept-chunks.ts).
   */
  rangeKeys?: string[];
  /**
   * Lexical ranking: per score range of one chunk, its distance known exactly beforehand (the index's
   * candidates: pipeline/scoring.ts), or NaN. Such a chunk is written at its first line, its lines not
   * counted; the pipeline finds the best line of those it shows.
   */
  rangeDistances?: Float64Array;
  /**
   * Hybrid ranking: per score range of one chunk, its lexical signal and symbol known exactly beforehand (the
   * index's term chunks: pipeline/scoring.ts), or NaN. Such a chunk with a kept sum is scored by the sum's
   * cosine and written at its first line, its lines not counted; the pipeline finds the best line of those it shows.
   */
  rangeLexical?: Float64Array;
  rangeSymbol?: Float64Array;
  /**
   * A scan's: the exact pooled sums a resident scorer keeps for some of the batch's chunks (by their keys:
   * chunk-scoring.ts, of rangeKeys that name the ranges by index), which it then scores by one dot product
   * each (pipeline/kept-files.ts).
   */
  keptSums?: { keys: string[]; sums: Float64Array };
  /**
   * With rangeProse, in-process only (the pool does not send them): per score range, its prose document's
   * kept line tokens (line-cosines.ts), indexed by file line, or null. Lines are tokenized as they are
   * (ignoreCase searches get none), so a scorer of their model takes a line's ids from them.
   */
  rangeTokens?: (LineTokens | null)[];
  /**
   * With rangeProse: per score range, 1 where its prose document holds no term of the plan (its kept line
   * terms say so: rank/prose-lines.ts proseHoldsNoTerm), so every line's lexical score is 0 uncounted.
   */
  rangeTermless?: Uint8Array;
}

/** Lines of a batch and the chunks they form: chunk j is lines [chunkStarts[j], chunkStarts[j + 1]). */
export interface ChunkEmbedRequest {
  bytes: Uint8Array;
  offsets: Uint32Array;
  chunkStarts: Uint32Array;
}
