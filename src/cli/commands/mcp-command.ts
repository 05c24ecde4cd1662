// simgrep mcp [ROOT]: an MCP server on stdio (stdout carries only the protocol; notes go to stderr).
// Searches are confined to ROOT (default: the working directory). A message over the transport's
// 10 MiB cap is answered with an error and noted on stderr; the server keeps serving.
import { createActionEngine } from '../../actions/engine.js';
import { SimgrepError } from '../../errors.js';
import { createMcpServer } from '../../mcp/server.js';
import { StdioTransport } from '../../mcp/stdio-transport.js';
import type { EmbedderKind } from '../../types.js';
import type { ParsedFlags } from '../flags.js';
import { simgrepVersion } from '../../version.js';

export async function runMcpCommand(flags: ParsedFlags, args: string[]): Promise<number> {
  if (flags['print-config'] === true) return (await import('./mcp-print-config.js')).runPrintConfig(flags, args);
  if (args.length > 1) throw new SimgrepError('BAD_FLAG', 'usage: simgrep mcp [ROOT] (one root directory at most)');
  const version = simgrepVersion();
  const engine = createActionEngine({
    model: flags.model as string | undefined,
    concurrency: flags.concurrency as number | undefined,
    embedder: flags.embedder as EmbedderKind | undefined,
    offline: flags.offline === true || undefined,
    resident: true,
  });
  const server = createMcpServer({ engine, root: args[0], version });
  const note = (m: string) => { process.stderr.write(`simgrep: mcp: ${m}\n`); };
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
  await engine.close();
  return 0;
}
