// Each plan's walk of the prose sweep: its bests once known, or the walk handed to another thread (prose-sweep.ts
// walkAhead: an idle worker of the searcher's pool) until the search takes it; how long a search waits for one
// still walking, and what became of them.
import type { RankPlan } from './plan.js';
import { abandonWalk, handedWalk, HANDED, takeHanded, WALKING, type HandedWalk, type Sweep } from './prose-sweep-walk.js';

/**
 * Per plan terms list (a plan made again for the same query shares it): its grams list and the sweep's version,
 * with each slot's best lexical score once known, else the walk handed to another thread for them (walkAhead).
 */
let plans = new WeakMap<RankPlan['terms'], { grams: readonly string[] | undefined; version: number; best: Float64Array | null; walk: HandedWalk | null }>();

/** The plan's entry for sweep `s`: none when there is none of this sweep and grams. */
const current = (s: Sweep, plan: RankPlan) => {
  const p = plans.get(plan.terms);
  return p && p.grams === plan.prose?.grams && p.version === s.version ? p : null;
};
/** The walks handed over not begun or under way (no more than the searches in flight): given up on when their sweep is let go. */
let live = new Set<HandedWalk>();

/**
 * How long this thread waits for a handed walk the other thread is still walking before it walks the plan
 * itself. Near idle the other thread has walked it by then (~1-3 ms a search's plan on the bench tree, ~4-8
 * a find_related's, begun while this thread picks the candidates); at load it may lose its core mid-walk
 * (rescore42: 16 waits of 229 walks took 13.7 ms each at load ~5), and this bounds that wait.
 */
let handedWaitMs = 3;

/** Sets how long a search waits for a handed walk under way (tests: a thread that stops mid-walk). */
export function setHandedWaitMs(ms: number): void {
  handedWaitMs = ms;
}

/**
 * What became of the walks handed over (tests, benches): walked there, taken back before they began, failed
 * there, or given up on (still under way after the wait); how many the search waited for (under way when
 * it came for them), and for how long.
 */
const handedCounts = { handed: 0, walkedThere: 0, takenBack: 0, failed: 0, gaveUp: 0, waited: 0, waitedMs: 0 };
export function sweepWalksHanded(): typeof handedCounts {
  return { ...handedCounts };
}

/**
 * Each slot's best lexical score for the plan in sweep `s`, walked once per plan and sweep: known, else the
 * walk handed to another thread, if it walked them (takeHanded), else walked here (`walk`).
 */
export function planBests(s: Sweep, plan: RankPlan, walk: () => Float64Array): Float64Array {
  const p = current(s, plan);
  if (p?.best) return p.best;
  const best = (p?.walk ? handedBests(p.walk) : null) ?? walk();
  plans.set(plan.terms, { grams: plan.prose?.grams, version: s.version, best, walk: null });
  return best;
}

/** The bests of a walk handed to another thread, if it walked them; else null. */
function handedBests(walk: HandedWalk): Float64Array | null {
  live.delete(walk);
  const t0 = performance.now();
  const { best, end, waited } = takeHanded(walk, handedWaitMs);
  if (waited) { handedCounts.waited++; handedCounts.waitedMs += performance.now() - t0; }
  handedCounts[end]++;
  return best;
}

/**
 * Hands the plan's walk of sweep `s` to another thread (`hand`), unless its bests are known or one for it is
 * under way already: its state and bests in shared memory, kept here until the search takes them (planBests).
 */
export function handOver(s: Sweep, plan: RankPlan, hand: (w: HandedWalk) => void): void {
  if (current(s, plan)) return;
  const walk = handedWalk(s.lists, plan);
  plans.set(plan.terms, { grams: plan.prose?.grams, version: s.version, best: null, walk });
  for (const w of live) if (!isLive(w)) live.delete(w);
  live.add(walk);
  handedCounts.handed++;
  hand(walk);
}

const isLive = (w: HandedWalk): boolean => { const state = Atomics.load(w.state, 0); return state === HANDED || state === WALKING; };

/**
 * Gives up on every walk handed over not yet done (prose-sweep.ts: its sweep let go, whose lists the next
 * sweep made may write over): taken back if not begun, else the other thread stops at its next block.
 */
export function abandonHanded(): void {
  for (const w of live) abandonWalk(w);
  live = new Set();
}

/** Forgets every plan's bests and walks handed over (prose-sweep.ts forgetSweptBests), giving up on those not done. */
export function forgetPlans(): void {
  abandonHanded();
  plans = new WeakMap();
}
