// Regression (trial36): a failure of the index's own storage came back to the MCP client with the paths
// of $SIMGREP_HOME in it: a tool error (`ENOTDIR: not a directory, scandir '/home/me/.local/share/simgrep/
// workspaces'`, `INDEX_UNREADABLE: cannot read the index directory /home/me/...`), the background build's
// failure in the search's note and in status's `build_failed`. Through the MCP SDK's own client and a real
// `simgrep mcp`: every such answer still says what failed, names the index as "the index" and anything
// else outside the root as "[outside the root]", and keeps the paths inside the root; searches go on,
// from the files (an index that could not be read failed every search).
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath } from '../helpers/cli.js';
import { isolatedHome } from '../helpers/isolated-home.js';
import { defaultName, workspacesDir } from '../../src/workspace/registry.js';

type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, unknown> };

let home: ReturnType<typeof isolatedHome>;
let root = '';
let client: Client;
let stderr = '';
const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<ToolResult>;
/** Everything an answer carries, as one string to look for paths in. */
const all = (r: ToolResult) => JSON.stringify(r);

beforeAll(async () => {
  home = isolatedHome('simgrep-mcp-errpaths-');
  root = path.join(realpathSync(home.dir), 'project');
  for (const d of ['cold', 'broken']) {
    mkdirSync(path.join(root, d), { recursive: true });
    writeFileSync(path.join(root, d, 'upload.ts'), 'export function retryUpload(file) {\n  return backoff(() => upload(file));\n}\n');
  }
  const workspaces = workspacesDir(home.env);
  mkdirSync(workspaces, { recursive: true });
  // cold: its workspace directory is a link to nothing, so the background build cannot make it (ENOENT, mkdir).
  symlinkSync(path.join(home.dir, 'nowhere', 'x'), path.join(workspaces, defaultName([path.join(root, 'cold')])));
  // broken: its workspace directory is a file (INDEX_UNREADABLE).
  writeFileSync(path.join(workspaces, defaultName([path.join(root, 'broken')])), 'not a directory\n');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'mcp', root, '-J', '0', '--no-server'],
    env: { ...process.env as Record<string, string>, ...home.env, HF_HUB_OFFLINE: '1' },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (d) => { stderr += String(d); });
  client = new Client({ name: 'simgrep-e2e', version: '0.0.0' });
  await client.connect(transport);
}, 60_000);
afterAll(async () => {
  await client?.close();
  home.restore();
});

describe('MCP answers about a failing index name nothing outside the root', () => {
  it('a background build that fails: the search note, status and the index tool say why, the index named "the index"', async () => {
    const first = await call('search', { query: 'retry the upload', directory: 'cold', top_k: 1 });
    expect(first.isError).toBeUndefined();
    // The build runs after the first answer; status reports its failure once it has failed.
    let status: ToolResult;
    for (let i = 0; ; i++) {
      status = await call('status', { directory: 'cold' });
      if (status.structuredContent!.build_failed || i > 100) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(status.structuredContent!.build_failed).toBe("ENOENT: no such file or directory, mkdir 'the index'");
    expect(all(status)).not.toContain(home.env.SIMGREP_HOME);
    const searched = await call('search', { query: 'retry the upload', directory: 'cold', top_k: 1 });
    expect(searched.structuredContent!.index).toBe('scanned');
    expect((searched.structuredContent!.matches as { path: string }[])[0].path).toBe(path.join(root, 'cold', 'upload.ts'));
    expect(searched.structuredContent!.notes).toContainEqual(expect.stringContaining("the background build of this directory's index failed (ENOENT: no such file or directory, mkdir 'the index')"));
    expect(all(searched)).not.toContain(home.env.SIMGREP_HOME);
    const indexed = await call('index', { directory: 'cold' });
    expect(indexed.isError).toBe(true);
    expect(indexed.content[0].text).toBe("ENOENT: no such file or directory, mkdir 'the index'");
  });

  it('an index directory that cannot be read: search answers from the files, saying why; status and index are errors naming "the index"', async () => {
    const unreadable = 'INDEX_UNREADABLE: cannot read the index directory the index: ENOTDIR; check its permissions';
    // The search failed outright (trial36), though reading the files answers it.
    const r = await call('search', { directory: 'broken', query: 'retry the upload', top_k: 1 });
    expect(r.isError).toBeUndefined();
    expect(r.structuredContent).toMatchObject({ index: 'scanned', count: 1 });
    expect((r.structuredContent!.matches as { path: string }[])[0].path).toBe(path.join(root, 'broken', 'upload.ts'));
    expect(r.structuredContent!.notes).toContainEqual(expect.stringContaining(`the background build of this directory's index failed (${unreadable})`));
    expect(all(r)).not.toContain(home.env.SIMGREP_HOME);
    for (const tool of ['status', 'index'] as const) {
      const e = await call(tool, { directory: 'broken' });
      expect(e.isError, tool).toBe(true);
      expect(e.content[0].text, tool).toBe(unreadable);
    }
    // The user, who fixes it, reads the whole message in the server's log (stderr).
    expect(stderr).toContain(`simgrep: mcp: a failure told to the client without its paths outside the root: INDEX_UNREADABLE: cannot read the index directory ${path.join(home.env.SIMGREP_HOME, 'workspaces', defaultName([path.join(root, 'broken')]))}: ENOTDIR`);
  });

  it('a refusal still names the root as it is (paths inside the root are kept)', async () => {
    const r = await call('search', { query: 'retry', directory: '../..' });
    expect(r.content[0].text).toBe(`BAD_FLAG: directory must be an existing directory inside the server's root ${root}; pass a path relative to the root`);
    const g = await call('search', { query: 'retry', globs: ['src/['] });
    expect(g.content[0].text).toBe('BAD_FLAG: globs "src/[" has a [ without its ]; escape it as \\[');
  });
});
