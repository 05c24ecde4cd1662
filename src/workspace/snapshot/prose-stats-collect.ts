// Gathers a prose statistics file's body (prose-stats-file.ts) from documents counted now and from the
// records of the file before, which are copied as bytes, never decoded: records are held as (name,
// document, byte range) triples in flat arrays and laid out by name, then document, at the end.
import { PackedStrings } from '../packed/string-list.js';
import { ByteSink, encodeGram, encodePairs, forEachRecord, isGramName, type ProseDocRecord, type ProseStatsBody, type ProseStatsFile } from './prose-stats-file.js';

/** A record that is a whole run of the old file's records for its name (addWhole), copied as it is. */
const RUN = -1;
/** A document slot left empty (a state no document has: documentState never makes ''). */
const EMPTY_SLOT: ProseDocRecord = { state: '', lengths: new Uint16Array(0), docs: 0, chars: 0 };

const varintBytes = (v: number): number => (v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : 4);

export class ProseStatsCollector {
  private readonly docs: ProseDocRecord[] = [];
  private readonly nameIds = new Map<string, number>();
  private readonly nameList: string[] = [];
  /** Record i: name rec[3i], document rec[3i + 1], its bytes at [rec[3i + 2], that + len[i]) of its buffer (src[i]: 0 own, 1 the old file's). */
  private rec = new Int32Array(3 << 12);
  private len = new Int32Array(1 << 12);
  private src = new Uint8Array(1 << 12);
  private count = 0;
  private readonly own = new ByteSink();
  private old: Uint8Array | null = null;

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
    const from = this.own.length;
    encodePairs(this.own, pairs);
    this.push(this.nameOf(name), doc, from, this.own.length - from, 0);
  }

  /**
   * Copies the old file's documents for which `keep(state)` says so (renumbered in order), with all
   * their records. Throws DamagedFileError when a block fails its checksum.
   */
  addFrom(file: ProseStatsFile, keep: (state: string) => boolean): number {
    const renumbered = new Int32Array(file.docCount).fill(-1);
    for (let d = 0; d < file.docCount; d++) {
      const state = file.stateOf(d);
      if (!keep(state)) continue;
      renumbered[d] = this.addDocument({ state, lengths: file.lengths(d).slice(), docs: file.docs(d), chars: file.chars(d) });
    }
    const { start, post } = file.allPostings();
    this.old = post;
    for (let i = 0; i < file.names.length; i++) {
      let name = -1;
      forEachRecord(post, start[i], start[i + 1], isGramName(file.names.at(i)!), (doc, from, to) => {
        if (renumbered[doc] < 0) return;
        if (name < 0) name = this.nameOf(file.names.at(i)!);
        this.push(name, renumbered[doc], from, to - from, 1);
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
    const { start, post } = file.allPostings();
    this.old = post;
    for (let i = 0; i < file.names.length; i++) if (start[i + 1] > start[i]) this.push(this.nameOf(file.names.at(i)!), RUN, start[i], start[i + 1] - start[i], 1);
    return kept;
  }

  /**
   * The body, names sorted, each name's records by document: records are bucketed by name in the order
   * they came, which is by document (the old file's records first, in its order, then each document counted).
   */
  body(): ProseStatsBody {
    const names = this.nameList.length;
    const order = this.nameList.map((_, i) => i).sort((a, b) => (this.nameList[a] < this.nameList[b] ? -1 : 1));
    const rank = new Int32Array(names);
    order.forEach((id, r) => { rank[id] = r; });
    const { rec, len, src } = this;
    const own = this.own.bytes;
    const old = this.old;
    // Each record's document as a step from the one before it in its name (a run's last document is
    // found by walking it, only where a record follows it); then bytes per name, then the records laid out.
    const prev = new Int32Array(names);
    const runAt = new Int32Array(names).fill(-1);
    const step = new Int32Array(this.count);
    const start = new Int32Array(names + 1);
    for (let i = 0; i < this.count; i++) {
      const r = rank[rec[3 * i]];
      if (rec[3 * i + 1] === RUN) { runAt[r] = i; start[r + 1] += len[i]; continue; }
      if (runAt[r] >= 0) {
        const j = runAt[r];
        forEachRecord(old!, rec[3 * j + 2], rec[3 * j + 2] + len[j], isGramName(this.nameList[rec[3 * j]]), (doc) => { prev[r] = doc; });
        runAt[r] = -1;
      }
      step[i] = rec[3 * i + 1] - prev[r];
      prev[r] = rec[3 * i + 1];
      start[r + 1] += varintBytes(step[i]) + len[i];
    }
    for (let r = 0; r < names; r++) start[r + 1] += start[r];
    const post = new Uint8Array(start[names]);
    const at = start.slice(0, names);
    for (let i = 0; i < this.count; i++) {
      const r = rank[rec[3 * i]];
      let p = at[r];
      const buf = src[i] === 0 ? own : old!;
      if (rec[3 * i + 1] === RUN) {
        post.set(buf.subarray(rec[3 * i + 2], rec[3 * i + 2] + len[i]), p);
        at[r] = p + len[i];
        continue;
      }
      let v = step[i];
      while (v >= 0x80) { post[p++] = (v & 0x7f) | 0x80; v >>>= 7; }
      post[p++] = v;
      for (let j = rec[3 * i + 2], end = j + len[i]; j < end; j++) post[p++] = buf[j];
      at[r] = p;
    }
    return { docs: this.docs, names: PackedStrings.of(order.map((id) => this.nameList[id])), start, post };
  }

  /** The collector's number for `name` (addPairs' first argument can be it: see addPairsOf). */
  nameId(name: string): number {
    return this.nameOf(name);
  }

  /** A gram's record for document `doc` (encodeGram), by the collector's number for its name (nameId). */
  addGramOf(name: number, doc: number, df: number, most: number): void {
    const from = this.own.length;
    encodeGram(this.own, df, most);
    this.push(name, doc, from, this.own.length - from, 0);
  }

  /** addPairs by the collector's number for the name (nameId). */
  addPairsOf(name: number, doc: number, pairs: ArrayLike<number>): void {
    const from = this.own.length;
    encodePairs(this.own, pairs);
    this.push(name, doc, from, this.own.length - from, 0);
  }

  private nameOf(name: string): number {
    let id = this.nameIds.get(name);
    if (id === undefined) { id = this.nameList.length; this.nameIds.set(name, id); this.nameList.push(name); }
    return id;
  }

  private push(name: number, doc: number, from: number, length: number, src: number): void {
    const i = this.count++;
    if (this.count > this.len.length) {
      // By half again, not twice: a first build's 1.5 M records are most of this step's memory.
      const n = Math.ceil(this.len.length * 1.5);
      const rec = new Int32Array(3 * n); rec.set(this.rec); this.rec = rec;
      const len = new Int32Array(n); len.set(this.len); this.len = len;
      const s = new Uint8Array(n); s.set(this.src); this.src = s;
    }
    this.rec[3 * i] = name;
    this.rec[3 * i + 1] = doc;
    this.rec[3 * i + 2] = from;
    this.len[i] = length;
    this.src[i] = src;
  }
}
