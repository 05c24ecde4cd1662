// Identifiers interned straight from the text they occur in: an open-addressing table hashed over
// the characters, so counting a chunk's identifiers allocates no string for one already seen (a
// million-line build meets each distinct identifier once and its occurrences millions of times).
import { resized } from './typed-arrays.js';

/** The identifier hash (FNV-1a over UTF-16 units): h = hashStep(h, unit) from HASH_START, unit by unit. */
export const HASH_START = 0x811c9dc5;
export const hashStep = (h: number, unit: number): number => Math.imul(h ^ unit, 16777619);

export class IdentifierTable {
  private slots = new Int32Array(1 << 16).fill(-1);
  private hashes = new Int32Array(1 << 15);
  readonly names: string[] = [];

  /** The id of text[start, end), added on first sight. */
  idOf(text: string, start: number, end: number): number {
    let h = HASH_START;
    for (let i = start; i < end; i++) h = hashStep(h, text.charCodeAt(i));
    return this.idOfHashed(text, start, end, h);
  }

  /** idOf when the caller hashed text[start, end) as it scanned it (one pass over the characters, not two). */
  idOfHashed(text: string, start: number, end: number, h: number): number {
    const mask = this.slots.length - 1;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const id = this.slots[slot];
      if (id < 0) return this.insert(slot, h, ownString(text.slice(start, end)));
      if (this.hashes[id] === h && same(this.names[id], text, start, end)) return id;
    }
  }

  private insert(slot: number, h: number, name: string): number {
    const id = this.names.length;
    this.names.push(name);
    if (id === this.hashes.length) this.hashes = resized(this.hashes, id * 2);
    this.hashes[id] = h;
    this.slots[slot] = id;
    if (this.names.length * 2 > this.slots.length) this.rehash();
    return id;
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2).fill(-1);
    const mask = this.slots.length - 1;
    for (let id = 0; id < this.names.length; id++) {
      let slot = this.hashes[id] & mask;
      while (this.slots[slot] >= 0) slot = (slot + 1) & mask;
      this.slots[slot] = id;
    }
  }
}

function same(name: string, text: string, start: number, end: number): boolean {
  if (name.length !== end - start) return false;
  for (let i = 0; i < name.length; i++) if (name.charCodeAt(i) !== text.charCodeAt(start + i)) return false;
  return true;
}

/**
 * A copy of `s` that holds no reference to the text it was cut from: V8 keeps a slice of 13 or more
 * characters as a view of its parent, so every chunk text that introduced a long identifier would
 * stay in memory as long as the build's tables do (measured: 2,000 20-character slices of 100 KB
 * texts hold 200 MB as slices, 5 MB so). A JSON round trip makes one flat string; slicing a
 * concatenation would make a new parent and a slice of it, about twice the memory (400,000
 * identifiers of a million-line build: 13 MB more).
 */
export function ownString(s: string): string {
  return s.length < 13 ? s : JSON.parse(JSON.stringify(s)) as string;
}
