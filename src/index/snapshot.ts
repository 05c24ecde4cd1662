// The index's ranking data in memory: every chunk's vector, length and flags, identifier postings and
// defined names, laid out in flat typed arrays so one query scores every chunk in a few milliseconds.
// Built from the store's rows (chunks grouped by file, in line order); serialisable (snapshot-file.ts).
import { identifierParts, stem } from '../rank/lexical/terms.js';
import { decodeIdentifiers } from './chunk-features.js';

export interface SnapshotFile {
  /** The file's key in the index: its absolute path. */
  key: string;
  size: number;
  mtime: number;
  hash: string;
  kind: 'text' | 'binary';
  lines: number;
  /** Its chunks are [firstChunk, firstChunk + chunkCount). */
  firstChunk: number;
  chunkCount: number;
}

export const HAS_TOKENS = 1;
export const BLANK = 2;

export interface Snapshot {
  /** Store version this was built from. */
  version: string;
  dim: number;
  files: SnapshotFile[];
  chunkFile: Int32Array;
  start: Int32Array;
  end: Int32Array;
  chars: Int32Array;
  flags: Uint8Array;
  /** chunks x dim, unit rows. */
  vectors: Float32Array;
  /** Distinct identifiers (as written), their lower-case form, and their postings (chunk, count). */
  idents: string[];
  identPostStart: Int32Array;
  postChunk: Int32Array;
  postCount: Int32Array;
  /** Defined names per chunk: chunk c owns defNames[defStart[c], defStart[c + 1]). */
  defStart: Int32Array;
  defNames: string[];
}

/** One chunk row as the store returns it. */
export interface ChunkRow {
  path: string;
  start: number;
  end: number;
  vector: Float32Array;
  hasTokens: boolean;
  chars: number;
  blank: boolean;
  idents: string;
  defs: string;
}

export function buildSnapshot(version: string, dim: number, files: Omit<SnapshotFile, 'firstChunk' | 'chunkCount'>[], rows: ChunkRow[]): Snapshot {
  const sortedFiles = [...files].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const fileAt = new Map(sortedFiles.map((f, i) => [f.key, i]));
  const live = rows.filter((r) => fileAt.has(r.path));
  live.sort((a, b) => fileAt.get(a.path)! - fileAt.get(b.path)! || a.start - b.start);
  const n = live.length;
  const out: Snapshot = {
    version, dim,
    files: sortedFiles.map((f) => ({ ...f, firstChunk: 0, chunkCount: 0 })),
    chunkFile: new Int32Array(n), start: new Int32Array(n), end: new Int32Array(n), chars: new Int32Array(n),
    flags: new Uint8Array(n), vectors: new Float32Array(n * dim),
    idents: [], identPostStart: new Int32Array(1), postChunk: new Int32Array(0), postCount: new Int32Array(0),
    defStart: new Int32Array(n + 1), defNames: [],
  };
  const identId = new Map<string, number>();
  const pairs: number[][] = [];
  live.forEach((r, c) => {
    const f = fileAt.get(r.path)!;
    const file = out.files[f];
    if (file.chunkCount === 0) file.firstChunk = c;
    file.chunkCount++;
    out.chunkFile[c] = f;
    out.start[c] = r.start;
    out.end[c] = r.end;
    out.chars[c] = r.chars;
    out.flags[c] = (r.hasTokens ? HAS_TOKENS : 0) | (r.blank ? BLANK : 0);
    out.vectors.set(r.vector, c * dim);
    decodeIdentifiers(r.idents, (ident, count) => {
      let id = identId.get(ident);
      if (id === undefined) { id = pairs.length; identId.set(ident, id); pairs.push([]); }
      pairs[id].push(c, count);
    });
    if (r.defs !== '') out.defNames.push(...r.defs.split(' '));
    out.defStart[c + 1] = out.defNames.length;
  });
  out.idents = [...identId.keys()];
  out.identPostStart = new Int32Array(pairs.length + 1);
  let total = 0;
  pairs.forEach((p, i) => { total += p.length / 2; out.identPostStart[i + 1] = total; });
  out.postChunk = new Int32Array(total);
  out.postCount = new Int32Array(total);
  let at = 0;
  for (const p of pairs) for (let j = 0; j < p.length; j += 2) { out.postChunk[at] = p[j]; out.postCount[at++] = p[j + 1]; }
  return out;
}

