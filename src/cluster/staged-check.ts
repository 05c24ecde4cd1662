// A staged shard as the coordinator reads it back before merging it into the workspace: the worker that
// wrote it (or whoever can write the index directory) may be hostile or of another build, so its rows
// are used only when they are rows of the files its shard held, with terms that point at its own
// chunks. Anything else fails that shard with the reason, as a search answer
// naming a file its shard did not hold does (result-check.ts): it is never merged.
import type { StagedShard } from './staging.js';

/** Why the staged rows are not the shard's (null: they are). `keys`: the shard's entries' index keys. */
export function stagedProblem(s: StagedShard, keys: ReadonlySet<string>): string | null {
  const staged = new Set<string>();
  for (const f of s.files) {
    if (!keys.has(f.key)) return `rows for ${shownKey(f.key)}, a file its shard did not hold`;
    staged.add(f.key);
  }
  const c = s.chunks;
  const n = c.id.length;
  if (n === 0) return null;
  for (let i = 0; i < n; i++) {
    if (!staged.has(c.path[i])) return `a chunk of ${shownKey(c.path[i])}, a file whose rows its shard did not stage`;
    if (!(c.start[i] >= 0 && c.end[i] >= c.start[i])) return `a chunk of ${shownKey(c.path[i])} whose lines run backwards`;
  }
  if (s.features.length !== n || s.features.some((f) => f === undefined)) return 'chunks without their features';
  for (const t of s.terms) {
    if (t.key.length !== t.row.length || t.key.length !== t.count.length) return 'terms whose columns differ in length';
    for (let i = 0; i < t.key.length; i++) {
      if (!(t.key[i] >= 0 && t.key[i] < t.keys.length) || !(t.row[i] >= 0 && t.row[i] < n)) return 'terms that point outside its own chunks';
    }
  }
  return null;
}

function shownKey(key: string): string {
  return JSON.stringify(key.length > 120 ? `${key.slice(0, 120)}…` : key);
}
