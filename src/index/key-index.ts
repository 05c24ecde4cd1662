// Keys to dense ids (numbered in order of first sight) in an open-addressing table of typed arrays:
// a million-line build interns ~400k lower-cased identifiers, whose Map took ~15 MB of the JS heap;
// this takes ~6 MB outside it.
import { HASH_START, hashStep } from './identifier-table.js';
import { resized } from './typed-arrays.js';

/** An index over a key list it shares with its owner: ids are places in `keys`; new keys are pushed onto it. */
export class KeyIndex {
  private slots: Int32Array;
  private hashes: Int32Array;

  constructor(readonly keys: string[]) {
    let size = 1024;
    while (size < keys.length * 2) size *= 2;
    this.slots = new Int32Array(size).fill(-1);
    this.hashes = new Int32Array(Math.max(512, keys.length));
    keys.forEach((k, id) => { this.hashes[id] = hashOf(k); this.place(id); });
  }

  /** The id of `k`, added on first sight. */
  id(k: string): number {
    const h = hashOf(k);
    const slot = this.slotOf(k, h);
    if (this.slots[slot] >= 0) return this.slots[slot];
    const id = this.keys.length;
    this.keys.push(k);
    if (id === this.hashes.length) this.hashes = resized(this.hashes, id * 2);
    this.hashes[id] = h;
    this.slots[slot] = id;
    if (this.keys.length * 2 > this.slots.length) this.rehash();
    return id;
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

  private place(id: number): void {
    const mask = this.slots.length - 1;
    let slot = this.hashes[id] & mask;
    while (this.slots[slot] >= 0) slot = (slot + 1) & mask;
    this.slots[slot] = id;
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2).fill(-1);
    for (let id = 0; id < this.keys.length; id++) this.place(id);
  }
}

function hashOf(k: string): number {
  let h = HASH_START;
  for (let i = 0; i < k.length; i++) h = hashStep(h, k.charCodeAt(i));
  return h;
}
