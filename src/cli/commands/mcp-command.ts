// simgrep mcp [ROOT]: an MCP server on stdio (stdout carries only the protocol; notes go to stderr).
// Searches are confined to ROOT (default: the working directory). By default this process is a thin
// front (src/mcp/front.ts) piping the session to the resident engine for ROOT (`simgrep serve --mcp
// ROOT`, started on demand and shared by every front of the same root), and answers in process only
// when the engine cannot be reached; with --no-server it is the whole server, as before. A message
// over the 10 MiB cap is answered with an error and noted on stderr; the server keeps serving.
import { SimgrepError } from '../../errors.js';
import { runFront, type Upstream } from '../../mcp/front.js';
import { realRoot, type Root } from '../../mcp/scope.js';
import type { ToolRunner } from '../../mcp/tools.js';
import type { ParsedFlags } from '../flags.js';
import { takeEarlyStart } from '../mcp-early.js';
import { engineOptions, mcpFrontPlan, type EngineOptions } from './mcp-front-plan.js';
import { simgrepVersion } from '../../version.js';

export async function runMcpCommand(flags: ParsedFlags, args: string[]): Promise<number> {
  if (flags['print-config'] === true) return (await import('./mcp-print-config.js')).runPrintConfig(flags, args);
  if (args.length > 1) throw new SimgrepError('BAD_FLAG', 'usage: simgrep mcp [ROOT] (one root directory at most)');
  const version = simgrepVersion();
  const root = realRoot(args[0] ?? process.cwd());
  const options = engineOptions(flags);
  const note = (m: string) => { process.stderr.write(`simgrep: mcp: ${m}\n`); };
  const ready = () => process.stderr.write(`simgrep: MCP server ready on stdio (root ${args[0] ?? process.cwd()})\n`);
  if (flags.server === false) return runInProcess(options, root, version, note, ready);

  const plan = mcpFrontPlan(flags, root);
  let closeLocal = async () => {};
  // Loaded only when no engine answers: a front never loads the SDK, zod, the model or an index.
  const local = async (): Promise<Upstream> => {
    const [{ runner, close }, { createLocalUpstream }] = await Promise.all([localRunner(options, root), import('../../mcp/local-upstream.js')]);
    closeLocal = close;
    return createLocalUpstream({ tools: runner, version, note });
  };
  const front = runFront({
    root: root.real,
    identity: plan.identity,
    socket: plan.socket,
    engineCommand: plan.engineCommand,
    // The start ../mcp-early.ts began before the CLI loaded the rest of itself, for this very socket.
    started: takeEarlyStart(plan.socket),
    local,
    note,
  }, process.stdin, process.stdout);
  ready();
  await front;
  await closeLocal();
  return 0;
}

/** The whole server in this process (--no-server): the SDK's stdio session over a local runner. */
async function runInProcess(options: EngineOptions, root: Root, version: string, note: (m: string) => void, ready: () => void): Promise<number> {
  const [{ runner, close }, { createMcpServer }, { StdioTransport }] = await Promise.all([
    localRunner(options, root), import('../../mcp/server.js'), import('../../mcp/stdio-transport.js'),
  ]);
  const server = createMcpServer({ tools: runner, version });
  const transport = new StdioTransport(process.stdin, process.stdout, { warn: note });
  // Protocol-level trouble (a line that is not JSON-RPC, ...) is the operator's to see, not silence.
  server.server.onerror = (e) => note(e.message);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  ready();
  await closed;
  await server.close().catch(() => {});
  await close();
  return 0;
}

async function localRunner(options: EngineOptions, root: Root): Promise<{ runner: ToolRunner; close: () => Promise<void> }> {
  const [{ createActionEngine }, { createToolRunner }] = await Promise.all([import('../../actions/engine.js'), import('../../mcp/tools.js')]);
  const engine = createActionEngine({ ...options, resident: true });
  const runner = createToolRunner(engine, root, { model: options.model, onRedacted: (m) => process.stderr.write(`simgrep: mcp: a failure told to the client without its paths outside the root: ${m}\n`) });
  // The made-up searches after a background build end before the engine closes (mcp/warm-searches.ts).
  return { runner, close: async () => { await runner.close?.(); await engine.close(); } };
}
