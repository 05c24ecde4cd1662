// Which workspace a command means: --index-dir, -w/--workspace or $SIMGREP_WORKSPACE, else (for a
// search) a named workspace whose roots cover every path, or (for workspace status/prune and a bare
// simgrep index) the workspace of the current directory.
import { existsSync } from 'node:fs';
import { SimgrepError } from '../../errors.js';
import { findCovering, workspaceDir, workspaceOfDirectory } from '../../workspace/registry.js';
import { isRemoteUri } from '../../sources/uri.js';
import type { ParsedFlags } from '../flags.js';

export type WorkspaceTarget = { name: string; dir?: undefined } | { dir: string; name?: undefined };

export function namedTarget(flags: ParsedFlags, env: NodeJS.ProcessEnv = process.env): WorkspaceTarget | null {
  if (typeof flags['index-dir'] === 'string') return { dir: flags['index-dir'] };
  const name = typeof flags.workspace === 'string' ? flags.workspace : env.SIMGREP_WORKSPACE || undefined;
  return name ? { name } : null;
}

/** The directory (or URI) of a target's index. */
export function targetDir(target: WorkspaceTarget, env: NodeJS.ProcessEnv = process.env): string {
  return target.dir ?? workspaceDir(target.name, env);
}

/** The workspace a search should use, or null for a one-shot scan. */
export function searchTarget(flags: ParsedFlags, paths: string[], env: NodeJS.ProcessEnv = process.env): WorkspaceTarget | null {
  if (flags.index === false || paths.length === 0) return null;
  const named = namedTarget(flags, env);
  if (named?.name !== undefined && !existsSync(workspaceDir(named.name, env))) {
    throw new SimgrepError('WORKSPACE_NOT_FOUND', `workspace ${named.name} does not exist; create it with simgrep index PATH... -w ${named.name}, or search without it (--no-index)`);
  }
  if (named?.dir !== undefined && !isRemoteUri(named.dir) && !existsSync(named.dir)) {
    throw new SimgrepError('WORKSPACE_NOT_FOUND', `no index at ${named.dir}; build it with simgrep index PATH... --index-dir ${named.dir}`);
  }
  if (named) return named;
  const found = findCovering(paths, env);
  return found && { name: found.name };
}

/** The workspace of the current directory (see workspaceOfDirectory); `usage` says how to name one when there is none. */
export function directoryTarget(usage: string, env: NodeJS.ProcessEnv = process.env): WorkspaceTarget {
  let cwd: string;
  try { cwd = process.cwd(); } catch { throw new SimgrepError('BAD_FLAG', `${usage}; the current directory no longer exists`); }
  const found = workspaceOfDirectory(cwd, env);
  if (found && 'name' in found) return { name: found.name };
  const why = found ? `workspaces ${found.ambiguous.join(', ')} all index ${cwd} or paths under it` : `no workspace indexes ${cwd} or anything under it`;
  throw new SimgrepError('BAD_FLAG', `${usage}; ${why} (simgrep workspace list shows them)`);
}
