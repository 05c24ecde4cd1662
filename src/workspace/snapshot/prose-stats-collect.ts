// Gathers a prose statistics file's body (prose-stats-file.ts) from documents counted now and from the
// records of the files before (a base, its delta), which are copied as bytes, never decoded. Each name's
// records come by document, so a record's step from the document before it is known as it comes: the old files' are
// held as (name, step, byte range) in flat arrays; the counted ones are written out as they come (to a
// spill file when given) with only per-name sizes kept, and all laid out by name at the end.
import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { PackedStrings } from '../packed/string-list.js';
import { ByteSink, encodeGram, encodePairs, forEachRecord, isGramName, type ProseDocRecord, type ProseStatsBody, type ProseStatsFile } from './prose-stats-file.js';

/** A record that is a whole run of the old file's records for its name (addWhole), copied as it is. */
const RUN = -1;
/** A name's last document not known yet: it ends a run (found by walking the run when a record follows). */
const IN_RUN = -2;
/** A document slot left empty (a state no document has: documentState never makes ''). */
const EMPTY_SLOT: ProseDocRecord = { state: '', lengths: new Uint16Array(0), docs: 0, chars: 0 };
/** Counted records are written out in pieces of about this many bytes (a first build's are ~10 MB). */
const SPILL_BYTES = 1 << 20;

const varintBytes = (v: number): number => (v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : 4);

export class ProseStatsCollector {
  private readonly docs: ProseDocRecord[] = [];
  private readonly nameIds = new Map<string, number>();
  private readonly nameList: string[] = [];
  /** Per name: its bytes in the body so far, its last document (IN_RUN: a run's), the run's record. */
  private size = new Int32Array(1 << 10);
  private prev = new Int32Array(1 << 10);
  private runAt = new Int32Array(1 << 10);
  /**
   * The old files' record i: name rec[5i], step from the document before (RUN: a whole run) rec[5i + 1],
   * bytes [rec[5i + 2], + rec[5i + 3]) of old[rec[5i + 4]] (a base file and its delta can both be copied).
   */
  private rec = new Int32Array(5 << 10);
  private count = 0;
  private readonly old: Uint8Array[] = [];
  /** Counted records, each varint(name) varint(n) and n bytes (its step, then its record), written to `spillFile` as they pass SPILL_BYTES. */
  private readonly own = new ByteSink();
  private readonly scratch = new ByteSink();
  private ownRecords = 0;
  private fd: number | null = null;

  /**
   * `spillFile`: where counted records wait for the layout, written in pieces of `spillBytes` (removed by
   * body() or discard()); none: they stay in memory.
   */
  constructor(private readonly spillFile?: string, private readonly spillBytes = SPILL_BYTES) {}

  get documents(): number {
    return this.docs.length;
  }

  /** Adds a document; its records follow through addPairs with the number returned. */
  addDocument(d: ProseDocRecord): number {
    this.docs.push(d);
    return this.docs.length - 1;
  }

  /** Document `doc`'s (line, count) pairs of `name`, in line order. */
  addPairs(name: string, doc: number, pairs: ArrayLike<number>): void {
    this.addPairsOf(this.nameOf(name), doc, pairs);
  }

  /**
   * Copies the old file's documents for which `keep(state)` says so (renumbered in order, after any
   * documents already added), with all their records. Throws DamagedFileError when a block fails its checksum.
   */
  addFrom(file: ProseStatsFile, keep: (state: string) => boolean): number {
    if (this.ownRecords > 0) throw new Error('addFrom: the old documents must come before those counted');
    const renumbered = new Int32Array(file.docCount).fill(-1);
    for (let d = 0; d < file.docCount; d++) {
      const state = file.stateOf(d);
      if (!keep(state)) continue;
      renumbered[d] = this.addDocument({ state, lengths: file.lengths(d).slice(), docs: file.docs(d), chars: file.chars(d) });
    }
    const all = file.allPostings();
    const src = this.old.push(all.post) - 1;
    for (let i = 0; i < file.names.length; i++) {
      let name = -1;
      forEachRecord(all.post, all.from(i), all.to(i), isGramName(file.names.at(i)!), (doc, from, to) => {
        if (renumbered[doc] < 0) return;
        if (name < 0) name = this.nameOf(file.names.at(i)!);
        this.pushOld(name, renumbered[doc], src, from, to - from);
      });
    }
    return renumbered.filter((x) => x >= 0).length;
  }

