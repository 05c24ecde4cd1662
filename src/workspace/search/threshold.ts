// The candidate pass's threshold: the worst guaranteed case a chunk's best case must reach, the seeds
// bounded first so that it falls early, and the chunks kept against it.
import { FLOAT16_RELATIVE_ERROR } from '../packed/float16.js';
import type { CandidateQuery } from './candidate-query.js';
import { work } from './work-arrays.js';

/**
 * Margin on distances: cosines from float16 unit vectors differ from the kernel's float64 pooling by
 * at most the float16 rounding (|q.dv| <= 2^-11 |q||v|), and a distance moves less than the cosine.
 */
const EPS = 2 * FLOAT16_RELATIVE_ERROR + 1e-6;

/**
 * The margin where no cosine weighs (lexical mode, or a hybrid plan that gives the embedding no weight:
 * find_related's chunk): every bound is then made of what the pipeline's scoring works out (BM25 from the
 * postings, the path's signals, the symbol boosts) in float64, but the pipeline ranks the distances as
 * float32 (embed/chunk-scoring.ts) and breaks ties by path: two distances closer than a float32 step tie
 * there, and --max-distance is tested on the rounded value. So the margin is one float32 step at 1
 * (2^-23; two distances in (0, 1] further apart than 2^-24 round apart), which also covers the float64
 * roundings (one of 8,330 find_related candidates' best cases was 1 ulp off the scored float64: latency-log.md,
 * related32). The float16 margin kept ~11 chunks a find_related call past the heap's 70 on the bench tree.
 */
const LEXICAL_EPS = 2 ** -23;

/**
 * The distance a chunk's best case must reach, over the chunks bounded so far: the heapSize-th least
 * worst case plus the margin (with --max-distance alone, that distance or the least worst case, if
 * larger); Infinity while every chunk passes (no more chunks of some relevance than the heap holds).
 * It only ever falls as more chunks come.
 */
export interface Limit { offer(lo: number, hi: number): void; readonly value: number }

/**
 * The limit as one class (its kinds by a field, not three object literals of closures): the candidate
 * pass calls `offer` ~20,000 times a find_related call, and a method on one prototype is one call target
 * V8 inlines, where a closure made per call was a new target each call ("wrong call target") and passed
 * its doubles boxed when not inlined (latency-log.md, warm36).
 */
class Threshold implements Limit {
  value = Infinity;
  private size = 0;
  private seen = 0;
  private least = Infinity;
  /** kind: 0 the heapSize least worst cases; 1 --max-distance alone; 2 every chunk passes. */
  constructor(private readonly kind: number, private readonly heap: Float64Array, private readonly k: number, private readonly eps: number, private readonly maxDistance: number) {}

  offer(lo: number, hi: number): void {
    if (this.kind === 0) {
      if (!(lo < 1)) return;
      this.seen++;
      // Most offers are past the heap's top once it is full: offerLeast would leave it as it is.
      if (this.size < this.k || hi < this.heap[0]) this.size = offerLeast(this.heap, this.size, this.k, hi);
      if (this.seen > this.k) this.value = this.heap[0] + this.eps;
    } else if (this.kind === 1) {
      if (lo < 1 && hi < this.least) { this.least = hi; this.value = Math.max(this.maxDistance, this.least) + this.eps; }
    }
  }
}

export function limitOf(q: CandidateQuery): Limit {
  const k = q.heapSize;
  const { plan } = q;
  const eps = plan.mode === 'lexical' || (plan.mode !== 'semantic' && !(plan.weights.semantic > 0)) ? LEXICAL_EPS : EPS;
  if (q.maxDistance !== undefined && !Number.isFinite(k)) return new Threshold(1, NO_VALUES, 0, eps, q.maxDistance);
  if (!Number.isFinite(k)) return new Threshold(2, NO_VALUES, 0, eps, 0);
  // A max-heap of the k least worst cases; the threshold is its top once more than k have come.
  return new Threshold(0, new Float64Array(k), k, eps, 0);
}

const NO_VALUES = new Float64Array(0);

/**
 * Offers v to a max-heap of the k least values so far (its first `size` slots): taken while the heap has
 * room, or in place of its top when less; the heap's new size.
 */
function offerLeast(heap: Float64Array, size: number, k: number, v: number): number {
  if (size < k) {
    let i = size++;
    while (i > 0) { const up = (i - 1) >> 1; if (heap[up] >= v) break; heap[i] = heap[up]; i = up; }
    heap[i] = v;
  } else if (v < heap[0]) {
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= k) break;
      const right = left + 1;
      const big = right < k && heap[right] > heap[left] ? right : left;
      if (heap[big] <= v) break;
      heap[i] = heap[big];
      i = big;
    }
    heap[i] = v;
  }
  return size;
}

/**
 * The k least of the values offered, kept in a max-heap as they come (most are past its top and cost a
 * comparison); `largest` is then the k-th least value, as a quick-select over them all would give.
 */
export function leastOf(k: number): LeastOf {
  return new LeastOf(k > 0 ? work('leastOf', Float64Array, k) : NO_VALUES, k);
}

/** leastOf's heap: a class (one call target, inlined in the candidate pass's loop), its offer past a full heap's top a comparison. */
export class LeastOf {
  private size = 0;
  constructor(private readonly heap: Float64Array, private readonly k: number) {}

  offer(v: number): void {
    if (this.size < this.k || v < this.heap[0]) this.size = offerLeast(this.heap, this.size, this.k, v);
  }

  largest(): number {
    return this.size > 0 ? this.heap[0] : Infinity;
  }
}

/**
 * Keeps chunks whose best case (lo) can beat the heapSize-th best worst case (hi): `limit`, from
 * threshold. A chunk of no relevance at all (distance 1 even at best) is never a result, as in the
 * pipeline. lo and hi are indexed like `eligible`.
 */
export function choose(eligible: Int32Array, lo: Float64Array, hi: Float64Array, limit: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < eligible.length; i++) if (lo[i] < 1 && lo[i] <= limit) out.push(eligible[i]);
  return out;
}

/** The k-th smallest value (0-based) of xs, reordering xs. */
export function quickSelect(xs: Float64Array, k: number): number {
  let lo = 0;
  let hi = xs.length - 1;
  while (lo < hi) {
    const pivot = xs[(lo + hi) >> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (xs[i] < pivot) i++;
      while (xs[j] > pivot) j--;
      if (i <= j) { const t = xs[i]; xs[i] = xs[j]; xs[j] = t; i++; j--; }
    }
    if (k <= j) hi = j; else if (k >= i) lo = i; else return xs[k];
  }
  return xs[k];
}
