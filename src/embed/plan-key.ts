// A ranking plan's identity across the worker boundary. A worker gets each batch's plan as a structured
// clone, a new object a batch, so every memo keyed by a plan's objects (the term index and each run's
// terms, the probes' patterns, the run grams: rank/term-index.ts, probe-starts.ts, prose-run-terms.ts)
// was worked out again for every batch of a scan. The pool names each plan object it sends by a number
// (plans are never changed once made: rank/plan.ts shares them between searches), and a worker scores a
// batch with the plan object it first received under that number: the same plan, its memos kept.
import type { RankPlan } from '../rank/plan.js';

const keys = new WeakMap<RankPlan, number>();
let next = 1;

/** This process's number for a plan object (the sending side). */
export function planKeyOf(plan: RankPlan): number {
  let key = keys.get(plan);
  if (key === undefined) keys.set(plan, key = next++);
  return key;
}

/**
 * Plans a worker keeps by their number, the least recently used dropped first (a plan still being
 * scanned stays while others come and go). Each holds its memos (~1 MB when grown on a large scan:
 * term index run tables, run grams, probe patterns): KEPT_PLANS searches at once keep theirs.
 */
export const KEPT_PLANS = 4;
const known = new Map<number, RankPlan>();

/** The plan first received under `key` (the receiving side), else `plan`, kept under it. */
export function knownPlan(key: number, plan: RankPlan): RankPlan {
  const kept = known.get(key);
  if (kept) {
    known.delete(key);
    known.set(key, kept);
    return kept;
  }
  if (known.size >= KEPT_PLANS) known.delete(known.keys().next().value!);
  known.set(key, plan);
  return plan;
}
