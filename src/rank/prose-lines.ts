// A prose file's lines as term postings (types.ts ProseLineTerms, built by prose-lines-build.ts): each
// line's words counted as countTerms counts them (a folded whole word, and the stem of each of its
// parts), with each line's and each window's BM25 part per key worked out once, so a query's ProseStats
// (exact) and bounds on its best line (at least ProseCounter.bestLexical) come from a few sums, without
// the file's text.
// The bounds live beside it, by what they hold: the plan's terms located and the file's statistics
// (prose-line-keys.ts), bounds from a few sums (prose-reach.ts), the exact bound line by line
// (prose-line-best.ts); the lines' postings are built by prose-lines-build.ts.
import type { ProseLineTerms } from '../types.js';
import { releaseProseLines as releaseLines, type PackedProseLines } from './prose-lines-build.js';
import { sweepDocument, unsweepDocument } from './prose-sweep.js';

export { ProseLinesBuilder } from './prose-lines-build.js';
export { prepareSweep } from './prose-sweep.js';
export { proseHoldsNoTerm, proseLineStats } from './prose-line-keys.js';
export { proseFileBestDistance, proseReach, proseReachListed, proseReachListedOf } from './prose-reach.js';
export { proseBest, proseLineReach } from './prose-line-best.js';

/**
 * Bounds a kept document's lines with the others' from now on (prose-sweep.ts: one pass over every kept
 * document's lists for a plan, not a visit to each document).
 */
export function sweepProseLines(terms: ProseLineTerms): void {
  sweepDocument(terms as PackedProseLines);
}

/** Lets a file's line terms go (its keeper dropped them): its grams are no longer found, nor its lines swept, for later queries. */
export function releaseProseLines(terms: ProseLineTerms): void {
  unsweepDocument(terms as PackedProseLines);
  releaseLines(terms);
}
