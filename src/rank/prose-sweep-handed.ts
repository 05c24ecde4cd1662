// The prose sweep's walks handed to another thread (prose-sweep.ts walkAhead: an idle worker of the
// searcher's pool): which plan's walk is under way where, how long a search waits for one still walking,
// and what became of them.
import type { RankPlan } from './plan.js';
import { abandonWalk, handedWalk, HANDED, takeHanded, WALKING, type HandedWalk, type Sweep } from './prose-sweep-walk.js';

/** Walks handed to another thread (walkAhead), by plan terms: their grams, the sweep's version, and the walk. */
let ahead = new WeakMap<RankPlan['terms'], { grams: readonly string[] | undefined; version: number; walk: HandedWalk }>();
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

/** The bests of the plan's walk handed to another thread for sweep `s`, if it walked them (takeHanded); else null. */
export function handedBests(s: Sweep, plan: RankPlan): Float64Array | null {
  const a = ahead.get(plan.terms);
  if (!a) return null;
  ahead.delete(plan.terms);
  if (a.grams !== plan.prose?.grams || a.version !== s.version) return null;
  live.delete(a.walk);
  const t0 = performance.now();
  const { best, end, waited } = takeHanded(a.walk, handedWaitMs);
  if (waited) { handedCounts.waited++; handedCounts.waitedMs += performance.now() - t0; }
  handedCounts[end]++;
  return best;
}

/**
 * Hands the plan's walk of sweep `s` to another thread (`hand`), unless one for it is under way already: its
 * state and bests in shared memory, kept here until the search takes them (handedBests).
 */
export function handOver(s: Sweep, plan: RankPlan, hand: (w: HandedWalk) => void): void {
  const grams = plan.prose?.grams;
  const handed = ahead.get(plan.terms);
  if (handed && handed.grams === grams && handed.version === s.version) return;
  const walk = handedWalk(s.lists, plan);
  ahead.set(plan.terms, { grams, version: s.version, walk });
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

/** Forgets the walks handed over (prose-sweep.ts forgetSweptBests), giving up on those not done. */
export function forgetHanded(): void {
  abandonHanded();
  ahead = new WeakMap();
}
