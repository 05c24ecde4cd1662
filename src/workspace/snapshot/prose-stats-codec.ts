// The records of the prose statistics file's postings (prose-stats-file.ts), in varints: per name, per
// document holding it, the step from the document before, then a word's or stem's lines and counts, or a
// gram's document frequency and most in a line; and the growing buffer they are written into.

/**
 * A name's postings decoded: document docs[k]'s flat (line, count) pairs at [start[k], start[k + 1]) of
 * `pairs`. The bytes hold, per document: the step from the document before, the number of lines, then
 * per line the step from the line before times two, plus one when a count (less two) follows.
 */
export interface DecodedPostings { docs: Int32Array; start: Int32Array; pairs: Int32Array }

/** decodePostings' and decodeGramPostings' scratch (the results are copied out of it). */
let scratchDocs = new Int32Array(1024);
let scratchStart = new Int32Array(1024);
let scratchPairs = new Int32Array(4096);

/** Decodes a name's postings bytes into typed arrays, in one pass (each pair takes a byte at least). */
export function decodePostings(bytes: Uint8Array): DecodedPostings {
  // Into scratch as large as the bytes can need, then copied out at their size: a search decodes a
  // long query's ~130 names, and arrays of the most each could need were most of its garbage.
  if (scratchDocs.length < (bytes.length >> 1) + 1) scratchDocs = new Int32Array(Math.max((bytes.length >> 1) + 1, scratchDocs.length * 2));
  if (scratchStart.length < (bytes.length >> 1) + 1) scratchStart = new Int32Array(Math.max((bytes.length >> 1) + 1, scratchStart.length * 2));
  if (scratchPairs.length < bytes.length * 2) scratchPairs = new Int32Array(Math.max(bytes.length * 2, scratchPairs.length * 2));
  const docs = scratchDocs;
  const start = scratchStart;
  const pairs = scratchPairs;
  start[0] = 0;
  const r = { at: 0 };
  let d = 0;
  let p = 0;
  let doc = 0;
  while (r.at < bytes.length) {
    docs[d] = doc += varintAt(bytes, r);
    const n = varintAt(bytes, r);
    let line = 0;
    for (let k = 0; k < n; k++) {
      const v = varintAt(bytes, r);
      line += v >>> 1;
      pairs[p++] = line;
      pairs[p++] = (v & 1) === 0 ? 1 : varintAt(bytes, r) + 2;
    }
    start[++d] = p;
  }
  return { docs: docs.slice(0, d), start: start.slice(0, d + 1), pairs: pairs.slice(0, p) };
}

function varintAt(bytes: Uint8Array, r: { at: number }): number {
  let v = 0;
  let shift = 1;
  for (;;) {
    const b = bytes[r.at++];
    v += (b & 0x7f) * shift;
    if (b < 0x80) return v;
    shift *= 128;
  }
}

/**
 * Calls `each(doc, from, to)` for every document's record in a name's postings bytes: [from, to) its
 * bytes after the document number (what encodePairs wrote), to copy unread.
 */
export function forEachRecord(bytes: Uint8Array, from: number, to: number, gram: boolean, each: (doc: number, from: number, to: number) => void): void {
  const r = { at: from };
  let doc = 0;
  while (r.at < to) {
    doc += varintAt(bytes, r);
    const begin = r.at;
    if (gram) {
      varintAt(bytes, r);
      varintAt(bytes, r);
    } else {
      const n = varintAt(bytes, r);
      for (let k = 0; k < n; k++) if (varintAt(bytes, r) % 2 === 1) varintAt(bytes, r);
    }
    each(doc, begin, r.at);
  }
}

/** Whether a name is a gram's (its records hold the gram's document frequency and most in a line, not its lines). */
export const isGramName = (name: string): boolean => name.charCodeAt(0) === 0x67 /* 'g' */;

/** A gram's postings decoded: per document docs[k], its document frequency df[k] (lines that hold it) and the most a line holds it. */
export interface DecodedGramPostings { docs: Int32Array; df: Int32Array; most: Int32Array }

export function decodeGramPostings(bytes: Uint8Array): DecodedGramPostings {
  const n = Math.ceil(bytes.length / 3);
  if (scratchDocs.length < n) scratchDocs = new Int32Array(Math.max(n, scratchDocs.length * 2));
  if (scratchStart.length < n) scratchStart = new Int32Array(Math.max(n, scratchStart.length * 2));
  if (scratchPairs.length < n) scratchPairs = new Int32Array(Math.max(n, scratchPairs.length * 2));
  const docs = scratchDocs;
  const df = scratchStart;
  const most = scratchPairs;
  const r = { at: 0 };
  let d = 0;
  let doc = 0;
  while (r.at < bytes.length) {
    docs[d] = doc += varintAt(bytes, r);
    df[d] = varintAt(bytes, r);
    most[d++] = varintAt(bytes, r) + 1;
  }
  return { docs: docs.slice(0, d), df: df.slice(0, d), most: most.slice(0, d) };
}

/** Appends a gram record's bytes after its document number: its document frequency and the most a line holds it (at least 1). */
export function encodeGram(out: ByteSink, df: number, most: number): void {
  out.varint(df);
  out.varint(most - 1);
}

/** Appends a record's bytes after its document number (decodePostings' form) for flat (line, count) pairs in line order. */
export function encodePairs(out: ByteSink, pairs: ArrayLike<number>): void {
  out.varint(pairs.length >> 1);
  let line = 0;
  for (let j = 0; j < pairs.length; j += 2) {
    // The line's step from the one before, doubled, odd when a count other than 1 follows (most are 1).
    const once = pairs[j + 1] === 1;
    out.varint((pairs[j] - line) * 2 + (once ? 0 : 1));
    if (!once) out.varint(pairs[j + 1] - 2);
    line = pairs[j];
  }
}

/** A growing byte buffer of varints and copied runs. */
export class ByteSink {
  bytes = new Uint8Array(1 << 16);
  length = 0;

  varint(v: number): void {
    this.room(8);
    while (v >= 0x80) {
      this.bytes[this.length++] = (v % 128) | 0x80;
      v = Math.floor(v / 128);
    }
    this.bytes[this.length++] = v;
  }

  put(b: Uint8Array): void {
    this.room(b.length);
    this.bytes.set(b, this.length);
    this.length += b.length;
  }

  private room(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    const next = new Uint8Array(Math.max(Math.ceil(this.bytes.length * 1.5), this.length + n));
    next.set(this.bytes.subarray(0, this.length));
    this.bytes = next;
  }

  done(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }
}
