// `simgrep mcp`'s engine started before the CLI loads the rest of itself. An agent's client spawns the
// front and sends `initialize` at once; the front used to start its root's resident engine only once
// the CLI's module graph and the mcp command's were loaded and that first message read (~0.1-0.3 s
// after the spawn, branch first34). main.ts calls startEngineEarly first: from the arguments and the
// environment alone (the same parse and plan the command makes) it starts the engine when its socket
// is absent, and the front then waits on that start instead of beginning its own. Everything else is
// left to the command as before: an engine already listening, a socket that cannot be trusted (the
// front says why), --no-server, --print-config, bad arguments (their errors), other commands.
import { startEngine } from '../mcp/engine-start.js';
import { realRoot } from '../mcp/scope.js';
import { socketTrust } from '../server/socket-trust.js';
import { mcpFrontPlan } from './commands/mcp-front-plan.js';
import { commandName, parseArgs } from './flags.js';
import { personalityOf } from './semtools.js';

/** How long the front waits for its engine to listen (front.ts's default). */
const WAIT_MS = 20_000;

let early: { socket: string; start: Promise<string | null> } | null = null;

/** Starts the engine of `simgrep mcp [ROOT]` (argv without node and the script) when none is there. */
export function startEngineEarly(argv: string[]): void {
  try {
    if (personalityOf(process.argv[1]) || argv[0] === 'search' || argv[0] === 'run') return;
    const { flags, positionals } = parseArgs(argv);
    // cli.ts's rule: a first positional after `--` is a query, not a command.
    if (flags.help || flags.version || commandName(argv, positionals) !== 'mcp') return;
    const args = positionals.slice(1);
    if (flags['print-config'] === true || args.length > 1 || flags.server === false) return;
    const root = realRoot(args[0] ?? process.cwd());
    const plan = mcpFrontPlan(flags, root);
    if (socketTrust(plan.socket).kind !== 'absent') return;
    early = { socket: plan.socket, start: startEngine({ socket: plan.socket, command: plan.engineCommand, cwd: root.real, waitMs: WAIT_MS })
      // Handled now, not once the command loads: a throw (the log cannot be opened, spawn fails) is a reason, and the front starts again.
      .catch((e: Error) => e.message) };
  } catch {
    // The command parses and plans again and reports what went wrong, as it always did.
  }
}

/** The early start for `socket`, once (undefined if none began, or it was for another socket). */
export function takeEarlyStart(socket: string): Promise<string | null> | undefined {
  const e = early;
  early = null;
  return e && e.socket === socket ? e.start : undefined;
}
