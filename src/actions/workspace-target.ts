// Which workspace an action's parameters name: TEA story TEA-BUILTIN-014.3's `path` (to create) and
// `workspace` (a name, or the path workspace_create returned), and simgrep's `name` and `dir`.
import { homedir } from 'node:os';
import path from 'node:path';
import { SimgrepError } from '../errors.js';
import { isRemoteUri } from '../sources/uri.js';
import { checkName, defaultName } from '../workspace/registry.js';
import type { Workspace } from '../workspace/workspace.js';
import type { ActionEngine } from './engine.js';
import { str, type Params } from './params.js';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** `~/x` as the shell would expand it (TEA's examples write workspace paths so). */
function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') ? path.join(homedir(), p.slice(1)) : p;
}

/**
 * The workspace the parameters name: `path` or `dir` (a directory or URI), `workspace` (a name, or the
 * path workspace_create returned), `name`; else (with paths) the paths' default name.
 */
export function target(engine: ActionEngine, p: Params, paths?: string[]): Workspace {
  const given = (['path', 'dir', 'workspace', 'name'] as const).filter((k) => str(p, k) !== undefined);
  if (given.length > 1) throw new SimgrepError('BAD_FLAG', `parameters ${given.join(' and ')} both name a workspace; pass one of them`);
  const dir = str(p, 'path') ?? str(p, 'dir');
  if (dir !== undefined) return engine.workspace({ dir: expandHome(dir) });
  const ws = str(p, 'workspace');
  if (ws !== undefined) return NAME.test(ws) && !isRemoteUri(ws) ? engine.workspace({ name: ws }) : engine.workspace({ dir: expandHome(ws) });
  const name = str(p, 'name');
  if (name !== undefined) return engine.workspace({ name: checkName(name) });
  if (paths && paths.length > 0) return engine.workspace({ name: defaultName(paths) });
  throw new SimgrepError('BAD_FLAG', 'parameter workspace is required (a workspace name, or the path search.workspace_create was given)');
}

/** What to pass on as `workspace` to the other actions: the name, or the directory it was opened by. */
export function handle(ws: Workspace, p: Params): string {
  const byDir = str(p, 'path') ?? str(p, 'dir') ?? (str(p, 'workspace') !== undefined && !NAME.test(str(p, 'workspace')!) ? str(p, 'workspace') : undefined);
  return byDir !== undefined ? expandHome(byDir) : ws.name;
}
