// Which directories an MCP client may search: only the server's root and what lies inside it, judged
// on real paths (symlinks resolved), so `..`, a symlink out of the root and a sibling that merely
// shares the prefix (/project vs /project_evil) are all refused.
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { SimgrepError } from '../errors.js';

export function realRoot(root: string): string {
  try { return realpathSync(root); } catch (e) {
    throw new SimgrepError('PATH_NOT_FOUND', `the MCP root ${root} does not exist: ${(e as Error).message}`);
  }
}

/** The real path of `dir` (relative to the root when relative) when it is the root or inside it. */
export function resolveInside(root: string, dir: string | undefined): string {
  if (dir !== undefined && dir.includes('\0')) throw new SimgrepError('BAD_FLAG', 'directory must not contain NUL bytes');
  const wanted = path.resolve(root, dir ?? '.');
  let real: string;
  try { real = realpathSync(wanted); } catch {
    throw new SimgrepError('PATH_NOT_FOUND', `directory ${dir} does not exist`);
  }
  if (real !== root && !real.startsWith(root.endsWith(path.sep) ? root : root + path.sep)) {
    throw new SimgrepError('BAD_FLAG', `directory ${dir} is outside the server's root ${root}; pass a directory inside it`);
  }
  if (!statSync(real).isDirectory()) throw new SimgrepError('BAD_FLAG', `${dir} is not a directory`);
  return real;
}
