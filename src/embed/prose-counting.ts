// Prose files that came whole without their statistics (rank/prose-file.ts: a file of one piece): their
// document frequencies counted here, on the thread that scores them, exactly as the pipeline counts a
// longer one, and a file none of whose lines can beat `pruneAbove` left unscored, as the pipeline leaves
// such a file unsent. The thread that reads every file is then not the one that counts them (issue 30).
import { ProseCounter } from '../rank/prose-counter.js';
import { proseFileBestDistance } from '../rank/prose-lines.js';
import type { RankPlan } from '../rank/plan.js';
import { decodeLines } from '../text/decode.js';
import type { ChunkRequest, ScoreRequest } from './requests.js';

/**
 * The first plan seen for a search: each batch brings its own copy, and the counters' tables (a plan's
 * term index, its runs' grams) are kept per plan object, so one search's batches share them.
 */
let last: { queryKey: string; plan: RankPlan } | null = null;

/** Fills c.rangeProse for the ranges c.rangeCount marks; a range out of reach is emptied (its lines stay unscored). */
export function countProseRanges(req: ScoreRequest, c: ChunkRequest): void {
  const marks = c.rangeCount;
  if (!marks) return;
  if (last?.queryKey !== req.queryKey) last = { queryKey: req.queryKey, plan: c.plan };
  const plan = last.plan;
  const prose = c.rangeProse ??= new Array<null>(marks.length).fill(null);
  const prune = req.pruneAbove ?? Infinity;
  let emptied = false;
  for (let k = 0; k < marks.length; k++) {
    if (marks[k] !== 1) continue;
    const from = req.scoreRanges[2 * k];
    const to = req.scoreRanges[2 * k + 1];
    const counter = new ProseCounter(plan);
    counter.add(decodeLines(req.bytes, req.offsets, from, to));
    const stats = counter.stats();
    prose[k] = stats;
    // Every line of the file at least this far (the pipeline's rule for a file counted whole): none can
    // enter the top-k, so none is scored.
    if (Number.isFinite(prune) && proseFileBestDistance(counter.bestLexical(stats), c.rangePaths[k], plan) > prune) {
      // A copy first: in process, the ranges are the caller's.
      if (!emptied) { req.scoreRanges = req.scoreRanges.slice(); emptied = true; }
      req.scoreRanges[2 * k + 1] = from;
    }
  }
}
