// Which directories an MCP client may name: only the server's root and what lies inside it, judged on
// real paths (symlinks resolved), so `..`, a symlink out of the root and a sibling that merely shares
// the prefix (/project vs /project_evil) are all refused — with one message for every refusal, so an
// answer never tells whether something outside the root exists or where an in-root symlink leads.
import { realpathSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { SimgrepError } from '../errors.js';

export interface Root {
  /** The root's real path (what every answer names). */
  real: string;
  /** The root as given, made absolute: an absolute path under it is lexically inside too. */
  given: string;
}

export function realRoot(root: string): Root {
  const given = path.resolve(root);
  let real: string;
  try { real = realpathSync(given); } catch (e) {
    throw new SimgrepError('PATH_NOT_FOUND', `the MCP root ${root} does not exist: ${(e as Error).message}`);
  }
  // Every tool names a directory inside the root: a file as the root would refuse them all.
  if (!statSync(real).isDirectory()) throw new SimgrepError('BAD_FLAG', `the MCP root ${root} is not a directory; pass the project's directory: simgrep mcp /path/to/project`);
  return { real, given };
}

export function isInside(dir: string, p: string): boolean {
  return p === dir || p.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep);
}

/** The one answer to every directory the server will not use (outside, missing, a file, a link out). */
export function refusal(root: Root, hint = ''): SimgrepError {
  return new SimgrepError('BAD_FLAG', `directory must be an existing directory inside the server's root ${root.real}; pass a path relative to the root${hint}`);
}

/** The real path of `dir` (relative to the root when relative) when it is an existing directory inside the root. */
export function resolveInside(root: Root, dir: string | undefined): string {
  return realInside(root, dir ?? '.', (s) => s.isDirectory(), refusal);
}

/** The one answer to every file the server will not read (outside, missing, a directory, a link out). */
export function fileRefusal(root: Root, hint = ''): SimgrepError {
  return new SimgrepError('BAD_FLAG', `file_path must be an existing file inside the server's root ${root.real}; pass a path relative to the root${hint}`);
}

/** The real path of `file` (relative to the root when relative) when it is an existing file inside the root. */
export function resolveFileInside(root: Root, file: string): string {
  return realInside(root, file, (s) => s.isFile(), fileRefusal);
}

/**
 * The real path of `p` when it lies inside the root, before and after links, and is of the wanted kind; else
 * `refusal`'s error (made only when thrown: an error's stack is captured where it is made, every call).
 */
function realInside(root: Root, p: string, kind: (s: Stats) => boolean, refusal: (root: Root, hint?: string) => SimgrepError): string {
  const real = realOf(root, p, kind);
  if (real !== null) return real;
  const near = nearest(root, p, kind);
  throw refusal(root, near === null ? '' : `: did you mean ${JSON.stringify(near)}?`);
}

/**
 * The path an agent most likely meant by a refused `p`: the same path with `\` read as `/`, or without its first
 * folders (a path relative to the project above the root, `src/flask/ctx.py` for the root's `flask/ctx.py`), when
 * that is of the wanted kind inside the root (agent47). Only paths inside the root are tried, each judged as any
 * argument is, so the hint never tells whether something outside exists or where a link leads.
 */
function nearest(root: Root, p: string, kind: (s: Stats) => boolean): string | null {
  if (p.includes('\0')) return null;
  const parts = p.split(/[\\/]+/).filter((s) => s !== '' && s !== '.' && s !== '..').slice(-32);
  for (let i = p.includes('\\') ? 0 : 1; i < parts.length; i++) {
    const candidate = parts.slice(i).join('/');
    if (realOf(root, candidate, kind) !== null) return candidate;
  }
  return null;
}

/** realInside's answer, or null where it refuses. */
function realOf(root: Root, p: string, kind: (s: Stats) => boolean): string | null {
  if (p.includes('\0')) return null;
  const wanted = path.resolve(root.real, p);
  // A path that is outside on its face is refused before the filesystem is asked anything about it.
  if (!isInside(root.real, wanted) && !isInside(root.given, wanted)) return null;
  let real: string;
  try { real = realpathSync(wanted); } catch { return null; }
  if (!isInside(root.real, real)) return null;
  let ok = false;
  try { ok = kind(statSync(real)); } catch { /* gone since: refused */ }
  return ok ? real : null;
}
