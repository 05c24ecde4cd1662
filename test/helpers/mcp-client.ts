// A `simgrep mcp ROOT -J 0 --no-server` of the built CLI, connected through the MCP SDK's own client,
// with a test's isolated home (and any variables added); the caller closes the client.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cliPath } from './cli.js';

export async function mcpClient(root: string, env: Record<string, string>, onStderr?: (text: string) => void): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'mcp', root, '-J', '0', '--no-server'],
    env: { ...process.env as Record<string, string>, HF_HUB_OFFLINE: '1', ...env },
    stderr: 'pipe',
  });
  if (onStderr) transport.stderr?.on('data', (d) => onStderr(String(d)));
  const client = new Client({ name: 'simgrep-e2e', version: '0.0.0' });
  await client.connect(transport);
  return client;
}
