// A build's term triples, (key, row, count) over interned keys, stored compactly until the snapshot
// merges them into postings: keys and counts in blocks, rows once per run; with a spill directory,
// full blocks wait in a temp file (a million-line build has ~7M triples, ~40 MB).
import { KeyIndex } from '../packed/key-index.js';
import { SpillFile } from '../packed/spill-file.js';
import { resized } from '../packed/typed-arrays.js';

/** A term's count saturates here, as the snapshot file stores it (BM25's term frequency saturates long before). */
export const COUNT_MAX = 0xffff;
/** Triples per storage block once the first block has grown to it: growing never copies more. */
const BLOCK_BITS = 16;
const BLOCK = 1 << BLOCK_BITS;
const IN_BLOCK = BLOCK - 1;

/**
 * Interned keys and growable (key, row, count) triples, stored compactly: keys and counts in blocks
 * (no doubling slack, no copy of the whole to grow), rows once per run of triples with one row (a
 * chunk's terms are added together). Term counts are 16 bits, saturating at COUNT_MAX (`wide`: 32,
 * for defined names' places). With `spillDir`, each block but the last is parked in a temp file
 * there once it is full, and read back block by block when the triples are walked.
 */
export class KeyTriples {
  readonly keys: string[] = [];
  /** Key -> id while keys come in; let go by settleKeys() (a million-line build's ~400k keys: ~6 MB). */
  private index: KeyIndex | null = null;
  /** The key order once worked out by settleKeys(), until a key is added. */
  private sorted: number[] | null = null;
  /** A block's keys and counts, or null when it is parked in the spill file at spilledAt[b] (keys, then counts). */
  private readonly keyBlocks: (Int32Array | null)[] = [];
  private readonly countBlocks: (Uint16Array | Int32Array | null)[] = [];
  private readonly spilledAt: number[] = [];
  /** The spill file once made (undefined: not yet); null when there is none (no spill directory, or it took no file): blocks stay in memory. */
  private spill: SpillFile | null | undefined;
  /** The spill file took no more (a full disk): later blocks stay in memory. */
  private spillFull = false;
  /** Run r: row runRow[r] for triples [runStart[r], runStart[r + 1]). */
  private runRow = new Int32Array(64);
  private runStart = new Int32Array(65);
  private runs = 0;
  length = 0;

  /** How many full blocks wait in the spill file. */
  get parkedBlocks(): number {
    return this.keyBlocks.filter((b) => b === null).length;
  }

  constructor(readonly wide = false, private readonly spillDir?: string) {
    if (spillDir === undefined) this.spill = null;
  }

  id(k: string): number {
    const known = this.keys.length;
    const id = this.lookup().id(k);
    if (this.keys.length > known) this.sorted = null;
    return id;
  }

  /** Key ids in key order (the default sort's: UTF-16 code units, as `<` compares). */
  order(): number[] {
    if (this.sorted) return this.sorted;
    const index = this.lookup();
    return this.keys.slice().sort().map((k) => index.find(k));
  }

  /**
   * Works out the key order now and lets the key index go, once no more keys are expected (it is
   * made again if one comes). Sorting keys and looking their ids up costs far less than sorting ids
   * with a comparator (about 250 ms more on a million-line build).
   */
  settleKeys(): void {
    this.sorted = this.order();
    this.index = null;
  }

  /** Lets every key and triple go (they are merged into postings; nothing reads them after). */
  clear(): void {
    this.keys.length = 0;
    this.index = null;
    this.sorted = null;
    this.keyBlocks.length = 0;
    this.countBlocks.length = 0;
    this.spilledAt.length = 0;
    this.spill?.close();
    if (this.spill) this.spill = undefined;
    this.spillFull = false;
    this.runRow = new Int32Array(64);
    this.runStart = new Int32Array(65);
    this.runs = 0;
    this.length = 0;
  }

  private lookup(): KeyIndex {
    return this.index ??= new KeyIndex(this.keys);
  }

