// Where workspaces live and which one answers a search: named workspaces under
// $SIMGREP_HOME/workspaces (default: $XDG_DATA_HOME/simgrep, else ~/.local/share/simgrep), any
// directory or s3:// prefix given as --index-dir, and, without a name, one per set of root paths
// (named after the first root's real path, as semble keys its index by the directory).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { SimgrepError } from '../errors.js';
import { realPath } from '../sources/real-paths.js';
import { isRemoteUri } from '../sources/uri.js';
import { readRuleFile } from '../sources/rule-file.js';

/** What a local workspace directory says about itself (workspace.json). */
export interface WorkspaceInfo {
  name: string;
  /** Real absolute paths the workspace indexes. */
  roots: string[];
  model: string;
  updated: string;
  /** A copy of the index's meta as of its last completed write (format, model fingerprint, version). */
  meta?: Record<string, string>;
}

export const INFO_FILE = 'workspace.json';
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export function simgrepHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SIMGREP_HOME) return env.SIMGREP_HOME;
  const data = env.XDG_DATA_HOME || path.join(homedir(), '.local', 'share');
  return path.join(data, 'simgrep');
}

export function workspacesDir(env?: NodeJS.ProcessEnv): string {
  return path.join(simgrepHome(env), 'workspaces');
}

export function checkName(name: string): string {
  if (!NAME.test(name)) {
    throw new SimgrepError('BAD_FLAG', `workspace name "${name}" is not allowed; use letters, digits, '.', '_' and '-' (up to 128, starting with a letter or digit)`);
  }
  return name;
}

export function workspaceDir(name: string, env?: NodeJS.ProcessEnv): string {
  return path.join(workspacesDir(env), checkName(name));
}

/** The default workspace name for a set of roots: the first root's base name and a hash of all. */
export function defaultName(roots: string[]): string {
  const real = roots.map(realPath).sort();
  const base = path.basename(real[0] ?? 'workspace').replace(/[^A-Za-z0-9._-]/g, '_').replace(/^[^A-Za-z0-9]+/, '') || 'workspace';
  return `${base.slice(0, 100)}-${createHash('sha1').update(real.join('\0')).digest('hex').slice(0, 8)}`;
}

export function readInfo(dir: string): WorkspaceInfo | null {
  if (isRemoteUri(dir)) return null;
  // Only a regular file, read without blocking and bounded: a FIFO planted at this name hung every command that
  // looked at the workspaces (workspace list, a search finding its workspace), and /dev/zero filled memory.
  const read = readRuleFile(path.join(dir, INFO_FILE));
  if (!read.ok) return null;
  try { return JSON.parse(read.text) as WorkspaceInfo; } catch { return null; }
}

/** Every named workspace under $SIMGREP_HOME, with its info (null when unreadable). */
export function listWorkspaces(env?: NodeJS.ProcessEnv): { name: string; dir: string; info: WorkspaceInfo | null }[] {
  const root = workspacesDir(env);
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => ({ name: d.name, dir: path.join(root, d.name), info: readInfo(path.join(root, d.name)) }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** True when every root is a local path inside `dir` (a real path), judged on the roots' real paths now. */
export function rootsInside(roots: string[], dir: string): boolean {
  return roots.every((r) => !isRemoteUri(r) && covers([dir], [r]));
}

/** True when every path lies inside one of the roots. */
export function covers(roots: string[], paths: string[]): boolean {
  return paths.every((p) => {
    const real = realPath(p);
    const sep = isRemoteUri(p) ? '/' : path.sep;
    return roots.some((r) => under(real, r, sep));
  });
}

/** Which workspaces may answer: with `rootsWithin`, only those whose every root lies inside that real path. */
export interface CoveringFilter { rootsWithin?: string }

/** The named workspace whose roots cover every path (the one whose covering roots are the deepest wins). */
export function findCovering(paths: string[], env?: NodeJS.ProcessEnv, filter: CoveringFilter = {}): { name: string; dir: string } | null {
  return coveringAll(paths, env, filter)[0] ?? null;
}

/** Every named workspace whose roots cover every path, the deepest first (a tie keeps name order). */
function coveringAll(paths: string[], env?: NodeJS.ProcessEnv, filter: CoveringFilter = {}): { name: string; dir: string; depth: number }[] {
  if (paths.length === 0) return [];
  // Each path's and each root's real path once per call (an MCP call's lookup asked each path three times a workspace).
  const reals = paths.map((p) => ({ real: realPath(p), sep: isRemoteUri(p) ? '/' : path.sep }));
  const realOf = new Map<string, string>();
  const realRoot = (r: string) => { let x = realOf.get(r); if (x === undefined) realOf.set(r, x = realPath(r)); return x; };
  const within = filter.rootsWithin;
  const found: { name: string; dir: string; depth: number }[] = [];
  for (const w of listWorkspaces(env)) {
    const roots = w.info?.roots;
    if (!roots || !reals.every((p) => roots.some((r) => under(p.real, r, p.sep)))) continue;
    if (within !== undefined && !roots.every((r) => !isRemoteUri(r) && under(realRoot(r), within, path.sep))) continue;
    // How near its roots are: the shortest, over the paths, of the longest root that covers each.
    const depth = Math.min(...reals.map((p) => Math.max(...roots.filter((r) => under(p.real, r, p.sep)).map((r) => r.length))));
    found.push({ name: w.name, dir: w.dir, depth });
  }
  return found.sort((a, b) => b.depth - a.depth);
}

/** Whether the real path `real` is `root` or lies under it (covers' rule). */
function under(real: string, root: string, sep: string): boolean {
  return real === root || real.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * The workspace a command run in `dir` without a name means: the one whose roots cover `dir` most
 * nearly, else the one workspace whose roots all lie inside `dir`. Ambiguous when two cover it
 * equally nearly, or when none covers it and several lie inside it (the caller asks for a name).
 */
export function workspaceOfDirectory(dir: string, env?: NodeJS.ProcessEnv): { name: string; dir: string } | { ambiguous: string[] } | null {
  const covering = coveringAll([dir], env);
  if (covering.length > 0) {
    const nearest = covering.filter((w) => w.depth === covering[0].depth);
    return nearest.length === 1 ? { name: nearest[0].name, dir: nearest[0].dir } : { ambiguous: nearest.map((w) => w.name) };
  }
  const inside = listWorkspaces(env).filter((w) => w.info && w.info.roots.length > 0 && w.info.roots.every((r) => covers([realPath(dir)], [r])));
  if (inside.length === 1) return { name: inside[0].name, dir: inside[0].dir };
  return inside.length > 1 ? { ambiguous: inside.map((w) => w.name) } : null;
}
