// Regression (left35): the MCP status tool, asked while the server built the directory's index in the
// background, read the tables being written: it rebuilt a ranking snapshot of them (and wrote it to
// disk) on every call, seconds while the build held the thread. Now it answers from the build's
// progress in memory and leaves the index alone. Over the MCP SDK's own client and a real `simgrep mcp`.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath } from '../helpers/cli.js';
import { isolatedHome } from '../helpers/isolated-home.js';

let home: ReturnType<typeof isolatedHome>;
type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, unknown> };

beforeAll(() => { home = isolatedHome('simgrep-mcp-status-building-'); });
afterAll(() => { home.restore(); });

describe('MCP status while the index builds in the background', () => {
  it('says building with what the build has indexed so far, and writes nothing into the index', async () => {
    const root = path.join(home.dir, 'tree');
    // Enough files that the build outlasts a few status calls.
    for (let d = 0; d < 40; d++) {
      mkdirSync(path.join(root, `d${d}`), { recursive: true });
      for (let f = 0; f < 50; f++) writeFileSync(path.join(root, `d${d}`, `f${f}.ts`), `export function handler${d}_${f}(req) {\n  return retryUpload(req, ${f});\n}\n`);
    }
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cliPath, 'mcp', root, '-J', '0', '--no-server'],
      env: { ...process.env as Record<string, string>, ...home.env, HF_HUB_OFFLINE: '1' },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'simgrep-e2e', version: '0.0.0' });
    await client.connect(transport);
    const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<ToolResult>;
    try {
      expect((await call('search', { query: 'retry the upload', k: 1 })).structuredContent?.index).toBe('building');
      const workspaces = path.join(home.env.SIMGREP_HOME, 'workspaces');
      const seen: Record<string, unknown>[] = [];
      let checked = 0;
      for (let i = 0; i < 600; i++) {
        const s = await call('status', {});
        expect(s.isError).toBeUndefined();
        if (!s.structuredContent?.building) break;
        seen.push(s.structuredContent);
        // Still building after the call, its files not all indexed (the build has not reached its publish,
        // which writes the snapshot before \`building\` clears): no snapshot of the partial tables was written.
        const dirs = existsSync(workspaces) ? readdirSync(workspaces) : [];
        const snapshot = dirs.some((d) => existsSync(path.join(workspaces, d, 'snapshot.bin')));
        const again = (await call('status', {})).structuredContent;
        if (again?.building && (again.files as number) < 2000) { expect(snapshot).toBe(false); checked++; }
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(checked).toBeGreaterThan(0);
      for (const s of seen) {
        expect(s).toMatchObject({ indexed: false, building: true, model: null, updated: null });
        expect(s.files as number).toBeLessThanOrEqual(2000);
        // Every count of the same files, those read so far: one 3-line chunk each (trial37: chunks
        // stayed 0, counted only once a commit of 65,536 lines was written, while files grew).
        expect([s.chunks, s.lines]).toEqual([s.files, (s.files as number) * 3]);
        // The build's last progress (before its publish) has all its files and chunks.
        if (s.files === 2000) expect(s.chunks).toBe(2000);
      }
      // The counts grow with the build and never go back.
      const files = seen.map((s) => s.files as number);
      expect(files).toEqual([...files].sort((a, b) => a - b));
      let after: ToolResult;
      for (let i = 0; ; i++) {
        after = await call('status', {});
        if (after.structuredContent?.indexed || i > 600) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(after.structuredContent).toMatchObject({ indexed: true, files: 2000 });
    } finally {
      await client.close();
    }
  }, 120_000);
});