  add(key: number, row: number, count: number): void {
    const t = this.length;
    const b = t >>> BLOCK_BITS;
    const at = t & IN_BLOCK;
    if (b === this.keyBlocks.length) {
      if (b > 0) this.park(b - 1);
      const size = Math.min(BLOCK, 1024);
      this.keyBlocks.push(new Int32Array(size));
      this.countBlocks.push(this.wide ? new Int32Array(size) : new Uint16Array(size));
    } else if (at === this.keyBlocks[b]!.length) {
      // Only the first block grows (to BLOCK): small collections stay small.
      this.keyBlocks[b] = resized(this.keyBlocks[b]!, at * 2);
      this.countBlocks[b] = resized(this.countBlocks[b]!, at * 2);
    }
    this.keyBlocks[b]![at] = key;
    this.countBlocks[b]![at] = this.wide || count < COUNT_MAX ? count : COUNT_MAX;
    if (this.runs === 0 || this.runRow[this.runs - 1] !== row) {
      if (this.runs === this.runRow.length) {
        this.runRow = resized(this.runRow, this.runs * 2);
        this.runStart = resized(this.runStart, this.runs * 2 + 1);
      }
      this.runRow[this.runs++] = row;
    }
    this.runStart[this.runs] = ++this.length;
  }

  /** Calls fn(key, row, count) for every triple, in the order they were added (parked blocks are read back one at a time). */
  forEach(fn: (key: number, row: number, count: number) => void): void {
    let loaded = -1;
    let keys: Int32Array = new Int32Array(0);
    let counts: Uint16Array | Int32Array = keys;
    let readKeys: Int32Array | null = null;
    let readCounts: Uint16Array | Int32Array | null = null;
    for (let r = 0; r < this.runs; r++) {
      const row = this.runRow[r];
      for (let t = this.runStart[r]; t < this.runStart[r + 1]; t++) {
        if (t >>> BLOCK_BITS !== loaded) {
          loaded = t >>> BLOCK_BITS;
          keys = this.keyBlocks[loaded] ?? this.unpark(loaded, readKeys ??= new Int32Array(BLOCK), 0);
          counts = this.countBlocks[loaded] ?? this.unpark(loaded, readCounts ??= this.wide ? new Int32Array(BLOCK) : new Uint16Array(BLOCK), BLOCK * 4);
        }
        fn(keys[t & IN_BLOCK], row, counts[t & IN_BLOCK]);
      }
    }
  }

  /** Writes full block b to the spill file and lets it go from memory (kept when no file can be written). */
  private park(b: number): void {
    if (this.spill === null || this.spillFull) return;
    this.spill ??= SpillFile.create(this.spillDir!);
    if (!this.spill) return;
    const bytes = (a: Int32Array | Uint16Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    try {
      const at = this.spill.append(bytes(this.keyBlocks[b]!));
      this.spill.append(bytes(this.countBlocks[b]!));
      this.spilledAt[b] = at;
    } catch {
      // A full disk: this block and the next stay in memory; the blocks parked before stay in the file.
      this.spillFull = true;
      return;
    }
    this.keyBlocks[b] = null;
    this.countBlocks[b] = null;
  }

  /** Parked block b's keys (at 0) or counts (at BLOCK * 4), read into `into`. */
  private unpark<T extends Int32Array | Uint16Array>(b: number, into: T, at: number): T {
    this.spill!.read(this.spilledAt[b] + at, new Uint8Array(into.buffer, into.byteOffset, into.byteLength));
    return into;
  }

  /** The triples as three flat arrays (for the cluster's staged shards). */
  columns(): { key: Int32Array; row: Int32Array; count: Int32Array } {
    const key = new Int32Array(this.length);
    const row = new Int32Array(this.length);
    const count = new Int32Array(this.length);
    let t = 0;
    this.forEach((k, r, c) => { key[t] = k; row[t] = r; count[t++] = c; });
    return { key, row, count };
  }
}
