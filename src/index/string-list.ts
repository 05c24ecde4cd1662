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
    if (list instanceof PackedStrings) return list;
    const { bytes, offsets } = PackedStrings.pack(list);
    return new PackedStrings(bytes, offsets);
  }

  /** A list's bytes and offsets, to write to a file. */
  static pack(list: StringList): { bytes: Uint8Array; offsets: Int32Array } {
    const plain = (b: Buffer) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    if (list instanceof PackedStrings) return { bytes: plain(list.text), offsets: list.offsets };
    const offsets = new Int32Array(list.length + 1);
    const parts: Buffer[] = [];
    let at = 0;
    for (let i = 0; i < list.length; i++) {
      const b = Buffer.from(list.at(i)!, 'utf8');
      parts.push(b);
      at += b.length;
      offsets[i + 1] = at;
    }
    return { bytes: plain(Buffer.concat(parts, at)), offsets };
  }
}

/** Builds a PackedStrings from strings and from runs of other packed lists, copying bytes, never decoding. */
export class PackedStringsBuilder {
  private readonly parts: Uint8Array[] = [];
  private offsets = new Int32Array(1024);
  private count = 0;
  /** Bytes of every string added so far. */
  private end = 0;
  /** The run of a packed list not yet copied, extended while addFrom continues it. */
  private run: { list: PackedStrings; from: number; to: number } | null = null;

  get length(): number {
    return this.count;
  }

  add(s: string): void {
    this.closeRun();
    const b = Buffer.from(s, 'utf8');
    this.parts.push(b);
    this.end += b.length;
    this.push(this.end);
  }

  /** Strings [from, to) of `list`. */
  addFrom(list: PackedStrings, from: number, to: number): void {
    if (to <= from) return;
    if (this.run && this.run.list === list && this.run.to === from) this.run.to = to;
    else { this.closeRun(); this.run = { list, from, to }; }
    const o = list.offsets;
    const shift = this.end - o[from];
    for (let i = from; i < to; i++) this.push(o[i + 1] + shift);
    this.end += o[to] - o[from];
  }

  build(): PackedStrings {
    this.closeRun();
    const all = Buffer.concat(this.parts, this.end);
    return new PackedStrings(new Uint8Array(all.buffer, all.byteOffset, all.byteLength), this.offsets.slice(0, this.count + 1));
  }

  private closeRun(): void {
    if (!this.run) return;
    const { list, from, to } = this.run;
    this.parts.push(list.bytesOf(from, to));
    this.run = null;
  }

  private push(end: number): void {
    if (this.count + 2 > this.offsets.length) this.offsets = resized(this.offsets, this.offsets.length * 2);
    this.offsets[++this.count] = end;
  }
}
