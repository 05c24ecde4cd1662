// Where a path the user gave really is, and the key a workspace's index gives each file a walk of it
// finds: the real path of the root it was walked from (symbolic links in the root's own path resolved,
// once per root) joined with the rest of its path as walked. A tree reached through a symlink is so
// indexed once, under its real path, whichever name a search or an index run gives it, while answers
// keep the names the user typed (the walk's display paths). A link met inside the walk keeps its own
// name, as a scan lists it: a realpath per file would merge two names a scan shows apart, and cost a
// system call per file walked.
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { isGlob } from './fs.js';
import { isRemoteUri } from './uri.js';

/** A '.' or '..' part, an empty one, or a trailing '/': a path path.resolve would change. */
const NOT_NORMAL = /(?:^|\/)\.\.?(?:\/|$)|\/\/|\/$/;

/** A file's key from its path as walked (a URI is its own key). */
export type FileKeyOf = (p: string) => string;

/**
 * The real absolute path of a local path (a glob's: its base directory's real path and the pattern; its
 * absolute path when it does not exist); a URI without trailing slashes.
 */
export function realPath(p: string): string {
  if (isRemoteUri(p)) return p.replace(/(?<!\/)\/+$/, '');
  const moved = realBase(p);
  return moved ? moved.real + path.resolve(p).slice(moved.from.length) : path.resolve(p);
}

/**
 * The keys of the files a walk of `roots` (as given) finds: each file's absolute path with the part that
 * names its root replaced by the root's real path. One realpath per local root, none per file; a walk of
 * roots without symbolic links in their paths keys files by their absolute paths, as it lists them.
 */
export function fileKeys(roots: readonly string[]): FileKeyOf {
  const bases = roots.flatMap((r) => (isRemoteUri(r) ? [] : [{ given: r, moved: realBase(r) }]));
  const moved = bases.map((b) => b.moved).filter((m): m is Moved => m !== null && m.real !== m.from).sort((a, b) => b.from.length - a.from.length);
  const under = moved.map((m) => (m.from.endsWith(path.sep) ? m.from : m.from + path.sep));
  // A path the walk of a directory root listed is the root as given, '/', and names read from directories
  // (no '.', '..' or empty part): its key is the root's real path and that rest, with no path.resolve
  // (for a relative path, a cwd call: ~1 us a file). The deepest root first; any other path is resolved.
  const listed = path.sep !== '/' ? [] : bases.flatMap(({ given, moved: m }) => (m === null || isGlob(given) ? [] : [{ prefix: given.endsWith('/') ? given : `${given}/`, base: m.real.endsWith('/') ? m.real : `${m.real}/` }]))
    .sort((a, b) => b.prefix.length - a.prefix.length);
  const resolved = (p: string): string => {
    if (isRemoteUri(p)) return p;
    const abs = path.resolve(p);
    for (let i = 0; i < moved.length; i++) {
      if (abs === moved[i].from || abs.startsWith(under[i])) return moved[i].real + abs.slice(moved[i].from.length);
    }
    return abs;
  };
  // A root as given (a file root above all: a link to a file is keyed by its target, as realPath says) is
  // keyed the same however another root spells its directory: matched before the directories' prefixes.
  const exact = new Map<string, string>();
  for (const { given, moved: m } of bases) if (m !== null && !isGlob(given)) { exact.set(given, m.real); exact.set(m.from, m.real); }
  if (listed.length === 0) return exact.size === 0 ? resolved : (p) => exact.get(p) ?? resolved(p);
  return (p) => {
    const e = exact.get(p);
    if (e !== undefined) return e;
    for (const l of listed) {
      if (!p.startsWith(l.prefix) || p.length === l.prefix.length) continue;
      const rest = p.slice(l.prefix.length);
      if (!NOT_NORMAL.test(rest)) return l.base + rest;
    }
    return resolved(p);
  };
}

/** A local root's absolute path (a glob's base directory) and its real path; null when it does not exist. */
interface Moved { from: string; real: string }

function realBase(p: string): Moved | null {
  const abs = path.resolve(p);
  try { return { from: abs, real: realpathSync(abs) }; } catch { /* a glob, or missing */ }
  if (!isGlob(p)) return null;
  // The directories before the first part with a pattern in it, as the walk expands a quoted glob from.
  const parts = abs.split(path.sep);
  const first = parts.findIndex((s) => isGlob(s));
  const from = parts.slice(0, first).join(path.sep) || path.sep;
  try { return { from, real: realpathSync(from) }; } catch { return null; }
}
