// The snapshot on disk, so a new process (the CLI) answers without rebuilding it from the store: a
// JSON header (files, strings, section table) and the typed arrays, written atomically and tagged
// with the store version it was built from (a stale or damaged file is simply rebuilt).
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { termLookup, type KeyIndex, type Snapshot, type TermLookup } from './snapshot.js';

const MAGIC = 'simgrep-snapshot-1';

type Numeric = Int32Array | Float32Array | Uint8Array;
const ARRAYS = ['chunkFile', 'start', 'end', 'chars', 'flags', 'vectors', 'identPostStart', 'postChunk', 'postCount', 'defStart'] as const;

export function writeSnapshotFile(file: string, s: Snapshot): void {
  const lookup = termLookup(s);
  const maps = { byLower: csr(lookup.byLower), byStem: csr(lookup.byStem) };
  const sections: { name: string; array: Numeric }[] = [
    ...ARRAYS.map((name) => ({ name, array: s[name] as Numeric })),
    { name: 'byLower', array: maps.byLower.ids }, { name: 'byLowerStart', array: maps.byLower.starts },
    { name: 'byStem', array: maps.byStem.ids }, { name: 'byStemStart', array: maps.byStem.starts },
  ];
  let offset = 0;
  const table = sections.map(({ name, array }) => {
    const entry = { name, type: array.constructor.name, offset, length: array.length };
    offset += align8(array.byteLength);
    return entry;
  });
  const header = Buffer.from(JSON.stringify({
    magic: MAGIC, version: s.version, dim: s.dim, files: s.files, idents: s.idents, defNames: s.defNames,
    lowerKeys: maps.byLower.keys, stemKeys: maps.byStem.keys, table,
  }));
  const prefix = Buffer.alloc(8);
  prefix.writeUInt32LE(header.length, 0);
  const body = Buffer.alloc(offset);
  sections.forEach(({ array }, i) => Buffer.from(array.buffer, array.byteOffset, array.byteLength).copy(body, table[i].offset));
  const pad = Buffer.alloc(align8(8 + header.length) - 8 - header.length);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, Buffer.concat([prefix, header, pad, body]));
  renameSync(tmp, file);
}

/** The snapshot in `file` if it was built from store version `version`, else null. */
export function readSnapshotFile(file: string, version: string): Snapshot | null {
  let buf: Buffer;
  try { buf = readFileSync(file); } catch { return null; }
  try {
    const headerLength = buf.readUInt32LE(0);
    const h = JSON.parse(buf.subarray(8, 8 + headerLength).toString('utf8'));
    if (h.magic !== MAGIC || h.version !== version) return null;
    const base = align8(8 + headerLength);
    const ctors: Record<string, new (b: ArrayBuffer, o: number, n: number) => Numeric> = { Int32Array, Float32Array, Uint8Array };
    // Copied into one aligned buffer: a Buffer from readFileSync may start at any offset.
    const body = new Uint8Array(buf.length - base);
    body.set(buf.subarray(base));
    const arrays: Record<string, Numeric> = {};
    for (const t of h.table as { name: string; type: string; offset: number; length: number }[]) arrays[t.name] = new ctors[t.type](body.buffer, t.offset, t.length);
    const s: Snapshot = {
      version: h.version, dim: h.dim, files: h.files, idents: h.idents, defNames: h.defNames,
      chunkFile: arrays.chunkFile as Int32Array, start: arrays.start as Int32Array, end: arrays.end as Int32Array,
      chars: arrays.chars as Int32Array, flags: arrays.flags as Uint8Array, vectors: arrays.vectors as Float32Array,
      identPostStart: arrays.identPostStart as Int32Array, postChunk: arrays.postChunk as Int32Array,
      postCount: arrays.postCount as Int32Array, defStart: arrays.defStart as Int32Array,
    };
    const lookup: TermLookup = {
      byLower: uncsr(h.lowerKeys, arrays.byLower as Int32Array, arrays.byLowerStart as Int32Array),
      byStem: uncsr(h.stemKeys, arrays.byStem as Int32Array, arrays.byStemStart as Int32Array),
    };
    termLookup(s, lookup);
    return s;
  } catch {
    return null; // damaged: rebuilt from the store
  }
}

/** Sorted keys and their id lists, flattened (a KeyIndex is a Map when it was just built). */
function csr(m: KeyIndex): { keys: string[]; ids: Int32Array; starts: Int32Array } {
  const keys = [...m.keys()].sort();
  const starts = new Int32Array(keys.length + 1);
  let total = 0;
  keys.forEach((k, i) => { total += m.get(k)!.length; starts[i + 1] = total; });
  const ids = new Int32Array(total);
  keys.forEach((k, i) => ids.set(m.get(k)!, starts[i]));
  return { keys, ids, starts };
}

/** Binary search over the sorted keys: no map to build when a process starts. */
function uncsr(keys: string[], ids: Int32Array, starts: Int32Array): KeyIndex {
  return {
    keys: () => keys,
    get(key) {
      let lo = 0;
      let hi = keys.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const k = keys[mid];
        if (k === key) return ids.subarray(starts[mid], starts[mid + 1]);
        if (k < key) lo = mid + 1; else hi = mid - 1;
      }
      return undefined;
    },
  };
}

function align8(n: number): number {
  return (n + 7) & ~7;
}
