// Dense ids (0, 1, 2, ... in order of first sight) found through an open-addressing table over
// 32-bit hashes, in typed arrays: the slots and their growth are here; what a key is and how two
// compare is the owner's (IdentifierTable: slices of a text; KeyIndex: whole strings).
import { resized } from './typed-arrays.js';

/** The hash (FNV-1a over UTF-16 units): h = hashStep(h, unit) from HASH_START, unit by unit. */
// As an int32 (`| 0`), as every step's Math.imul gives and the Int32Array of hashes keeps: the empty key's hash is
// HASH_START itself, and as the double 2166136261 it never equalled its kept -2128831035, so find('') was -1 and a
// build whose document held a word folding to '' (a lone U+FE0F) crashed in Postings.merge (mend37b). A non-empty
// key's hash is the same either way (`h ^ unit` makes h an int32), and so is every slot (`h & mask`).
export const HASH_START = 0x811c9dc5 | 0;
export const hashStep = (h: number, unit: number): number => Math.imul(h ^ unit, 16777619);

/** The hash of text[start, end). */
export function hashOf(text: string, start = 0, end = text.length): number {
  let h = HASH_START;
  for (let i = start; i < end; i++) h = hashStep(h, text.charCodeAt(i));
  return h;
}

export class HashedIds {
  /** Per slot an id, or -1: a power of two, at most half full. */
  protected slots: Int32Array;
  /** Per id, its key's hash. */
  protected hashes: Int32Array;
  protected count = 0;

  constructor(slots: number, ids: number) {
    this.slots = new Int32Array(slots).fill(-1);
    this.hashes = new Int32Array(ids);
  }

  /** Gives the next id to a key of hash `h` whose probe ended at the empty `slot`. */
  protected record(slot: number, h: number): number {
    const id = this.count++;
    if (id === this.hashes.length) this.hashes = resized(this.hashes, id * 2);
    this.hashes[id] = h;
    this.slots[slot] = id;
    if (this.count * 2 > this.slots.length) this.rehash();
    return id;
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2).fill(-1);
    const mask = this.slots.length - 1;
    for (let id = 0; id < this.count; id++) {
      let slot = this.hashes[id] & mask;
      while (this.slots[slot] >= 0) slot = (slot + 1) & mask;
      this.slots[slot] = id;
    }
  }
}