  /**
   * Copies the old file whole, its documents keeping their numbers: those `keep` refuses become empty
   * slots (a state no document has), and each name's records are copied as one run, unread. Cheap
   * (a run per name) where addFrom decodes every record; the slots are dropped by the next addFrom.
   */
  addWhole(file: ProseStatsFile, keep: (state: string) => boolean): number {
    if (this.docs.length > 0) throw new Error('addWhole: the old documents must come first');
    let kept = 0;
    for (let d = 0; d < file.docCount; d++) {
      const state = file.stateOf(d);
      if (keep(state)) { kept++; this.addDocument({ state, lengths: file.lengths(d).slice(), docs: file.docs(d), chars: file.chars(d) }); } else this.addDocument(EMPTY_SLOT);
    }
    const all = file.allPostings();
    const src = this.old.push(all.post) - 1;
    for (let i = 0; i < file.names.length; i++) if (all.to(i) > all.from(i)) this.pushOld(this.nameOf(file.names.at(i)!), RUN, src, all.from(i), all.to(i) - all.from(i));
    return kept;
  }

  /**
   * The body, names sorted, each name's records by document: the old file's records first (their
   * documents come first), then the counted ones in the order they came. Removes the spill file.
   */
  body(): ProseStatsBody {
    try {
      const names = this.nameList.length;
      const order = this.nameList.map((_, i) => i).sort((a, b) => (this.nameList[a] < this.nameList[b] ? -1 : 1));
      const rank = new Int32Array(names);
      order.forEach((id, r) => { rank[id] = r; });
      const start = new Int32Array(names + 1);
      for (let r = 0; r < names; r++) start[r + 1] = start[r] + this.size[order[r]];
      const post = new Uint8Array(start[names]);
      const at = start.slice(0, names);
      const { rec, old } = this;
      for (let i = 0; i < this.count; i++) {
        const r = rank[rec[5 * i]];
        let p = at[r];
        let v = rec[5 * i + 1];
        if (v !== RUN) {
          while (v >= 0x80) { post[p++] = (v & 0x7f) | 0x80; v >>>= 7; }
          post[p++] = v;
        }
        post.set(old[rec[5 * i + 4]].subarray(rec[5 * i + 2], rec[5 * i + 2] + rec[5 * i + 3]), p);
        at[r] = p + rec[5 * i + 3];
      }
      this.rec = new Int32Array(0);
      const place = (bytes: Uint8Array, end: number) => placeRecords(bytes, end, post, at, rank);
      if (this.fd === null) {
        if (place(this.own.bytes, this.own.length) !== this.own.length) throw new Error('prose stats: a counted record was cut short');
      } else {
        this.flush();
        this.readBack(place);
      }
      return { docs: this.docs, names: PackedStrings.of(order.map((id) => this.nameList[id])), start, post };
    } finally {
      this.discard();
    }
  }

  /** Lets the spill file go (a body not made: an update that failed). */
  discard(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    if (this.spillFile) rmSync(this.spillFile, { force: true });
  }

  /** The collector's number for `name` (addPairs' first argument can be it: see addPairsOf). */
  nameId(name: string): number {
    return this.nameOf(name);
  }

  /** A gram's record for document `doc` (encodeGram), by the collector's number for its name (nameId). */
  addGramOf(name: number, doc: number, df: number, most: number): void {
    this.scratch.length = 0;
    encodeGram(this.scratch, df, most);
    this.pushOwn(name, doc);
  }

  /** addPairs by the collector's number for the name (nameId). */
  addPairsOf(name: number, doc: number, pairs: ArrayLike<number>): void {
    this.scratch.length = 0;
    encodePairs(this.scratch, pairs);
    this.pushOwn(name, doc);
  }

