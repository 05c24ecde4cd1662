// Keys to dense ids (numbered in order of first sight) in an open-addressing table of typed arrays:
// a million-line build interns ~400k lower-cased identifiers, whose Map took ~15 MB of the JS heap;
// this takes ~6 MB outside it.
import { HashedIds, hashOf } from './hashed-ids.js';

/** An index over a key list it shares with its owner: ids are places in `keys`; new keys are pushed onto it. */
export class KeyIndex extends HashedIds {
  constructor(readonly keys: string[]) {
    let size = 1024;
    while (size < keys.length * 2) size *= 2;
    super(size, Math.max(512, keys.length));
    // The keys are distinct: each gets the next id, its place in the list.
    for (const k of keys) { const h = hashOf(k); this.record(this.slotOf(k, h), h); }
  }

  /** The id of `k`, added on first sight. */
  id(k: string): number {
    const h = hashOf(k);
    const slot = this.slotOf(k, h);
    if (this.slots[slot] >= 0) return this.slots[slot];
    this.keys.push(k);
    return this.record(slot, h);
  }

  /** The id of `k`, or -1. */
  find(k: string): number {
    return this.slots[this.slotOf(k, hashOf(k))];
  }

  /** The slot holding `k`, or the empty slot where it would go. */
  private slotOf(k: string, h: number): number {
    const mask = this.slots.length - 1;
    let slot = h & mask;
    for (let id = this.slots[slot]; id >= 0; id = this.slots[slot]) {
      if (this.hashes[id] === h && this.keys[id] === k) return slot;
      slot = (slot + 1) & mask;
    }
    return slot;
  }
}
