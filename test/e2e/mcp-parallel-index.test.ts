// The MCP server locks itself out (issue 28, item 9): on a fresh server a parallel search and index
// (and a burst of them) used to fail index with INDEX_LOCKED naming the server's own pid. Calls in one
// process now queue for the workspace's lock: every call answers. The MCP SDK's own client drives the
// built CLI over stdio.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath } from '../helpers/cli.js';
import { isolatedHome } from '../helpers/isolated-home.js';

let home: ReturnType<typeof isolatedHome>;
let root = '';
let client: Client;

type ToolResult = { isError?: boolean; content: { type: string; text: string }[] };
const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<ToolResult>;
const WORDS = ['upload', 'retry', 'invoice', 'socket', 'parser', 'render', 'cache', 'token', 'backoff', 'queue'];
const file = (seed: number, lines: number) => Array.from({ length: lines }, (_, i) => `const ${WORDS[(seed + i) % 10]}${i} = ${WORDS[(seed * 3 + i) % 10]}(${i});`).join('\n');

beforeAll(async () => {
  home = isolatedHome('simgrep-mcp-parallel-');
  root = path.join(home.dir, 'project');
  mkdirSync(root, { recursive: true });
  for (let f = 0; f < 30; f++) writeFileSync(path.join(root, `f${f}.ts`), file(f, 100));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'mcp', root, '-J', '0'],
    env: { ...process.env as Record<string, string>, ...home.env, HF_HUB_OFFLINE: '1' },
    stderr: 'ignore',
  });
  client = new Client({ name: 'simgrep-e2e', version: '0.0.0' });
  await client.connect(transport);
});
afterAll(async () => {
  await client?.close();
  home.restore();
});

describe('simgrep mcp, parallel calls', () => {
  it('the MCP server locks itself out: a parallel search + index on a fresh server, then bursts after changes, all answer', async () => {
    const failed = (rs: ToolResult[]) => rs.filter((r) => r.isError).map((r) => r.content[0]?.text);
    expect(failed(await Promise.all([call('search', { query: 'retry upload' }), call('index', {})]))).toEqual([]);
    for (let round = 0; round < 3; round++) {
      // Enough changed that a search saves it (under the lock) while index calls want the lock too.
      for (let f = 0; f < 10; f++) writeFileSync(path.join(root, `f${f}.ts`), file(f + 100 * (round + 1), 100 + round));
      const burst = Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? call('index', {}) : call('search', { query: `backoff token ${i}` })));
      expect(failed(await Promise.all(burst))).toEqual([]);
    }
  });
});
