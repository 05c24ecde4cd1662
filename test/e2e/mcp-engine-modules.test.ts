// An agent's first answer waits on the engine's start (issue 30): the MCP SDK, zod and Ajv, ~240 small
// modules Node would resolve and link one by one before the engine listens, are part of the CLI's bundle
// (src/cli/bundle.mjs). A session over a front and its engine, both run with a resolve hook that notes
// every package import, answers a search without importing any of them from node_modules.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cliPath } from '../helpers/cli.js';
import { isolatedHome } from '../helpers/isolated-home.js';

let home: ReturnType<typeof isolatedHome>;
let root = '';

beforeAll(() => {
  home = isolatedHome('simgrep-mcp-modules-');
  root = path.join(home.dir, 'project');
  mkdirSync(root, { recursive: true });
  writeFileSync(path.join(root, 'upload.ts'), 'export function retryUpload(file) {\n  // retry the upload after a failure\n  return store.save(file);\n}\n');
  writeFileSync(path.join(root, 'README.md'), '# Uploads\n\nFailed uploads are retried three times.\n');
});
afterAll(() => home.restore());

it('the engine answers a search over MCP without importing the SDK, zod or Ajv from node_modules', async () => {
  const log = path.join(home.dir, 'imports.log');
  const hook = path.join(home.dir, 'hook.mjs');
  // Every bare import (a package) either process resolves, noted with the process's pid.
  writeFileSync(hook, `import { appendFileSync } from 'node:fs';\nexport async function resolve(s, c, n) { if (/^[^./]/.test(s) && !s.startsWith('node:')) appendFileSync(${JSON.stringify(log)}, process.pid + ' ' + s + '\\n'); return n(s, c); }\n`);
  const transport = new StdioClientTransport({
    command: process.execPath,
    // The front passes Node's own flags on to the engine it starts.
    args: ['--no-warnings', '--experimental-loader', hook, cliPath, 'mcp', root, '-J', '0'],
    env: { ...process.env as Record<string, string>, ...home.env, SIMGREP_RUNTIME_DIR: path.join(home.dir, 'run'), HF_HUB_OFFLINE: '1' },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'simgrep-e2e-modules', version: '0.0.0' });
  await client.connect(transport);
  let engine = 0;
  try {
    const r = await client.callTool({ name: 'search', arguments: { query: 'retry the upload', top_k: 3 } }) as { isError?: boolean; structuredContent?: { matches?: unknown[] }; _meta?: Record<string, unknown> };
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent?.matches?.length).toBeGreaterThan(0);
    engine = (r._meta?.['simgrep/engine'] as { pid: number } | undefined)?.pid ?? 0;
    expect(engine).toBeGreaterThan(0);
    const lines = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [];
    // The hook ran in the engine too: it saw the engine's own package imports.
    expect(lines.filter((l) => l.startsWith(`${engine} `)).length, lines.join('\n')).toBeGreaterThan(0);
    expect(lines.filter((l) => / (@modelcontextprotocol\/sdk|zod|ajv)([/-]|$)/.test(l))).toEqual([]);
  } finally {
    await client.close().catch(() => {});
    // The engine outlives its front for a while, building the index under the home afterAll removes.
    if (engine > 0) await stopped(engine);
  }
});

/** Kills a detached engine and waits until it is gone. */
async function stopped(pid: number): Promise<void> {
  try { process.kill(pid, 'SIGKILL'); } catch { return; }
  for (let i = 0; i < 200; i++) {
    try { process.kill(pid, 0); } catch { return; }
    await new Promise((r) => setTimeout(r, 25));
  }
}
