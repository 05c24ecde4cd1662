// Bounded memo of token ids per ASCII word, keyed by the word's folded (normalized) chars read
// straight from the line: a hit costs a hash probe and a char compare, and allocates nothing.
// When full it is cleared wholesale, so memory stays fixed (~3 MB) however varied the input.

const MAX_ENTRIES = 1 << 16;
const SLOT_BITS = 17;
const KEY_ARENA = 1 << 20;
const ID_ARENA = 1 << 18;

export class AsciiWordMemo {
  private readonly slots = new Int32Array(1 << SLOT_BITS);
  private readonly mask = (1 << SLOT_BITS) - 1;
  private readonly entryHash = new Int32Array(MAX_ENTRIES);
  private readonly entryKeyAt = new Int32Array(MAX_ENTRIES);
  private readonly entryKeyLen = new Int32Array(MAX_ENTRIES);
  /** Where an entry's ids start in `ids`; its count is idAt[e + 1] - idAt[e]. */
  readonly idAt = new Int32Array(MAX_ENTRIES + 1);
  readonly ids = new Int32Array(ID_ARENA);
  private readonly keys = new Uint8Array(KEY_ARENA);
  private entries = 0;
  private keyTop = 0;

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
    if (len > KEY_ARENA || wordIds.length > ID_ARENA) return -1;
    if (this.entries >= MAX_ENTRIES || this.keyTop + len > KEY_ARENA || this.idAt[this.entries] + wordIds.length > ID_ARENA) {
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
