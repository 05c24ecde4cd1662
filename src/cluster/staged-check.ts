// A staged shard as the coordinator reads it back before merging it into the workspace: the worker that
// wrote it (or whoever can write the index directory) may be hostile or of another build, so its rows
// are used only when they are rows of the files its shard held, with terms that point at its own
// chunks and every field of the shape the merge writes. Anything else fails that shard with the reason,
// as a search answer naming a file its shard did not hold does (result-check.ts): it is never merged.
import type { FileState } from '../workspace/store/store.js';
import type { StagedShard } from './staging.js';

export interface StagedContext {
  /** The shard's entries' index keys. */
  keys: ReadonlySet<string>;
  /** The index's vector dimension (its model's). */
  dim: number;
}

/** Why the staged rows are not the shard's (null: they are). */
export function stagedProblem(s: StagedShard, x: StagedContext): string | null {
  const staged = new Set<string>();
  for (const f of s.files) {
    if (!x.keys.has(f.key)) return `rows for ${shownKey(f.key)}, a file its shard did not hold`;
    if (!isFileState(f)) return `a file state for ${shownKey(f.key)} that is not one an indexer writes`;
    staged.add(f.key);
  }
  const c = s.chunks;
  const n = c.id.length;
  if (n === 0) return null;
  if (s.dim !== x.dim) return `vectors of ${s.dim} dimensions, not the index's ${x.dim}`;
  if ([c.path, c.start, c.end, c.hasTokens, c.hash].some((col) => col.length !== n) || c.vector.length !== n * x.dim) return 'chunk columns of other lengths than its chunks';
  for (let i = 0; i < n; i++) {
    if (!staged.has(c.path[i])) return `a chunk of ${shownKey(c.path[i])}, a file whose rows its shard did not stage`;
    if (!(c.start[i] >= 0 && c.end[i] >= c.start[i])) return `a chunk of ${shownKey(c.path[i])} whose lines run backwards`;
    if (typeof c.id[i] !== 'string' || typeof c.hash[i] !== 'string') return `a chunk of ${shownKey(c.path[i])} without its id or hash`;
  }
  // Every row 0..n-1, one by one: an array with holes (a row staged twice or out of range) has no
  // undefined element for `some` to find, and the merge would stop on it after its commits.
  if (s.features.length !== n) return 'chunks without their features';
  for (let i = 0; i < n; i++) if (!isFeatures(s.features[i])) return 'chunks without their features';
  for (const t of s.terms) {
    if (!Array.isArray(t.keys) || !t.keys.every((k) => typeof k === 'string')) return 'terms whose keys are not a list of words';
    if (t.key.length !== t.row.length || t.key.length !== t.count.length) return 'terms whose columns differ in length';
    for (let i = 0; i < t.key.length; i++) {
      if (!(t.key[i] >= 0 && t.key[i] < t.keys.length) || !(t.row[i] >= 0 && t.row[i] < n)) return 'terms that point outside its own chunks';
      if (!(t.count[i] >= 0)) return 'terms with a negative count';
    }
  }
  return null;
}

const count = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;
/** A size: -1 where the listing gave none (snapshot.ts SnapshotFile); only its sign and finiteness matter to the merge. */
const known = (v: unknown) => Number.isFinite(v) && (v as number) >= -1;

function isFileState(f: FileState): boolean {
  return typeof f.key === 'string' && typeof f.hash === 'string' && (f.kind === 'text' || f.kind === 'binary')
    && known(f.size) && Number.isFinite(f.mtime) && count(f.lines) && count(f.chunks);
}

function isFeatures(f: StagedShard['features'][number] | undefined): boolean {
  return f !== undefined && f !== null && count(f.chars) && typeof f.blank === 'boolean'
    && Array.isArray(f.defs) && f.defs.every((d) => typeof d === 'string');
}

function shownKey(key: string): string {
  const k = String(key);
  return JSON.stringify(k.length > 120 ? `${k.slice(0, 120)}…` : k);
}
