// What the candidate pass (candidates.ts) is asked and what it reports: the query with its plan and
// covered paths, and the counts the bench and the tests read.
import type { RankPlan } from '../../rank/plan.js';
import type { PathInfo } from '../snapshot/path-info.js';

export interface CandidateQuery {
  plan: RankPlan;
  /** Unit query vector. */
  query: Float32Array;
  /** Display path of each snapshot file the search covers (undefined: not covered). */
  display: (string | undefined)[];
  /** The paths' facts, if the caller keeps them (else looked up per query). */
  infos?: (PathInfo | undefined)[];
  /** How many hits the pipeline's heap keeps (Infinity with --max-distance alone). */
  heapSize: number;
  maxDistance?: number;
  /**
   * A resident process (searched many times): the cosines come from the snapshot's float32 copy and a
   * SIMD kernel (chunk-cosines.ts), made in the background after the first search, bounded first from
   * its int8 copy (cosine-bounds.ts). Else the float16 rows are read as they are.
   */
  resident?: boolean;
  /** Bound every chunk exactly, passing nothing over on its best case (the tests' reference). */
  exhaustive?: boolean;
}

/** What one candidate pass did (the bench and the tests read it). */
export interface CandidateCounts {
  /** Chunks of the covered files. */
  chunks: number;
  /** Chunks bounded exactly (their cosine worked out where it counts). */
  bounded: number;
  /** Chunks whose cosine was worked out. */
  cosines: number;
  /** Covered files with chunks, and those whose chunks that hold no query term were passed over as a whole. */
  files: number;
  skippedFiles: number;
  /** Chunks that hold a query term, and those of them passed over on their bound. */
  termChunks: number;
  skippedTermChunks: number;
  /** The query terms' postings entries laid out per chunk (0 where their BM25s were worked out a term at a time: term-counts.ts termBm25s). */
  laidOut: number;
}
