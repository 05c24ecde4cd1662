// A map bounded by a size its caller counts (bytes, characters), the least recently used dropped first:
// what a resident process keeps between searches (embed/kept-chunks.ts, workspace/search/kept-text.ts).

export class BoundedLru<V> {
  private readonly entries = new Map<string, { value: V; size: number }>();
  private held = 0;

  constructor(readonly limit: number) {}

  /** The value under `key`, now the most recently used; undefined when absent. */
  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.value;
  }

  /** The value and its counted size, leaving its recency as it is. */
  peek(key: string): { value: V; size: number } | undefined {
    return this.entries.get(key);
  }

  /** Keeps `value` as the most recently used (replacing one of the same key), dropping the least recently used past the limit. */
  set(key: string, value: V, size: number): void {
    this.delete(key);
    this.entries.set(key, { value, size });
    this.held += size;
    for (const [k] of this.entries) {
      if (this.held <= this.limit) break;
      this.delete(k);
    }
  }

  delete(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.held -= e.size;
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The sizes of the values held, summed. */
  get total(): number {
    return this.held;
  }
}