  private nameOf(name: string): number {
    let id = this.nameIds.get(name);
    if (id !== undefined) return id;
    id = this.nameList.length;
    this.nameIds.set(name, id);
    this.nameList.push(name);
    if (id >= this.size.length) {
      const grow = (a: Int32Array) => { const b = new Int32Array(a.length * 2); b.set(a); return b; };
      this.size = grow(this.size); this.prev = grow(this.prev); this.runAt = grow(this.runAt);
    }
    return id;
  }

  /** The step from the document before in `name` to `doc` (a run's last document found by walking it). */
  private stepTo(name: number, doc: number): number {
    let prev = this.prev[name];
    if (prev === IN_RUN) {
      const j = this.runAt[name];
      const { rec } = this;
      forEachRecord(this.old[rec[5 * j + 4]], rec[5 * j + 2], rec[5 * j + 2] + rec[5 * j + 3], isGramName(this.nameList[name]), (d) => { prev = d; });
    }
    this.prev[name] = doc;
    return doc - prev;
  }

  private pushOld(name: number, doc: number, src: number, from: number, length: number): void {
    const i = this.count++;
    if (5 * this.count > this.rec.length) {
      // By half again, not twice: a copied file's records can be a good part of this step's memory.
      const rec = new Int32Array(5 * Math.ceil(this.count * 1.5));
      rec.set(this.rec);
      this.rec = rec;
    }
    let step = RUN;
    if (doc === RUN) {
      this.prev[name] = IN_RUN;
      this.runAt[name] = i;
      this.size[name] += length;
    } else {
      step = this.stepTo(name, doc);
      this.size[name] += varintBytes(step) + length;
    }
    this.rec[5 * i] = name;
    this.rec[5 * i + 1] = step;
    this.rec[5 * i + 2] = from;
    this.rec[5 * i + 3] = length;
    this.rec[5 * i + 4] = src;
  }

  /** A counted record (its bytes in `scratch`) out to the spill. */
  private pushOwn(name: number, doc: number): void {
    const step = this.stepTo(name, doc);
    const n = varintBytes(step) + this.scratch.length;
    this.size[name] += n;
    this.own.varint(name);
    this.own.varint(n);
    this.own.varint(step);
    this.own.put(this.scratch.bytes.subarray(0, this.scratch.length));
    this.ownRecords++;
    if (this.spillFile && this.own.length >= this.spillBytes) this.flush();
  }

  private flush(): void {
    if (this.fd === null) this.fd = openSync(this.spillFile!, 'w+');
    const b = this.own.bytes;
    for (let at = 0; at < this.own.length;) at += writeSync(this.fd, b, at, this.own.length - at);
    this.own.length = 0;
  }

  /** Reads the spill file back in pieces, each piece's whole records placed (a record cut by a piece waits for the next). */
  private readBack(place: (bytes: Uint8Array, end: number) => number): void {
    let buf = this.own.bytes.length >= this.spillBytes ? this.own.bytes : new Uint8Array(this.spillBytes);
    let held = 0;
    let pos = 0;
    for (;;) {
      if (held === buf.length) { const b = new Uint8Array(buf.length * 2); b.set(buf); buf = b; }
      const n = readSync(this.fd!, buf, held, buf.length - held, pos);
      pos += n;
      held += n;
      const used = place(buf, held);
      buf.copyWithin(0, used, held);
      held -= used;
      if (n === 0) break;
    }
    if (held !== 0) throw new Error('prose stats: the spill file ends in a cut record');
  }
}

/** Places the whole records of bytes[0, end) (varint(name) varint(n), n bytes) at their names' cursors; returns how far it got. */
function placeRecords(bytes: Uint8Array, end: number, post: Uint8Array, at: Int32Array, rank: Int32Array): number {
  let p = 0;
  for (;;) {
    let q = p;
    let name = 0;
    let n = 0;
    let shift = 1;
    for (;;) { if (q >= end) return p; const b = bytes[q++]; name += (b & 0x7f) * shift; shift *= 128; if (b < 0x80) break; }
    shift = 1;
    for (;;) { if (q >= end) return p; const b = bytes[q++]; n += (b & 0x7f) * shift; shift *= 128; if (b < 0x80) break; }
    if (q + n > end) return p;
    const r = rank[name];
    post.set(bytes.subarray(q, q + n), at[r]);
    at[r] += n;
    p = q + n;
  }
}
