// Term -> (chunk, count) lists over sorted keys: looked up by binary search (nothing to build when a
// process starts), merged with additions and chunk renumbering when the index changes.

export class Postings {
  constructor(
    /** Sorted, distinct. */
    readonly keys: string[],
    /** keys[i] owns entries [start[i], start[i + 1]). */
    readonly start: Int32Array,
    readonly chunk: Int32Array,
    readonly count: Int32Array,
  ) {}

  static empty(): Postings {
    return new Postings([], new Int32Array(1), new Int32Array(0), new Int32Array(0));
  }

  /** Entries [from, to) of `key`, or null. */
  range(key: string): [number, number] | null {
    let lo = 0;
    let hi = this.keys.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const k = this.keys[mid];
      if (k === key) return [this.start[mid], this.start[mid + 1]];
      if (k < key) lo = mid + 1; else hi = mid - 1;
    }
    return null;
  }

  /**
   * These postings with chunks renumbered by `remap` (-1 drops an entry; keys left empty go) plus
   * `added` (key -> chunk, count pairs, flattened), as new postings.
   */
  merge(remap: Int32Array | null, added: Map<string, number[]>): Postings {
    const extraKeys = [...added.keys()].sort();
    const keys: string[] = [];
    const starts: number[] = [0];
    let size = 0;
    for (const list of added.values()) size += list.length / 2;
    const chunk = new Int32Array(this.chunk.length + size);
    const count = new Int32Array(this.chunk.length + size);
    let at = 0;
    let i = 0;
    let j = 0;
    while (i < this.keys.length || j < extraKeys.length) {
      const fromOld = j >= extraKeys.length || (i < this.keys.length && this.keys[i] <= extraKeys[j]);
      const key = fromOld ? this.keys[i] : extraKeys[j];
      const begin = at;
      if (fromOld) {
        for (let e = this.start[i]; e < this.start[i + 1]; e++) {
          const c = remap ? remap[this.chunk[e]] : this.chunk[e];
          if (c >= 0) { chunk[at] = c; count[at++] = this.count[e]; }
        }
        i++;
      }
      if (j < extraKeys.length && extraKeys[j] === key) {
        const list = added.get(key)!;
        for (let e = 0; e < list.length; e += 2) { chunk[at] = list[e]; count[at++] = list[e + 1]; }
        j++;
      }
      if (at > begin) { keys.push(key); starts.push(at); }
    }
    return new Postings(keys, Int32Array.from(starts), chunk.slice(0, at), count.slice(0, at));
  }
}

/** Adds `n` of `chunk` under `key` (consecutive calls for one chunk are summed). */
export function addPosting(m: Map<string, number[]>, key: string, chunk: number, n: number): void {
  const list = m.get(key);
  if (!list) { m.set(key, [chunk, n]); return; }
  if (list[list.length - 2] === chunk) list[list.length - 1] += n;
  else list.push(chunk, n);
}
