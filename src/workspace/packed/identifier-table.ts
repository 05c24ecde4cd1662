// Identifiers interned straight from the text they occur in: an open-addressing table hashed over
// the characters, so counting a chunk's identifiers allocates no string for one already seen (a
// million-line build meets each distinct identifier once and its occurrences millions of times).
import { HashedIds, hashOf } from './hashed-ids.js';

export class IdentifierTable extends HashedIds {
  readonly names: string[] = [];

  constructor() {
    super(1 << 16, 1 << 15);
  }

  /** The id of text[start, end), added on first sight. */
  idOf(text: string, start: number, end: number): number {
    return this.idOfHashed(text, start, end, hashOf(text, start, end));
  }

  /** idOf when the caller hashed text[start, end) as it scanned it (one pass over the characters, not two). */
  idOfHashed(text: string, start: number, end: number, h: number): number {
    const mask = this.slots.length - 1;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const id = this.slots[slot];
      if (id < 0) {
        this.names.push(ownString(text.slice(start, end)));
        return this.record(slot, h);
      }
      if (this.hashes[id] === h && same(this.names[id], text, start, end)) return id;
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
