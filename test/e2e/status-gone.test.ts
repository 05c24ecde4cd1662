// Regression (trial34): after files were deleted and renamed away, `status` (MCP) and `simgrep workspace
// status` counted them until `simgrep index` or `workspace prune` ran (86 files for a tree of 80), though
// no search uses them. Now `files` counts the indexed files that still exist and `gone` the others.
// Real files, a real index: the CLI, and the MCP SDK's own client over a real `simgrep mcp`.
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath, runCli } from '../helpers/cli.js';
import { isolatedHome } from '../helpers/isolated-home.js';

let home: ReturnType<typeof isolatedHome>;

beforeAll(() => { home = isolatedHome('simgrep-status-gone-'); });
afterAll(() => { home.restore(); });

/** A tree of `n` small files under `root`. */
function tree(root: string, n: number): void {
  mkdirSync(path.join(root, 'src'), { recursive: true });
  for (let i = 0; i < n; i++) writeFileSync(path.join(root, 'src', `f${i}.ts`), `export const value${i} = ${i};\nexport function get${i}() { return value${i}; }\n`);
}

/** Deletes two files and renames one: 3 of the index's files are gone, one new name is not indexed yet. */
function churn(root: string): void {
  rmSync(path.join(root, 'src', 'f0.ts'));
  rmSync(path.join(root, 'src', 'f1.ts'));
  renameSync(path.join(root, 'src', 'f2.ts'), path.join(root, 'src', 'renamed.ts'));
}

describe('status counts only the indexed files that still exist', () => {
  it('simgrep workspace status: files and gone (json and text); simgrep index drops the gone', async () => {
    const root = path.join(home.dir, 'cli-tree');
    tree(root, 10);
    expect((await runCli(['index', root, '-w', 'gone'], { env: home.env })).code).toBe(0);
    churn(root);
    const s = await runCli(['workspace', 'status', 'gone', '--json'], { env: home.env });
    expect(s.code).toBe(0);
    const json = JSON.parse(s.stdout) as { files: number; gone: number; chunks: number; lines: number };
    expect({ files: json.files, gone: json.gone, lines: json.lines }).toEqual({ files: 7, gone: 3, lines: 14 });
    const text = await runCli(['workspace', 'status', 'gone'], { env: home.env });
    expect(text.stdout).toContain('files:     7 (0 binary); 3 more gone since the last index run (not searched; simgrep index or workspace prune drops them)\n');
    expect((await runCli(['index', root, '-w', 'gone'], { env: home.env })).code).toBe(0);
    const after = JSON.parse((await runCli(['workspace', 'status', 'gone', '--json'], { env: home.env })).stdout) as { files: number; gone: number; lines: number };
    expect({ files: after.files, gone: after.gone, lines: after.lines }).toEqual({ files: 8, gone: 0, lines: 16 });
    expect((await runCli(['workspace', 'status', 'gone'], { env: home.env })).stdout).toContain('files:     8 (0 binary)\n');
  });

  it('the MCP status tool: files, gone and its text; the index tool drops the gone', async () => {
    const root = path.join(home.dir, 'mcp-tree');
    tree(root, 10);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cliPath, 'mcp', root, '-J', '0', '--no-server'],
      env: { ...process.env as Record<string, string>, ...home.env, HF_HUB_OFFLINE: '1' },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'simgrep-e2e', version: '0.0.0' });
    await client.connect(transport);
    type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, unknown> };
    const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<ToolResult>;
    try {
      expect((await call('index', {})).isError).toBeUndefined();
      churn(root);
      const s = await call('status', {});
      expect(s.structuredContent).toMatchObject({ indexed: true, files: 7, gone: 3, lines: 14 });
      expect(s.content[0].text).toMatch(/ \(7 files, \d+ chunks; 3 more gone since its last run, skipped by searches, dropped by the index tool\)$/);
      expect((await call('index', {})).structuredContent).toMatchObject({ deleted: 3 });
      const after = await call('status', {});
      expect(after.structuredContent).toMatchObject({ indexed: true, files: 8, lines: 16 });
      expect(after.structuredContent!.gone).toBeUndefined();
    } finally {
      await client.close();
    }
  });
});
