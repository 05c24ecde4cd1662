// simgrep mcp and what lies outside its root (issue 28, items 4 and 10), through the MCP SDK's own client
// over stdio: every refusal is one message (it never tells an outside path that exists from one that
// does not, nor where an in-root symlink leads); `index` and `status` never use a workspace whose roots
// reach outside the root (it re-indexed them); a message over the 10 MiB cap is answered with an
// error and the server goes on (it exited 0 without a word).
import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath, runCli } from '../helpers/cli.js';
import { isolatedHome } from '../helpers/isolated-home.js';
import { defaultName } from '../../src/workspace/registry.js';
import { bundledModelDir } from '../../src/model/default-model.js';

let home: ReturnType<typeof isolatedHome>;
let base = '';
let root = '';
let client: Client;
let stderr = '';
let closed = false;

type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, unknown> };
const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<ToolResult>;
const wideInfo = () => JSON.parse(readFileSync(path.join(home.env.SIMGREP_HOME, 'workspaces', 'wide', 'workspace.json'), 'utf8')) as { updated: string; roots: string[] };

beforeAll(async () => {
  home = isolatedHome('simgrep-mcp-trust-');
  base = realpathSync(home.dir);
  root = path.join(base, 'project');
  mkdirSync(path.join(root, 'src'), { recursive: true });
  mkdirSync(path.join(base, 'outside'), { recursive: true });
  writeFileSync(path.join(base, 'outside', 'secret.txt'), 'retry the failed upload secretly\n');
  writeFileSync(path.join(root, 'src', 'upload.ts'), 'export function retryUpload(file) {\n  return backoff(() => upload(file));\n}\n');
  writeFileSync(path.join(root, 'src', 'config.ts'), 'export function parseConfig(text) {\n  return JSON.parse(text);\n}\n');
  writeFileSync(path.join(root, 'README.md'), '# Project\n\nUploads are retried with exponential backoff.\n');
  symlinkSync(path.join(base, 'outside'), path.join(root, 'escape'));
  symlinkSync(path.join(base, 'nonexistent'), path.join(root, 'dangling'));
  // A workspace whose roots reach outside the root (it covers the root), and one inside it.
  for (const [name, dir] of [['wide', base], ['inner', path.join(root, 'src')]]) {
    const r = await runCli(['index', dir, '--workspace', name, '-J', '0'], { env: home.env });
    expect(r.code, r.stderr).toBe(0);
  }
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'mcp', root, '-J', '0'],
    env: { ...process.env as Record<string, string>, ...home.env, HF_HUB_OFFLINE: '1' },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (d) => { stderr += String(d); });
  client = new Client({ name: 'simgrep-e2e', version: '0.0.0' });
  client.onclose = () => { closed = true; };
  await client.connect(transport);
});
afterAll(async () => {
  await client?.close();
  home.restore();
});

describe('simgrep mcp keeps to its root', () => {
  const refused: [string, string][] = [
    ['..', 'the parent'],
    ['../outside', 'an outside directory that exists'],
    ['../outside/secret.txt', 'an outside file that exists'],
    ['../nonexistent', 'an outside path that does not exist'],
    ['escape', 'an in-root symlink that leads out'],
    ['escape/../project', 'a walk through a symlink that leads out'],
    ['dangling', 'an in-root symlink to nothing'],
    ['/etc', 'an absolute path outside'],
    ['nope', 'a missing directory inside'],
    ['README.md', 'a file inside'],
    ['src\u0000x', 'a NUL byte'],
  ];
  it('every refusal of every tool is the same message', async () => {
    const want = `BAD_FLAG: directory must be an existing directory inside the server's root ${root}; pass a path relative to the root`;
    for (const [directory, why] of refused) {
      for (const [tool, args] of [['search', { query: 'retry upload' }], ['index', {}], ['status', {}]] as const) {
        const r = await call(tool, { ...args, directory });
        expect(r.isError, `${tool} ${why}`).toBe(true);
        expect(r.content[0].text, `${tool} ${why}`).toBe(want);
      }
    }
  });

  it('a directory\'s own workspace widened to an outside root is refused, naming it (before the root has one)', async () => {
    const docs = path.join(root, 'docs');
    mkdirSync(docs);
    writeFileSync(path.join(docs, 'guide.md'), 'How uploads are retried.\n');
    const name = defaultName([docs]);
    const built = await runCli(['index', docs, path.join(base, 'outside'), '--workspace', name, '-J', '0'], { env: home.env });
    expect(built.code, built.stderr).toBe(0);
    for (const [tool, args] of [['search', { query: 'retry' }], ['index', {}], ['status', {}]] as const) {
      const r = await call(tool, { ...args, directory: 'docs' });
      expect(r.isError, tool).toBe(true);
      expect(r.content[0].text, tool).toBe(`BAD_FLAG: workspace ${name} also indexes directories outside the server's root, so the MCP server does not use it; remove it (simgrep workspace rm ${name}) or give the server a root that holds all of its roots`);
    }
  });

  it('index and status use a workspace confined to the root, never one whose roots reach outside', async () => {
    const before = wideInfo();
    expect(before.roots).toEqual([base]);
    writeFileSync(path.join(base, 'outside', 'secret.txt'), 'a changed secret the server must not read\n');
    const indexed = await call('index', {});
    expect(indexed.structuredContent).toEqual({ workspace: expect.stringMatching(/^project-[0-9a-f]{8}$/), files: 4, indexed: 4, unchanged: 0, deleted: 0, chunks: expect.any(Number), errors: 0 });
    const status = await call('status', {});
    expect(status.structuredContent).toMatchObject({ directory: root, indexed: true, workspace: indexed.structuredContent!.workspace, files: 4 });
    const found = await call('search', { query: 'retry the failed upload secretly', k: 50, n_lines: 0 });
    expect((found.structuredContent!.matches as { path: string }[]).every((m) => m.path.startsWith(`${root}/`))).toBe(true);
    expect(wideInfo()).toEqual(before);
  });

  it('status names the model without where it lies outside the root (trial36: the bundled model\'s absolute path)', async () => {
    await call('index', {});
    const status = await call('status', {});
    expect(status.structuredContent).toMatchObject({ indexed: true, model: 'bundled' });
    expect(JSON.stringify(status)).not.toContain(bundledModelDir());
  });

  it('a named workspace whose roots lie inside the root still answers for what it covers', async () => {
    const status = await call('status', { directory: 'src' });
    expect(status.structuredContent).toMatchObject({ directory: path.join(root, 'src'), indexed: true, workspace: 'inner', files: 2 });
    const indexed = await call('index', { directory: 'src' });
    expect(indexed.structuredContent).toMatchObject({ workspace: 'inner', files: 2, unchanged: 2 });
  });
});

describe('simgrep mcp and a message over the 10 MiB cap', () => {
  it('answers the request with an error, says so on stderr, and keeps serving', async () => {
    const query = 'x'.repeat(11 * 1024 * 1024);
    const err = await call('search', { query }).then(() => null, (e: Error & { code?: number }) => e);
    expect(err?.code).toBe(-32600);
    expect(err?.message).toMatch(/^MCP error -32600: message too large: \d+ bytes; simgrep mcp reads messages of at most 10 MiB \(10485760 bytes\), so this one was dropped unread/);
    expect(stderr).toMatch(/simgrep: mcp: a message of \d+ bytes is over the 10 MiB \(10485760 bytes\) limit and was dropped unread; answered request \d+ with an error/);
    const after = await call('search', { query: 'retry upload', k: 1 });
    expect(after.structuredContent?.count).toBe(1);
    expect(closed).toBe(false);
  });
});
