// Bounded memo of token ids per ASCII word, keyed by the word's folded (normalized) chars read
// straight from the line: a hit costs a hash probe and a char compare, and allocates nothing.
// When full it is cleared wholesale, so memory stays fixed (~3.5 MB by default) however varied the input.

export const DEFAULT_MEMO_WORDS = 1 << 16;

export class AsciiWordMemo {
  private readonly slots: Int32Array;
  private readonly mask: number;
  private readonly entryHash: Int32Array;
  private readonly entryKeyAt: Int32Array;
  private readonly entryKeyLen: Int32Array;
  /** Where an entry's ids start in `ids`; its count is idAt[e + 1] - idAt[e]. */
  readonly idAt: Int32Array;
  readonly ids: Int32Array;
  private readonly keys: Uint8Array;
  private readonly maxEntries: number;
  private entries = 0;
  private keyTop = 0;

  constructor(maxEntries = DEFAULT_MEMO_WORDS) {
    this.maxEntries = Math.max(1, maxEntries);
    let slots = 2;
    while (slots < this.maxEntries * 2) slots *= 2;
    this.slots = new Int32Array(slots);
    this.mask = slots - 1;
    this.entryHash = new Int32Array(this.maxEntries);
    this.entryKeyAt = new Int32Array(this.maxEntries);
    this.entryKeyLen = new Int32Array(this.maxEntries);
    this.idAt = new Int32Array(this.maxEntries + 1);
    // Words average well under 16 chars and 4 pieces; overflowing either arena just clears early.
    this.keys = new Uint8Array(this.maxEntries * 16);
    this.ids = new Int32Array(this.maxEntries * 4);
  }

  /** Entry index for text[start, end) folded through `fold`, or -1. `hash` is memoHash of it. */
  find(text: string, start: number, end: number, hash: number, fold: Uint8Array): number {
    const len = end - start;
    const mask = this.mask;
    let slot = (hash ^ (hash >>> 13)) & mask;
    for (;;) {
      const e = this.slots[slot] - 1;
      if (e < 0) return -1;
      if (this.entryHash[e] === hash && this.entryKeyLen[e] === len) {
        const keys = this.keys;
        let k = this.entryKeyAt[e];
        let i = start;
        while (i < end && keys[k] === fold[text.charCodeAt(i)]) { i++; k++; }
        if (i === end) return e;
      }
      slot = (slot + 1) & mask;
    }
  }

  /** Stores ids for text[start, end) (must not be present); returns the new entry index. */
  insert(text: string, start: number, end: number, hash: number, fold: Uint8Array, wordIds: number[]): number {
    const len = end - start;
    if (len > this.keys.length || wordIds.length > this.ids.length) return -1;
    if (this.entries >= this.maxEntries || this.keyTop + len > this.keys.length || this.idAt[this.entries] + wordIds.length > this.ids.length) {
      this.clear();
    }
    const e = this.entries++;
    this.entryHash[e] = hash;
    this.entryKeyAt[e] = this.keyTop;
    this.entryKeyLen[e] = len;
    for (let i = start; i < end; i++) this.keys[this.keyTop++] = fold[text.charCodeAt(i)];
    let at = this.idAt[e];
    for (let i = 0; i < wordIds.length; i++) this.ids[at++] = wordIds[i];
    this.idAt[e + 1] = at;
    let slot = (hash ^ (hash >>> 13)) & this.mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask;
    this.slots[slot] = e + 1;
    return e;
  }

  get size(): number {
    return this.entries;
  }

  clear(): void {
    this.slots.fill(0);
    this.entries = 0;
    this.keyTop = 0;
    this.idAt[0] = 0;
  }
}

/** FNV-1a step over one folded code unit; the fast path inlines the same formula. */
export const MEMO_HASH_SEED = 0x811c9dc5 | 0;
export function memoHashStep(hash: number, foldedChar: number): number {
  return Math.imul(hash ^ foldedChar, 16777619);
}
