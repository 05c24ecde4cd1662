// A map bounded by a size its caller counts (bytes, characters), the least recently used dropped first:
// what a resident process keeps between searches (embed/kept-chunks.ts, workspace/search/kept-text.ts).
// Recency is a list through the entries themselves: a `get` moves its entry to the end of it (a few
// pointers), where a Map's delete and set did (two more hash lookups, a hole, the table's rehash now and then:
// ~0.4-0.5 ms a warm search, branch warm36). The same entries are dropped in the same order.

interface Node<V> {
  key: string;
  value: V;
  size: number;
  /** Less and more recently used neighbours (null at the ends). */
  older: Node<V> | null;
  newer: Node<V> | null;
}

export class BoundedLru<V> {
  private readonly entries = new Map<string, Node<V>>();
  /** The least and the most recently used entries. */
  private oldest: Node<V> | null = null;
  private newest: Node<V> | null = null;
  private held = 0;

  constructor(readonly limit: number) {}

  /** The value under `key`, now the most recently used; undefined when absent. */
  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e !== this.newest) {
      this.unlink(e);
      this.append(e);
    }
    return e.value;
  }

  /** The value and its counted size, leaving its recency as it is. */
  peek(key: string): { value: V; size: number } | undefined {
    return this.entries.get(key);
  }

  /** Keeps `value` as the most recently used (replacing one of the same key), dropping the least recently used past the limit. */
  set(key: string, value: V, size: number): void {
    this.delete(key);
    const e: Node<V> = { key, value, size, older: null, newer: null };
    this.entries.set(key, e);
    this.append(e);
    this.held += size;
    while (this.held > this.limit && this.oldest) this.delete(this.oldest.key);
  }

  delete(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.held -= e.size;
    this.entries.delete(key);
    this.unlink(e);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The values held, leaving their recency as it is (in no set order). */
  *values(): IterableIterator<V> {
    for (const e of this.entries.values()) yield e.value;
  }

  /** The sizes of the values held, summed. */
  get total(): number {
    return this.held;
  }

  private unlink(e: Node<V>): void {
    if (e.older) e.older.newer = e.newer; else this.oldest = e.newer;
    if (e.newer) e.newer.older = e.older; else this.newest = e.older;
    e.older = e.newer = null;
  }

  private append(e: Node<V>): void {
    e.older = this.newest;
    if (this.newest) this.newest.newer = e; else this.oldest = e;
    this.newest = e;
  }
}
