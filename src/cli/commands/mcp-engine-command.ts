// simgrep serve --mcp ROOT: the resident engine of `simgrep mcp` for ROOT (src/mcp/engine.ts). The
// fronts start it on demand, detached, with their own flags; it listens at once and loads the model and its
// worker threads meanwhile and stops when idle (--idle-timeout, default 15 min) or 30 s after its last front
// went away. Its notes go to stderr (a log file beside the socket when a front started it).
import { createActionEngine } from '../../actions/engine.js';
import { SimgrepError } from '../../errors.js';
import { engineSocketPath, thisProgram } from '../../mcp/engine-key.js';
import { serveEngine } from '../../mcp/engine.js';
import { realRoot } from '../../mcp/scope.js';
import { createToolRunner } from '../../mcp/tools.js';
import { identityOf } from '../../server/identity.js';
import type { EmbedderKind } from '../../types.js';
import type { ParsedFlags } from '../flags.js';
import { simgrepVersion } from '../../version.js';

/** Default --idle-timeout of the engine: an agent's pauses while its user reads, not a whole day. */
export const ENGINE_IDLE_SECONDS = 15 * 60;
/** How long an engine with no front left waits for one (an agent restarting its MCP servers). */
export const ENGINE_ORPHAN_SECONDS = 30;

export async function runMcpEngineCommand(flags: ParsedFlags, args: string[]): Promise<number> {
  if (args.length !== 1) throw new SimgrepError('BAD_FLAG', 'usage: simgrep serve --mcp ROOT (the root directory of the simgrep mcp fronts it serves)');
  const idleSeconds = typeof flags['idle-timeout'] === 'number' ? flags['idle-timeout'] : ENGINE_IDLE_SECONDS;
  if (idleSeconds < 0) throw new SimgrepError('BAD_FLAG', '--idle-timeout needs 0 (never) or a number of seconds');
  const root = realRoot(args[0]);
  const options = {
    model: flags.model as string | undefined,
    concurrency: flags.concurrency as number | undefined,
    embedder: flags.embedder as EmbedderKind | undefined,
    offline: flags.offline === true || undefined,
  };
  const identity = identityOf(options);
  const engine = createActionEngine({ ...options, resident: true });
  const say = (m: string) => process.stderr.write(`simgrep serve --mcp: ${m}\n`);
  const runner = createToolRunner(engine, root, { model: options.model, onRedacted: (m) => say(`a failure told to the client without its paths outside the root: ${m}`) });
  const running = await serveEngine({
    runner,
    root: root.real,
    identity,
    socket: engineSocketPath({ root: root.real, identity, concurrency: options.concurrency, offline: options.offline, program: thisProgram() }),
    version: simgrepVersion(),
    idleMs: idleSeconds * 1000,
    orphanMs: Math.min(ENGINE_ORPHAN_SECONDS, idleSeconds > 0 ? idleSeconds : Infinity) * 1000,
    onEvent: say,
    // The made-up searches end before the engine closes (mcp/warm-searches.ts).
    onStop: async () => { await runner.close?.(); await engine.close(); },
  }).catch(async (e: unknown) => { await runner.close?.(); await engine.close(); throw e; });
  // A front starts the engine when its agent connects: the agent's first search comes soon after, so the
  // model and the worker threads load now, while the agent thinks, not inside that search.
  void engine.searcher.warm();
  // An index built earlier (yesterday's) is warmed too: made-up searches run over it now, so the agent's first
  // searches do not run cold code (mcp/warm-searches.ts; its calls wait for them at most WARM_HOLD_MS).
  void runner.warmUp?.().then((w) => { if (w) say(`made-up searches over the index of workspace ${w.workspace}: ${w.ran} ran`); });
  say(`root ${root.real} served by pid ${process.pid} on ${running.socket}; stops after ${idleSeconds > 0 ? `${idleSeconds} s without a request` : 'Ctrl-C only'} or ${ENGINE_ORPHAN_SECONDS} s after its last front exits`);
  const stop = () => { void running.stop(); };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await running.stopped;
  return 0;
}
