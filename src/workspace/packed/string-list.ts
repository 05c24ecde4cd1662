// Long lists of strings (term keys, defined names) kept as UTF-8 bytes and offsets, as the snapshot
// file holds them: a process that opens a snapshot decodes only the few strings a query looks at,
// instead of hundreds of thousands at start-up. An array of strings is a StringList too.
import { resized } from './typed-arrays.js';

export interface StringList {
  readonly length: number;
  at(i: number): string | undefined;
}

export class PackedStrings implements StringList {
  private readonly text: Buffer;

  /** String i is bytes [offsets[i], offsets[i + 1]). */
  constructor(bytes: Uint8Array, readonly offsets: Int32Array) {
    this.text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get length(): number {
    return this.offsets.length - 1;
  }

  at(i: number): string | undefined {
    if (i < 0 || i >= this.length) return undefined;
    return this.text.toString('utf8', this.offsets[i], this.offsets[i + 1]);
  }

  /**
   * String i compared with an ASCII `key` as JavaScript compares strings (<0: i sorts first), from its
   * bytes, nothing decoded: a UTF-8 byte of 0x80 or more starts a character above every ASCII one, in
   * UTF-16 order too, so the first differing byte decides.
   */
  compareAscii(i: number, key: string): number {
    const text = this.text;
    const from = this.offsets[i];
    const n = this.offsets[i + 1] - from;
    const m = Math.min(n, key.length);
    for (let j = 0; j < m; j++) {
      const d = text[from + j] - key.charCodeAt(j);
      if (d !== 0) return d;
    }
    return n - key.length;
  }

  /** The bytes of strings [from, to), in place. */
  bytesOf(from: number, to: number): Uint8Array {
    return this.text.subarray(this.offsets[from], this.offsets[to]);
  }

  /** Strings [from, to) as a list of their own (this list when that is all of it). */
  slice(from: number, to: number): PackedStrings {
    if (from === 0 && to === this.length) return this;
    const b = new PackedStringsBuilder();
    b.addFrom(this, from, to);
    return b.build();
  }

  /** A list in this form (packed once when it is an array). */
  static of(list: StringList): PackedStrings {
    return list instanceof PackedStrings ? list : PackedStringsBuilder.of(list);
  }

  /** A list's bytes and offsets, to write to a file. */
  static pack(list: StringList): { bytes: Uint8Array; offsets: Int32Array } {
    const { text, offsets } = PackedStrings.of(list);
    return { bytes: new Uint8Array(text.buffer, text.byteOffset, text.byteLength), offsets };
  }
}

/**
 * Builds a PackedStrings from strings and from runs of other packed lists into one growing buffer:
 * bytes are copied, never decoded, and a string added costs no object of its own (a build's 400,000
 * term keys).
 */
export class PackedStringsBuilder {
  private bytes = Buffer.allocUnsafeSlow(1024);
  private offsets = new Int32Array(1024);
  private count = 0;
  /** Bytes of every string added so far. */
  private end = 0;

  get length(): number {
    return this.count;
  }

  add(s: string): void {
    this.room(s.length * 3);
    this.end += this.bytes.write(s, this.end, 'utf8');
    this.push(this.end);
  }

  /** Strings [from, to) of `list`. */
  addFrom(list: PackedStrings, from: number, to: number): void {
    if (to <= from) return;
    const src = list.bytesOf(from, to);
    this.room(src.length);
    this.bytes.set(src, this.end);
    // Room for the offsets once, then one tight loop (a snapshot's 150,000 defined names at a time).
    const last = this.count + (to - from);
    if (last + 1 > this.offsets.length) this.offsets = resized(this.offsets, Math.max(this.offsets.length * 2, last + 1));
    const o = list.offsets;
    const out = this.offsets;
    const shift = this.end - o[from];
    for (let i = from, c = this.count; i < to; i++) out[++c] = o[i + 1] + shift;
    this.count = last;
    this.end += src.length;
  }

  /** A list packed. */
  static of(list: StringList): PackedStrings {
    const b = new PackedStringsBuilder();
    for (let i = 0; i < list.length; i++) b.add(list.at(i)!);
    return b.build();
  }

  build(): PackedStrings {
    // An exact copy (a Buffer's slice() would be a view of the whole growing buffer).
    const bytes = new Uint8Array(this.end);
    bytes.set(this.bytes.subarray(0, this.end));
    return new PackedStrings(bytes, this.offsets.slice(0, this.count + 1));
  }

  private room(n: number): void {
    if (this.end + n <= this.bytes.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(this.bytes.length * 2, this.end + n));
    grown.set(this.bytes.subarray(0, this.end));
    this.bytes = grown;
  }

  private push(end: number): void {
    if (this.count + 2 > this.offsets.length) this.offsets = resized(this.offsets, this.offsets.length * 2);
    this.offsets[++this.count] = end;
  }
}