/** What changed since a snapshot (see SnapshotPatch in indexer.ts). */
export interface SnapshotChanges {
  dropChunksOf: Set<string>;
  dropFiles: Set<string>;
  files: Omit<SnapshotFile, 'firstChunk' | 'chunkCount'>[];
  rows: ChunkRow[];
}

/**
 * The snapshot after some changes, built from the old one without reading the store: kept files
 * keep their chunks and postings (remapped), changed files take their new rows.
 */
export function patchSnapshot(old: Snapshot, ch: SnapshotChanges, version: string): Snapshot {
  const states = new Map<string, Omit<SnapshotFile, 'firstChunk' | 'chunkCount'>>();
  for (const f of old.files) if (!ch.dropFiles.has(f.key)) states.set(f.key, f);
  for (const f of ch.files) states.set(f.key, f);
  const files = [...states.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const oldAt = new Map(old.files.map((f, i) => [f.key, i]));
  const newRows = new Map<string, ChunkRow[]>();
  for (const r of ch.rows) { const l = newRows.get(r.path); if (l) l.push(r); else newRows.set(r.path, [r]); }
  // Old chunk -> new chunk (-1: dropped); new rows get the slots of their files.
  const remap = new Int32Array(old.start.length).fill(-1);
  const placed: { file: number; from: 'old' | 'new'; oldChunk?: number; row?: ChunkRow }[] = [];
  const outFiles: SnapshotFile[] = files.map((f) => ({ ...f, firstChunk: 0, chunkCount: 0 }));
  outFiles.forEach((f, fi) => {
    f.firstChunk = placed.length;
    const o = oldAt.get(f.key);
    if (!ch.dropChunksOf.has(f.key) && o !== undefined) {
      const of = old.files[o];
      for (let c = of.firstChunk; c < of.firstChunk + of.chunkCount; c++) { remap[c] = placed.length; placed.push({ file: fi, from: 'old', oldChunk: c }); }
    } else {
      for (const r of (newRows.get(f.key) ?? []).sort((a, b) => a.start - b.start)) placed.push({ file: fi, from: 'new', row: r });
    }
    f.chunkCount = placed.length - f.firstChunk;
  });
  const n = placed.length;
  const dim = old.dim;
  const out: Snapshot = {
    version, dim, files: outFiles,
    chunkFile: new Int32Array(n), start: new Int32Array(n), end: new Int32Array(n), chars: new Int32Array(n),
    flags: new Uint8Array(n), vectors: new Float32Array(n * dim),
    idents: [...old.idents], identPostStart: new Int32Array(0), postChunk: new Int32Array(0), postCount: new Int32Array(0),
    defStart: new Int32Array(n + 1), defNames: [],
  };
  const identId = new Map<string, number>();
  const idOf = (ident: string): number => {
    if (identId.size === 0 && out.idents.length > 0) out.idents.forEach((x, i) => identId.set(x, i));
    let id = identId.get(ident);
    if (id === undefined) { id = out.idents.length; out.idents.push(ident); identId.set(ident, id); }
    return id;
  };
  const extra: number[] = []; // (ident, chunk, count) triples of new rows
  placed.forEach((p, c) => {
    out.chunkFile[c] = p.file;
    if (p.from === 'old') {
      const k = p.oldChunk!;
      out.start[c] = old.start[k]; out.end[c] = old.end[k]; out.chars[c] = old.chars[k]; out.flags[c] = old.flags[k];
      out.vectors.set(old.vectors.subarray(k * dim, (k + 1) * dim), c * dim);
      for (let j = old.defStart[k]; j < old.defStart[k + 1]; j++) out.defNames.push(old.defNames[j]);
    } else {
      const r = p.row!;
      out.start[c] = r.start; out.end[c] = r.end; out.chars[c] = r.chars;
      out.flags[c] = (r.hasTokens ? HAS_TOKENS : 0) | (r.blank ? BLANK : 0);
      out.vectors.set(r.vector, c * dim);
      decodeIdentifiers(r.idents, (ident, count) => { extra.push(idOf(ident), c, count); });
      if (r.defs !== '') out.defNames.push(...r.defs.split(' '));
    }
    out.defStart[c + 1] = out.defNames.length;
  });
  // Postings: the old ones remapped (dropped chunks left out), then the new rows'.
  const counts = new Int32Array(out.idents.length + 1);
  for (let id = 0; id < old.idents.length; id++) {
    for (let j = old.identPostStart[id]; j < old.identPostStart[id + 1]; j++) if (remap[old.postChunk[j]] >= 0) counts[id + 1]++;
  }
  for (let j = 0; j < extra.length; j += 3) counts[extra[j] + 1]++;
  for (let i = 1; i < counts.length; i++) counts[i] += counts[i - 1];
  out.identPostStart = counts.slice();
  const fill = counts.slice(0, -1);
  const total = counts[counts.length - 1];
  out.postChunk = new Int32Array(total);
  out.postCount = new Int32Array(total);
  for (let id = 0; id < old.idents.length; id++) {
    for (let j = old.identPostStart[id]; j < old.identPostStart[id + 1]; j++) {
      const c = remap[old.postChunk[j]];
      if (c >= 0) { out.postChunk[fill[id]] = c; out.postCount[fill[id]++] = old.postCount[j]; }
    }
  }
  for (let j = 0; j < extra.length; j += 3) { const id = extra[j]; out.postChunk[fill[id]] = extra[j + 1]; out.postCount[fill[id]++] = extra[j + 2]; }
  // Lookups: the old ones plus the new identifiers'.
  const oldLookup = termLookup(old);
  const fresh = { byLower: new Map<string, number[]>(), byStem: new Map<string, number[]>() };
  for (let id = old.idents.length; id < out.idents.length; id++) {
    const ident = out.idents[id];
    push(fresh.byLower, ident.toLowerCase(), id);
    for (const part of identifierParts(ident)) push(fresh.byStem, stem(part), id);
  }
  termLookup(out, { byLower: joinIndex(oldLookup.byLower, fresh.byLower), byStem: joinIndex(oldLookup.byStem, fresh.byStem) });
  return out;
}

/** Both indexes' ids for a key. */
function joinIndex(a: KeyIndex, b: Map<string, number[]>): KeyIndex {
  if (b.size === 0) return a;
  return {
    get(key) {
      const x = a.get(key);
      const y = b.get(key);
      if (!y) return x;
      return x ? [...Array.from(x), ...y] : y;
    },
    keys: () => new Set([...a.keys(), ...b.keys()]),
  };
}

export function emptySnapshot(dim: number): Snapshot {
  return buildSnapshot('0.0', dim, [], []);
}

/** A key -> identifier ids map (a Map when built, a binary search over sorted keys when read from disk). */
export interface KeyIndex { get(key: string): ArrayLike<number> | undefined; keys(): Iterable<string> }

/** Lookups from query terms to identifiers, built once per snapshot on first use. */
export interface TermLookup {
  /** lower-cased identifier -> identifier ids */
  byLower: KeyIndex;
  /** stem of a part -> identifier ids, once per matching part (an id repeats when two parts match) */
  byStem: KeyIndex;
}

const lookups = new WeakMap<Snapshot, TermLookup>();

/** The snapshot's lookups (built on first use, or given when read from a snapshot file). */
export function termLookup(s: Snapshot, given?: TermLookup): TermLookup {
  if (given) lookups.set(s, given);
  let l = lookups.get(s);
  if (l) return l;
  const byLower = new Map<string, number[]>();
  const byStem = new Map<string, number[]>();
  s.idents.forEach((ident, id) => {
    push(byLower, ident.toLowerCase(), id);
    for (const part of identifierParts(ident)) push(byStem, stem(part), id);
  });
  l = { byLower, byStem };
  lookups.set(s, l);
  return l;
}

function push(m: Map<string, number[]>, key: string, id: number): void {
  const list = m.get(key);
  if (list) list.push(id); else m.set(key, [id]);
}
