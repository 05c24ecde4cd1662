// Bounded top-k by distance: a max-heap whose root is the worst kept hit, so offer() is O(log k).
// Ties are broken by path, then line, so the kept set never depends on arrival order.

export interface Ranked { distance: number; path: string; line: number }

/** Negative when a ranks before (is better than) b. */
export function compareRanked(a: Ranked, b: Ranked): number {
  if (a.distance !== b.distance) return a.distance - b.distance;
  if (a.path !== b.path) return a.path < b.path ? -1 : 1;
  return a.line - b.line;
}

export class TopK<T extends Ranked> {
  private readonly heap: T[] = [];

  /** limit = Infinity keeps everything offered (used with --max-distance and no --top-k). */
  constructor(private readonly limit: number) {}

  get size(): number { return this.heap.length; }

  /** Distance a new hit must not exceed to be kept (Infinity until the heap is full). */
  get floorDistance(): number {
    return this.heap.length < this.limit ? Infinity : this.heap[0]?.distance ?? -Infinity;
  }

  /** Would a hit with these keys be kept? Lets callers skip building a hit that would be dropped. */
  accepts(distance: number, path: string, line: number): boolean {
    if (this.heap.length < this.limit) return true;
    if (this.limit === 0) return false;
    return compareRanked({ distance, path, line }, this.heap[0]) < 0;
  }

  offer(hit: T): void {
    if (this.heap.length < this.limit) {
      this.heap.push(hit);
      this.siftUp(this.heap.length - 1);
    } else if (this.limit > 0 && compareRanked(hit, this.heap[0]) < 0) {
      this.heap[0] = hit;
      this.siftDown(0);
    }
  }

  /** Kept hits, best first. */
  take(): T[] {
    return [...this.heap].sort(compareRanked);
  }

  private worse(i: number, j: number): boolean { return compareRanked(this.heap[i], this.heap[j]) > 0; }

  private siftUp(i: number): void {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.worse(i, p)) return;
      [this.heap[i], this.heap[p]] = [this.heap[p], this.heap[i]];
      i = p;
    }
  }

  private siftDown(i: number): void {
    const n = this.heap.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && this.worse(l, m)) m = l;
      if (r < n && this.worse(r, m)) m = r;
      if (m === i) return;
      [this.heap[i], this.heap[m]] = [this.heap[m], this.heap[i]];
      i = m;
    }
  }
}
