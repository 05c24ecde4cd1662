// A search's name filters (extensions, types left out, globs) applied to a walk of its roots after the
// walk: one walk of a tree (cached, watched) serves every filter, and what is kept is exactly what a
// scan's walk with those filters finds, warnings included.
import { nameFilterOf, type NameFilter, type WalkFilters } from '../../sources/filters.js';
import type { Walk } from '../changes/walk-cache.js';

/** The part of a walk's display path below the root it was found under (as the walk joins them), or null. */
function relativeTo(roots: readonly string[], shown: string): string | null {
  for (const r of roots) {
    const prefix = r === '' ? '' : r.endsWith('/') ? r : `${r}/`;
    if (shown.startsWith(prefix) && shown.length > prefix.length) return shown.slice(prefix.length);
  }
  return null;
}

/** Whether the filters narrow anything. */
export function narrowsByName(f: Pick<WalkFilters, 'extensions' | 'typesNot' | 'globs'>): boolean {
  return (f.extensions?.length ?? 0) > 0 || (f.typesNot?.length ?? 0) > 0 || (f.globs?.length ?? 0) > 0;
}

/**
 * The walk's files the filters keep (a file named as a root is always kept, as by a scan), and its
 * warnings but those a scan would not give: a file too large that the filters leave out, a directory
 * they keep the walk out of.
 */
export function filterWalk(walk: Walk, roots: readonly string[], f: Pick<WalkFilters, 'extensions' | 'typesNot' | 'globs'>): Walk {
  if (!narrowsByName(f)) return walk;
  const names: NameFilter = nameFilterOf(f);
  const entries: Walk['entries'] = [];
  const keys: string[] = [];
  walk.entries.forEach((e, i) => {
    const rel = e.named ? null : relativeTo(roots, e.path);
    if (rel !== null && !names.listed(rel)) return;
    entries.push(e);
    keys.push(walk.keys[i]);
  });
  const warnings = walk.warnings.filter((w) => {
    const rel = relativeTo(roots, w.path);
    if (rel === null) return true;
    return w.code === 'TOO_LARGE' ? names.listed(rel) : names.enters(rel);
  });
  return { entries, keys, warnings };
}
