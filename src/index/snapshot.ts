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

/** A key -> identifier ids map (a Map when built, a binary search over sorted keys when read from disk). */
export interface KeyIndex { get(key: string): ArrayLike<number> | undefined }

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
