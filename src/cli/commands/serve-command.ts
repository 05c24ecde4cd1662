// simgrep serve [-w NAME | --index-dir DIR | PATH...]: keeps a workspace loaded in this process and
// answers the CLI's searches and `simgrep index` runs of it over a Unix socket (see src/server/).
// With PATHs it first indexes them, as `simgrep index PATH...` does. Stops when idle, or on Ctrl-C.
import { SimgrepError } from '../../errors.js';
import { defaultName } from '../../workspace/registry.js';
import { createWorkspace } from '../../library.js';
import { identityOf } from '../../server/identity.js';
import { serve } from '../../server/server.js';
import { socketPathFor } from '../../server/socket-path.js';
import type { EmbedderKind } from '../../types.js';
import type { ParsedFlags } from '../flags.js';
import { namedTarget } from './workspace-target.js';
import { thousands } from '../thousands.js';

/** Default --idle-timeout: a working session's pauses, not a day. */
const IDLE_SECONDS = 30 * 60;

export async function runServeCommand(flags: ParsedFlags, paths: string[]): Promise<number> {
  if (flags.mcp === true) return (await import('./mcp-engine-command.js')).runMcpEngineCommand(flags, paths);
  const target = namedTarget(flags) ?? (paths.length > 0 ? { name: defaultName(paths) } : null);
  if (!target) throw new SimgrepError('BAD_FLAG', 'simgrep serve needs the workspace to serve: PATHs (indexed first), -w NAME or --index-dir DIR');
  const idleSeconds = typeof flags['idle-timeout'] === 'number' ? flags['idle-timeout'] : IDLE_SECONDS;
  if (idleSeconds < 0) throw new SimgrepError('BAD_FLAG', '--idle-timeout needs 0 (never) or a number of seconds');
  const engine = { model: flags.model as string | undefined, embedder: flags.embedder as EmbedderKind | undefined };
  const ws = createWorkspace({
    ...target,
    ...engine,
    resident: true,
    concurrency: flags.concurrency as number | undefined,
    offline: flags.offline === true || undefined,
    remote: { s3Endpoint: flags['s3-endpoint'] as string | undefined, gcsEndpoint: flags['gcs-endpoint'] as string | undefined },
  });
  const say = (m: string) => process.stderr.write(`simgrep serve: ${m}\n`);
  try {
    if (paths.length > 0) {
      const r = await ws.index(paths);
      for (const w of r.warnings) process.stderr.write(`simgrep: ${w.message}\n`);
      say(`workspace ${ws.name}: ${thousands(r.indexed)} files indexed, ${thousands(r.unchanged)} unchanged, ${thousands(r.deleted)} removed`);
    }
    // Loads the model, the snapshot and the code paths of a search before the first client comes.
    const { roots } = await ws.status();
    if (roots.length > 0) await ws.search({ query: 'warm up', paths: roots });
  } catch (e) {
    await ws.close();
    throw e;
  }
  const server = await serve({ workspace: ws, identity: identityOf(engine), socket: socketPathFor(ws.dir), idleMs: idleSeconds * 1000, onEvent: say }).catch(async (e: unknown) => { await ws.close(); throw e; });
  say(`workspace ${ws.name} (${ws.dir}) served by pid ${process.pid} on ${server.socket}`);
  say(`searches and simgrep index runs of it now go through this process; it stops after ${idleSeconds > 0 ? `${idleSeconds} s without a request` : 'Ctrl-C only'} (--idle-timeout), or on Ctrl-C`);
  const stop = () => { void server.stop(); };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await server.stopped;
  return 0;
}
