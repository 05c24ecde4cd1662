// Long lists of strings (term keys, defined names) kept as UTF-8 bytes and offsets, as the snapshot
// file holds them: a process that opens a snapshot decodes only the few strings a query looks at,
// instead of hundreds of thousands at start-up. An array of strings is a StringList too.

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

