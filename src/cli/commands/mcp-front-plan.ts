// What a `simgrep mcp` front needs to reach its root's resident engine: the engine's options and key,
// its socket and the command that starts it. Computed by the front (mcp-command.ts) and, before the CLI
// loads the rest of itself, by ../mcp-early.ts, which starts the engine that soon: both the same way.
import path from 'node:path';
import { engineSocketPath, thisProgram } from '../../mcp/engine-key.js';
import type { Root } from '../../mcp/scope.js';
import { identityOf } from '../../server/identity.js';
import type { Identity } from '../../server/protocol.js';
import type { EmbedderKind } from '../../types.js';
import type { ParsedFlags } from '../flags.js';

export interface EngineOptions { model?: string; concurrency?: number; embedder?: EmbedderKind; offline?: true }

export interface FrontPlan {
  options: EngineOptions;
  identity: Identity;
  socket: string;
  /** [executable, ...args] of `simgrep serve --mcp ROOT ...`. */
  engineCommand: string[];
}

export function engineOptions(flags: ParsedFlags): EngineOptions {
  return {
    model: flags.model as string | undefined,
    concurrency: flags.concurrency as number | undefined,
    embedder: flags.embedder as EmbedderKind | undefined,
    offline: flags.offline === true || undefined,
  };
}

/** The front's plan for `root`; makes a relative home or cache directory in the environment absolute. */
export function mcpFrontPlan(flags: ParsedFlags, root: Root): FrontPlan {
  // The engine runs in the root: a relative home or cache directory is made absolute here, where it was meant.
  for (const v of ['SIMGREP_HOME', 'SIMGREP_CACHE_DIR', 'XDG_DATA_HOME', 'XDG_CACHE_HOME', 'HF_HOME']) {
    const given = process.env[v];
    if (given && !path.isAbsolute(given)) process.env[v] = path.resolve(given);
  }
  const options = engineOptions(flags);
  const identity = identityOf(options);
  const program = thisProgram();
  return {
    options,
    identity,
    socket: engineSocketPath({ root: root.real, identity, concurrency: options.concurrency, offline: options.offline, program }),
    // Node's own flags carry over (memory limits, loaders), not a debugger's port the front holds.
    engineCommand: [process.execPath, ...process.execArgv.filter((a) => !a.startsWith('--inspect')), process.argv[1], 'serve', '--mcp', root.real, ...engineFlags(flags, identity.model)],
  };
}

/** The flags the engine must share with its fronts (they are part of its socket's name too). */
function engineFlags(flags: ParsedFlags, model: string): string[] {
  const out: string[] = [];
  // The spec as resolved here (a local directory by its real path): the engine runs in the root.
  if (typeof flags.model === 'string') out.push('--model', model);
  if (typeof flags.embedder === 'string') out.push('--embedder', flags.embedder);
  if (typeof flags.concurrency === 'number') out.push('-J', String(flags.concurrency));
  if (flags.offline === true) out.push('--offline');
  if (typeof flags['idle-timeout'] === 'number') out.push('--idle-timeout', String(flags['idle-timeout']));
  return out;
}
