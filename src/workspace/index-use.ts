// Whether a workspace's index can answer a search of some paths for this model, and whether it answers one
// beside an index run of this process: the one rule that searches (search-run.ts), the resident server's
// searches during an index run (server/server.ts) and `simgrep serve PATH`'s start message share.
import type { Compatibility } from './open.js';
import { covers } from './registry.js';

/** Why an index cannot answer a search: none yet, another model or simgrep, roots that do not cover its paths. */
export type IndexUnusable = { ok: false; reason: 'empty' | 'incompatible' | 'roots'; why: string };

/** An index that answers a search of the paths (its meta, roots, and whether a run of it completed), or why not. */
export type IndexUse = { ok: true; m: Record<string, string>; roots: string[]; complete: boolean } | IndexUnusable;

/** What the index (its compatibility with the model, `c`) is to a search of `paths`. */
export function indexUse(c: Compatibility, paths: string[]): IndexUse {
  if (!c.ok) return { ok: false, reason: 'incompatible', why: c.why ?? 'it cannot be used with this model' };
  if (!c.m) return { ok: false, reason: 'empty', why: 'it is empty' };
  const roots = JSON.parse(c.m.roots ?? '[]') as string[];
  if (!covers(roots, paths)) return { ok: false, reason: 'roots', why: `it indexes ${roots.join(', ')}, not all of ${paths.join(', ')}` };
  return { ok: true, m: c.m, roots, complete: c.m.complete !== undefined };
}

/**
 * Whether a search answers from the index beside an index run of this process (which holds or waits for the lock): an index
 * that answers it (indexUse) and that a run completed, in a local directory (the in-process lock tells the
 * search not to save what changed; it reads that for its own answer, the answer a scan gives). Else the files
 * are read for it: a first build's files are all unsaved (reading them beside it doubled its work), and an
 * index of another model or of other roots would give another answer than a scan, or none.
 */
export function answersBesideIndexRun(use: IndexUse, o: { local: boolean }): boolean {
  return use.ok && use.complete && o.local;
}
