// Which resident engine a `simgrep mcp` front talks to: one per user, root and everything that could
// change an answer (simgrep's version and the program file it runs, the model, the embedder, -J,
// --offline, where workspaces and caches live), named by a hash of them in the per-user socket directory (mode 700, socket-trust.ts).
// Fronts with the same key share one engine; a front with another key gets its own.
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { Identity } from '../server/protocol.js';
import { socketDir } from '../server/socket-path.js';
import { simgrepHome } from '../workspace/registry.js';

export interface EngineKey {
  /** The root's real path. */
  root: string;
  identity: Identity;
  concurrency?: number;
  offline?: boolean;
  /**
   * The real path of the simgrep program the engine runs: two installs of one version (a global one, a
   * clone being worked on) may hold different code, so each gets its own engine.
   */
  program?: string;
}

/** The real path of the simgrep program this process runs (its CLI script). */
export function thisProgram(): string {
  const p = process.argv[1] ?? '';
  try { return realpathSync(p); } catch { return path.resolve(p); }
}

/** The engine's socket (on Windows, a named pipe). */
export function engineSocketPath(k: EngineKey, env: NodeJS.ProcessEnv = process.env): string {
  const at = (p: string | undefined) => (p ? path.resolve(p) : null);
  const parts = [k.root, k.identity, k.concurrency ?? null, k.offline === true, at(simgrepHome(env)), at(env.SIMGREP_CACHE_DIR), at(env.XDG_CACHE_HOME), at(env.HF_HOME), k.program ?? null];
  const id = createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 20);
  if (process.platform === 'win32') return `\\\\.\\pipe\\simgrep-mcp-${id}`;
  return path.join(socketDir(env), `mcp-${id}.sock`);
}
