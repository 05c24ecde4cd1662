// An MCP search beside an index call of the same server says only what it met itself (integ41, engine40's
// review): the warning that the ranking snapshot was not saved was a flag the workspace held, and a search
// beside the index run that rebuilt the snapshot (and could not save it) took it as its own. The MCP SDK's
// own client drives the built CLI over stdio (--no-server: the tools run in that process, whose pid names the
// snapshot's temp files).
import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, expect, it } from 'vitest';
import { cliPath, runCli } from '../helpers/cli.js';
import { isolatedHome } from '../helpers/isolated-home.js';

const home = isolatedHome('simgrep-mcp-not-saved-');
let client: Client | null = null;
afterAll(async () => {
  await client?.close();
  home.restore();
});

type ToolResult = { isError?: boolean; content: { type: string; text: string }[] };
const WORDS = ['upload', 'retry', 'invoice', 'socket', 'parser', 'render', 'cache', 'token', 'backoff', 'queue'];
const file = (seed: number, lines: number) => Array.from({ length: lines }, (_, i) => `const ${WORDS[(seed + i) % 10]}${i} = ${WORDS[(seed * 3 + i) % 10]}(${i});`).join('\n');

it('a search beside an index call does not report the index run\'s snapshot not saved', async () => {
  const root = path.join(home.dir, 'project');
  mkdirSync(root, { recursive: true });
  for (let f = 0; f < 30; f++) writeFileSync(path.join(root, `f${f}.ts`), file(f, 60));
  expect((await runCli(['index', root], { env: home.env })).code).toBe(0);
  const workspaces = path.join(home.env.SIMGREP_HOME, 'workspaces');
  const [name] = readdirSync(workspaces);
  const dir = path.join(workspaces, name);
  // No snapshot: the index run rebuilds it from the tables, and cannot save it (directories stand where its temp files go).
  for (const f of readdirSync(dir).filter((n) => n.startsWith('snapshot'))) rmSync(path.join(dir, f));
  appendFileSync(path.join(root, 'f3.ts'), '\nconst lateInvoiceRetry = retryUpload(invoice);\n');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'mcp', root, '--no-server', '-J', '0'],
    env: { ...process.env as Record<string, string>, ...home.env, HF_HUB_OFFLINE: '1', SIMGREP_FAILPOINT: 'pause-after-commit:1' },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); });
  client = new Client({ name: 'simgrep-e2e', version: '0.0.0' });
  await client.connect(transport);
  for (const n of ['snapshot.bin', 'snapshot.delta.bin']) mkdirSync(path.join(dir, `${n}.${transport.pid}.tmp`));
  // The index call pauses after its first commit, holding the lock, until the server closes.
  const indexing = client.callTool({ name: 'index', arguments: {} }).catch((e: unknown) => e);
  await expect.poll(() => stderr, { timeout: 60_000 }).toMatch(/failpoint: paused after commit 1/);
  const search = await client.callTool({ name: 'search', arguments: { query: 'retry the upload' } }) as ToolResult;
  const text = search.content.map((c) => c.text).join('\n');
  expect(search.isError, text).toBeFalsy();
  expect(text).toMatch(/index: fresh/);
  expect(text).not.toMatch(/SNAPSHOT_NOT_SAVED|not saved/);
  await client.close();
  client = null;
  await indexing;
}, 120_000);

// mend41 (review of integ41): the snapshot a search beside it could not save is the index call's to report, but
// the index tool returned its counts alone: a run's warnings were dropped. They come back as the search's do.
it('the index tool reports the ranking snapshot it could not save', async () => {
  const root = path.join(home.dir, 'project-index');
  mkdirSync(root, { recursive: true });
  for (let f = 0; f < 10; f++) writeFileSync(path.join(root, `f${f}.ts`), file(f, 40));
  expect((await runCli(['index', root], { env: home.env })).code).toBe(0);
  const workspaces = path.join(home.env.SIMGREP_HOME, 'workspaces');
  const dir = readdirSync(workspaces).map((n) => path.join(workspaces, n)).find((d) => readFileSync(path.join(d, 'workspace.json'), 'utf8').includes(root))!;
  for (const f of readdirSync(dir).filter((n) => n.startsWith('snapshot'))) rmSync(path.join(dir, f));
  appendFileSync(path.join(root, 'f3.ts'), '\nconst lateInvoiceRetry = retryUpload(invoice);\n');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'mcp', root, '--no-server', '-J', '0'],
    env: { ...process.env as Record<string, string>, ...home.env, HF_HUB_OFFLINE: '1' },
    stderr: 'pipe',
  });
  client = new Client({ name: 'simgrep-e2e', version: '0.0.0' });
  await client.connect(transport);
  for (const n of ['snapshot.bin', 'snapshot.delta.bin']) mkdirSync(path.join(dir, `${n}.${transport.pid}.tmp`));
  const index = await client.callTool({ name: 'index', arguments: {} }) as ToolResult & { structuredContent: { indexed: number; notes?: string[] } };
  const text = index.content.map((c) => c.text).join('\n');
  expect(index.isError, text).toBeFalsy();
  expect(index.structuredContent.indexed).toBe(1);
  expect(index.structuredContent.notes).toEqual([expect.stringMatching(/^1 warning \(1 SNAPSHOT_NOT_SAVED\): .*SNAPSHOT_NOT_SAVED: workspace \S+: the ranking snapshot was not saved \(EISDIR: /)]);
  expect(text).toMatch(/\nnote: 1 warning \(1 SNAPSHOT_NOT_SAVED\)/);
}, 120_000);
