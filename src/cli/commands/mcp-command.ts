// simgrep mcp [ROOT]: an MCP server on stdio (stdout carries only the protocol; notes go to stderr).
// Searches are confined to ROOT (default: the working directory). By default this process is a thin
// front: the tools run in the resident engine for ROOT (`simgrep serve --mcp ROOT`, started on demand
// and shared by every front of the same root), and here only when it cannot be reached or with
// --no-server; the model and the index are loaded only then. A message over the transport's 10 MiB
// cap is answered with an error and noted on stderr; the server keeps serving.
import { SimgrepError } from '../../errors.js';
import { engineSocketPath } from '../../mcp/engine-key.js';
import { createEngineLink } from '../../mcp/engine-link.js';
import { realRoot } from '../../mcp/scope.js';
import { createMcpServer } from '../../mcp/server.js';
import { StdioTransport } from '../../mcp/stdio-transport.js';
import type { ToolRunner } from '../../mcp/tools.js';
import { identityOf } from '../../server/identity.js';
import type { EmbedderKind } from '../../types.js';
import type { ParsedFlags } from '../flags.js';
import { simgrepVersion } from '../../version.js';

export async function runMcpCommand(flags: ParsedFlags, args: string[]): Promise<number> {
  if (args.length > 1) throw new SimgrepError('BAD_FLAG', 'usage: simgrep mcp [ROOT] (one root directory at most)');
  const version = simgrepVersion();
  const root = realRoot(args[0] ?? process.cwd());
  const options = {
    model: flags.model as string | undefined,
    concurrency: flags.concurrency as number | undefined,
    embedder: flags.embedder as EmbedderKind | undefined,
    offline: flags.offline === true || undefined,
  };
  let closeLocal = async () => {};
  // Loaded on first need only: a front that the engine answers never loads the model or an index.
  const local = async (): Promise<ToolRunner> => {
    const [{ createActionEngine }, { createToolRunner }] = await Promise.all([import('../../actions/engine.js'), import('../../mcp/tools.js')]);
    const engine = createActionEngine({ ...options, resident: true });
    closeLocal = () => engine.close();
    return createToolRunner(engine, root);
  };
  const note = (m: string) => { process.stderr.write(`simgrep: mcp: ${m}\n`); };
  const identity = identityOf(options);
  const link = flags.server === false ? null : createEngineLink({
    root: root.real,
    identity,
    socket: engineSocketPath({ root: root.real, identity, concurrency: options.concurrency, offline: options.offline }),
    engineCommand: [process.execPath, ...process.execArgv, process.argv[1], 'serve', '--mcp', root.real, ...engineFlags(flags, identity.model)],
    local,
    note,
  });
  let runner: Promise<ToolRunner> | null = null;
  const tools: ToolRunner = link ?? { call: async (tool, a, onProgress) => (await (runner ??= local())).call(tool, a, onProgress) };
  const server = createMcpServer({ tools, version });
  const transport = new StdioTransport(process.stdin, process.stdout, { warn: note });
  // Protocol-level trouble (a line that is not JSON-RPC, ...) is the operator's to see, not silence.
  server.server.onerror = (e) => note(e.message);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  process.stderr.write(`simgrep: MCP server ready on stdio (root ${args[0] ?? process.cwd()})\n`);
  await closed;
  await server.close().catch(() => {});
  link?.close();
  await closeLocal();
  return 0;
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
