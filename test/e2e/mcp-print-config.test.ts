// simgrep mcp --print-config end to end: the entry the built CLI prints starts a working MCP server
// (the SDK's own stdio client spawns exactly its command, args and env, as the MCP client would), and
// no client or an unknown one lists the clients.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeMcpAdd, shellSplit } from '../helpers/claude-mcp-add.js';
import { runCli } from '../helpers/cli.js';
import { isolatedHome } from '../helpers/isolated-home.js';

let home: ReturnType<typeof isolatedHome>;
let root = '';

beforeAll(() => {
  home = isolatedHome('simgrep-print-config-');
  root = path.join(home.dir, 'my project');
  mkdirSync(root, { recursive: true });
  writeFileSync(path.join(root, 'upload.ts'), 'export function retryUpload(file) {\n  return backoff(() => upload(file));\n}\n');
});
afterAll(() => home.restore());

describe('simgrep mcp --print-config', () => {
  it('the printed Cursor entry starts a server that lists its tools and answers a search', async () => {
    const r = await runCli(['mcp', '--print-config', 'cursor', root, '-J', '0'], { env: home.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('.cursor/mcp.json');
    const entry = JSON.parse(r.stdout).mcpServers.simgrep as { command: string; args: string[]; env: Record<string, string> };
    expect(entry.args.slice(1)).toEqual(['mcp', root, '-J', '0']);
    expect(entry.env).toEqual({ ...home.env, HF_HUB_OFFLINE: '1' });
    const client = new Client({ name: 'simgrep-print-config', version: '0.0.0' });
    await client.connect(new StdioClientTransport({ command: entry.command, args: entry.args, env: entry.env, stderr: 'ignore' }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['find_related', 'index', 'search', 'status']);
      const s = await client.callTool({ name: 'search', arguments: { query: 'retry the upload', k: 1 } }) as { structuredContent: { matches: { path: string }[] } };
      expect(s.structuredContent.matches.map((m) => m.path)).toEqual([path.join(root, 'upload.ts')]);
    } finally {
      await client.close();
    }
  });

  it('a local model not made yet is still made absolute (the docs\' own example: --model ./models/potion; before audit44 a path to a missing directory was printed relative, which a client started elsewhere resolves from its own directory)', async () => {
    const r = await runCli(['mcp', '--print-config', 'codex', '.', '--model', './models/potion', '-J', '2', '--offline'], { cwd: root, env: home.env });
    expect(r.code, r.stderr).toBe(0);
    const args = /^args = (\[.*\])$/m.exec(r.stdout)?.[1];
    expect(JSON.parse(args ?? 'null').slice(1)).toEqual(['mcp', root, '--model', path.join(root, 'models', 'potion'), '-J', '2', '--offline']);
    expect(r.stderr).toContain(`the model directory ${path.join(root, 'models', 'potion')} does not exist yet`);
    const hub = await runCli(['mcp', '--print-config', 'codex', '.', '--model', 'minishlab/potion-base-8M'], { cwd: root, env: home.env });
    expect(JSON.parse(/^args = (\[.*\])$/m.exec(hub.stdout)?.[1] ?? 'null').slice(3)).toEqual(['--model', 'minishlab/potion-base-8M']);
  });

  it('the claude-code command names the server before --env, which takes every word up to the next option (before audit44 Claude Code read "simgrep" as an env value and refused the command)', async () => {
    const r = await runCli(['mcp', '--print-config', 'claude-code', root], { env: home.env });
    expect(r.code, r.stderr).toBe(0);
    expect(claudeMcpAdd(shellSplit(r.stdout.trim()))).toEqual({ command: process.execPath, args: [expect.stringMatching(/main\.js$/), 'mcp', root], env: { ...home.env, HF_HUB_OFFLINE: '1' } });
  });

  it('no client lists the clients (exit 0); an unknown one is an error that lists them (exit 2)', async () => {
    const list = await runCli(['mcp', '--print-config']);
    expect(list.code).toBe(0);
    for (const name of ['claude-code', 'claude-desktop', 'cursor', 'vscode', 'codex', 'windsurf', 'gemini', 'zed']) expect(list.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
    const bad = await runCli(['mcp', '--print-config', 'emacs']);
    expect([bad.code, bad.stdout]).toEqual([2, '']);
    expect(bad.stderr).toMatch(/unknown MCP client "emacs"; --print-config knows:\n {2}claude-code /);
  });
});
