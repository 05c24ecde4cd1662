// Regression (trial36): a failure of the index's own storage came back to the MCP client with the paths
// of $SIMGREP_HOME in it: a tool error (`ENOTDIR: not a directory, scandir '/home/me/.local/share/simgrep/
// workspaces'`, `INDEX_UNREADABLE: cannot read the index directory /home/me/...`), the background build's
// failure in the search's note and in status's `build_failed`. Through the MCP SDK's own client and a real
// `simgrep mcp`: every such answer still says what failed, names the index as "the index" and anything
// else outside the root as "[outside the root]", and keeps the paths inside the root; searches go on,
// from the files (an index that could not be read failed every search).
import { cpSync, mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpClient } from '../helpers/mcp-client.js';
import { isolatedHome } from '../helpers/isolated-home.js';
import { defaultName, workspacesDir } from '../../src/workspace/registry.js';
import { bundledModelDir } from '../../src/model/default-model.js';

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
  for (const d of ['cold', 'broken', 'mended']) {
    mkdirSync(path.join(root, d), { recursive: true });
    writeFileSync(path.join(root, d, 'upload.ts'), 'export function retryUpload(file) {\n  return backoff(() => upload(file));\n}\n');
  }
  const workspaces = workspacesDir(home.env);
  mkdirSync(workspaces, { recursive: true });
  // cold: its workspace directory is a link to nothing, so the background build cannot make it (ENOENT, mkdir).
  symlinkSync(path.join(home.dir, 'nowhere', 'x'), path.join(workspaces, defaultName([path.join(root, 'cold')])));
  // broken, mended: its workspace directory is a file (INDEX_UNREADABLE).
  for (const d of ['broken', 'mended']) writeFileSync(path.join(workspaces, defaultName([path.join(root, d)])), 'not a directory\n');
  client = await mcpClient(root, home.env, (d) => { stderr += d; });
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
    // No build ran: the note says what happened (mend36; it said a background build had failed).
    expect(r.structuredContent!.notes).toContainEqual(`the index of this directory could not be read (${unreadable}); this answer comes from reading the files (the same matches, found more slowly)`);
    expect(all(r)).not.toContain(home.env.SIMGREP_HOME);
    // Every search of it fails to read it the same way: the server's log says so once (mend36: once a search).
    for (let i = 0; i < 2; i++) expect((await call('search', { directory: 'broken', query: 'retry the upload', top_k: 1 })).structuredContent!.index).toBe('scanned');
    for (const tool of ['status', 'index'] as const) {
      const e = await call(tool, { directory: 'broken' });
      expect(e.isError, tool).toBe(true);
      expect(e.content[0].text, tool).toBe(unreadable);
    }
    // The user, who fixes it, reads the whole message in the server's log (stderr).
    const logged = `simgrep: mcp: a failure told to the client without its paths outside the root: INDEX_UNREADABLE: cannot read the index directory ${path.join(home.env.SIMGREP_HOME, 'workspaces', defaultName([path.join(root, 'broken')]))}: ENOTDIR`;
    expect(stderr).toContain(logged);
    expect(stderr.split(logged).length - 1).toBe(1);
  });

  it('an index that can be read again: the next search queues its build (no build failed, none waits 30 s: mend36)', async () => {
    const first = await call('search', { directory: 'mended', query: 'retry the upload', top_k: 1 });
    expect(first.structuredContent!.index).toBe('scanned');
    rmSync(path.join(workspacesDir(home.env), defaultName([path.join(root, 'mended')])));
    const fixed = await call('search', { directory: 'mended', query: 'retry the upload', top_k: 1 });
    expect(fixed.structuredContent).toMatchObject({ index: 'building', count: 1 });
  });

  it('a refusal still names the root as it is (paths inside the root are kept)', async () => {
    const r = await call('search', { query: 'retry', directory: '../..' });
    expect(r.content[0].text).toBe(`BAD_FLAG: directory must be an existing directory inside the server's root ${root}; pass a path relative to the root`);
    const g = await call('search', { query: 'retry', globs: ['src/['] });
    expect(g.content[0].text).toBe('BAD_FLAG: globs "src/[" has a [ without its ]; escape it as \\[');
    // The agent's own argument is kept exactly, even one that looks like an absolute path (mend36).
    const a = await call('search', { query: 'retry', globs: ['/src/['] });
    expect(a.content[0].text).toBe('BAD_FLAG: globs "/src/[" has a [ without its ]; escape it as \\[');
  });
});

/** A `simgrep mcp` of the root with this environment added; closed by the caller. */
async function served(env: Record<string, string>): Promise<Client> {
  return mcpClient(root, { ...home.env, ...env });
}

describe('MCP answers name a model outside the root by its name only (mend36)', () => {
  it('a model directory with a space in its path: the error names none of it', async () => {
    const c = await served({ SIMGREP_MODEL: path.join(home.dir, 'x', 'John Smith', 'private', 'model') });
    try {
      const r = await c.callTool({ name: 'search', arguments: { query: 'retry the upload', directory: 'cold' } }) as ToolResult;
      expect(r.isError).toBe(true);
      expect(r.content[0].text).toMatch(/^MODEL_NOT_FOUND: Model directory \[outside the root\] does not exist\./);
      expect(all(r)).not.toContain('Smith');
      expect(all(r)).not.toContain('private');
    } finally {
      await c.close();
    }
  }, 60_000);

  it('a model given under ~ or relative to the working directory: status names its directory only', async () => {
    const user = path.join(home.dir, 'user');
    cpSync(bundledModelDir(), path.join(user, 'acme-client', 'model'), { recursive: true });
    for (const spec of ['~/acme-client/model', path.relative(process.cwd(), path.join(user, 'acme-client', 'model'))]) {
      const c = await served({ HOME: user, SIMGREP_MODEL: spec });
      try {
        const dir = `model-${spec.startsWith('~') ? 'home' : 'rel'}`;
        mkdirSync(path.join(root, dir), { recursive: true });
        writeFileSync(path.join(root, dir, 'a.ts'), 'export const retry = 1;\n');
        expect((await c.callTool({ name: 'index', arguments: { directory: dir } }) as ToolResult).isError, spec).toBeUndefined();
        const status = await c.callTool({ name: 'status', arguments: { directory: dir } }) as ToolResult;
        expect(status.structuredContent, spec).toMatchObject({ indexed: true, model: 'model' });
        expect(all(status), spec).not.toContain('acme-client');
      } finally {
        await c.close();
      }
    }
  }, 120_000);
});
