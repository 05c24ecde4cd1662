// A `simgrep mcp ROOT -J 0` of the built CLI, connected through the MCP SDK's own client, with a test's
// isolated home (and any variables added); the caller closes the client. By default the front runs its own
// engine (`--no-server`); `shared: true` lets it start or join the resident engine of that home.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cliPath } from './cli.js';

export async function mcpClient(root: string, env: Record<string, string>, onStderr?: (text: string) => void, o: { shared?: boolean } = {}): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'mcp', root, '-J', '0', ...(o.shared ? [] : ['--no-server'])],
    env: { ...process.env as Record<string, string>, HF_HUB_OFFLINE: '1', ...env },
    stderr: onStderr ? 'pipe' : 'ignore',
  });
  if (onStderr) transport.stderr?.on('data', (d) => onStderr(String(d)));
  const client = new Client({ name: 'simgrep-e2e', version: '0.0.0' });
  await client.connect(transport);
  return client;
}
