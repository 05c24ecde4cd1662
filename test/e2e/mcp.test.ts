// simgrep mcp end to end: the MCP SDK's own client spawns the built CLI over stdio and lists tools,
// reads their schemas, calls them (progress included), sends bad arguments and concurrent calls,
// and tries to leave the root (.., a prefix-sharing sibling, a symlink out).
import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath } from '../helpers/cli.js';
import { isolatedHome } from '../helpers/isolated-home.js';

let home: ReturnType<typeof isolatedHome>;
let root = '';
let client: Client;
let stderr = '';
const protocolErrors: Error[] = [];

type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, unknown> };
const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<ToolResult>;

/** A search's answer once the root's background index build has finished and the index answers (polled; at most 60 s). */
async function searchWhenFresh(args: Record<string, unknown>): Promise<ToolResult> {
  for (let i = 0; i < 600; i++) {
    const r = await call('search', args);
    if (r.structuredContent?.index === 'fresh') return r;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error('the background index build did not finish in 60 s');
}

beforeAll(async () => {
  home = isolatedHome('simgrep-mcp-');
  root = path.join(home.dir, 'project');
  mkdirSync(path.join(root, 'src'), { recursive: true });
  mkdirSync(path.join(home.dir, 'project_evil'), { recursive: true });
  writeFileSync(path.join(home.dir, 'project_evil', 'secret.txt'), 'retry the failed upload secretly\n');
  writeFileSync(path.join(root, 'src', 'upload.ts'), 'export function retryUpload(file) {\n  return backoff(() => upload(file));\n}\n');
  writeFileSync(path.join(root, 'src', 'config.ts'), 'export function parseConfig(text) {\n  return JSON.parse(text);\n}\n');
  writeFileSync(path.join(root, 'README.md'), '# Project\n\nUploads are retried with exponential backoff.\n');
  symlinkSync(path.join(home.dir, 'project_evil'), path.join(root, 'escape'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'mcp', root, '-J', '0'],
    env: { ...process.env as Record<string, string>, ...home.env, HF_HUB_OFFLINE: '1' },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (d) => { stderr += String(d); });
  client = new Client({ name: 'simgrep-e2e', version: '0.0.0' });
  client.onerror = (e) => { protocolErrors.push(e); };
  await client.connect(transport);
});
afterAll(async () => {
  await client?.close();
  home.restore();
});

describe('simgrep mcp', () => {
  it('lists search, find_related, index and status with their input and output schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['find_related', 'index', 'search', 'status']);
    const search = tools.find((t) => t.name === 'search')!;
    expect(Object.keys(search.inputSchema.properties ?? {}).sort()).toEqual(['directory', 'extensions', 'files_with_matches', 'globs', 'k', 'max_tokens', 'mode', 'n_lines', 'per_file', 'query', 'show_preview', 'top_k', 'types', 'types_not']);
    expect(search.inputSchema.required).toEqual(['query']);
    expect(Object.keys(search.outputSchema?.properties ?? {}).sort()).toEqual(['budget', 'count', 'files_searched', 'index', 'matches', 'notes', 'truncated']);
  });

  it('status before any search says the root is not indexed', async () => {
    const r = await call('status', {});
    expect(r.structuredContent).toEqual({ directory: root, indexed: false, workspace: null, files: 0, chunks: 0, lines: 0, model: null, updated: null });
  });

  it('the first search answers at once from a scan while the index builds in the background, then from the index', async () => {
    const r = await call('search', { query: 'retry the upload with backoff', k: 1, n_lines: 0 });
    expect(r.isError).toBeUndefined();
    expect(r.structuredContent).toEqual({
      matches: [{ path: path.join(root, 'src', 'upload.ts'), start_line: 1, end_line: 1, match_line: 1, score: expect.any(Number), code: 'export function retryUpload(file) {' }],
      count: 1, files_searched: 3, truncated: true, index: 'building', notes: [expect.stringMatching(/^the index of this directory is being built in the background/)],
      budget: { max_tokens: 4000, used_tokens: expect.any(Number), compacted: 0, dropped: 0 },
    });
    expect(r.content[0].text).toMatch(new RegExp(`^${path.join(root, 'src', 'upload.ts')}:1-1 \\(score \\d\\.\\d{3}\\)\\nexport function retryUpload`));
    const again = await searchWhenFresh({ query: 'retry the upload with backoff', k: 1, n_lines: 0 });
    expect((await call('status', {})).structuredContent).toMatchObject({ indexed: true, files: 3 });
    expect(again.structuredContent?.matches).toEqual((r.structuredContent as { matches: unknown }).matches);
  });

  it('index reports progress notifications and a summary', async () => {
    writeFileSync(path.join(root, 'src', 'db.ts'), 'export const sql = "select * from the database table";\n');
    const progress: number[] = [];
    const r = await client.callTool({ name: 'index', arguments: {} }, undefined, { onprogress: (p) => { progress.push(p.progress); } }) as ToolResult;
    expect(r.structuredContent).toEqual({ workspace: expect.stringMatching(/^project-[0-9a-f]{8}$/), files: 4, indexed: 1, unchanged: 3, deleted: 0, chunks: 1, errors: 0 });
    expect(progress.length).toBeGreaterThanOrEqual(1);
    // MCP: "the progress value MUST increase with each notification" (before audit44 it was the files
    // checked, the same in every notification while the indexed count grew).
    for (let i = 1; i < progress.length; i++) expect(progress[i], String(progress)).toBeGreaterThan(progress[i - 1]);
    expect(Math.max(...progress)).toBeLessThanOrEqual(4 + 1);
  });

  it('a subdirectory is searched on its own', async () => {
    const r = await call('search', { query: 'parse json config', k: 50, directory: 'src' });
    expect(r.structuredContent?.files_searched).toBe(3);
    expect(r.structuredContent?.truncated).toBe(false);
  });

  // One message for every refusal (issue 28 item 4): it must not tell outside from missing.
  const refused: [string, string][] = [
    ['..', 'the parent'],
    ['../project_evil', 'a sibling sharing the prefix'],
    [path.join(home?.dir ?? '/', 'project_evil'), 'an absolute sibling'],
    ['escape', 'a symlink out of the root'],
    ['src/../../project_evil', 'a .. walk out'],
    ['nope', 'a missing directory'],
    ['README.md', 'a file'],
  ];
  it.each(refused)('directory %s (%s) is refused', async (directory) => {
    const dir = directory.startsWith('/') && !directory.startsWith(root) ? path.join(path.dirname(root), 'project_evil') : directory;
    const r = await call('search', { query: 'retry', directory: dir });
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toBe(`BAD_FLAG: directory must be an existing directory inside the server's root ${realpathSync(root)}; pass a path relative to the root`);
  });

  it('bad arguments are errors, not crashes: missing or empty query, wrong types, out of bounds', async () => {
    for (const args of [{}, { query: '' }, { query: 'retry', k: 'ten' }, { query: 'retry', mode: 'fuzzy' }, { query: 'retry', k: 500 }, { query: 'retry', top_k: 0 }, { query: 'retry', max_tokens: 10 }]) {
      const r = await call('search', args).catch((e: Error) => ({ isError: true, content: [{ type: 'text', text: e.message }] }));
      expect(r.isError, JSON.stringify(args)).toBe(true);
    }
    // Said in the tool's terms, not the CLI's.
    const blank = await call('search', { query: '  ' });
    expect([blank.isError, (blank.content as { text: string }[])[0].text]).toEqual([true, expect.stringContaining('e.g. {"query": "retry failed uploads"}')]);
    // A binary file is never searched: find_related on one is refused, not ranked from its bytes.
    writeFileSync(path.join(root, 'logo.bin'), Buffer.from('retry upload\n\0\x01 backoff\n', 'binary'));
    const binary = await call('find_related', { file_path: 'logo.bin', line: 1 });
    rmSync(path.join(root, 'logo.bin'));
    expect([binary.isError, (binary.content as { text: string }[])[0].text]).toEqual([true, expect.stringContaining('logo.bin is a binary file')]);
    const after = await call('search', { query: 'retry upload', k: 1 });
    expect(after.structuredContent?.count).toBe(1);
  });

  it('concurrent calls all answer, each with its own result', async () => {
    const queries = ['retry upload backoff', 'parse json config', 'database table sql', 'exponential backoff uploads', 'retry upload backoff'];
    const results = await Promise.all(queries.map((q) => call('search', { query: q, k: 1, n_lines: 0 })));
    const top = results.map((r) => (r.structuredContent?.matches as { path: string }[])[0].path);
    expect(top[0]).toBe(top[4]);
    expect(top.map((p) => path.basename(p))).toEqual(['upload.ts', 'config.ts', 'db.ts', 'upload.ts', 'upload.ts']);
  });

  it('a hostile .gitignore line and globs of many stars answer at once (backtracking regular expressions hung the engine)', async () => {
    const dir = path.join(root, 'hostile');
    mkdirSync(dir);
    const stars = 'a*a*a*a*a*a*a*a*a*a*a*a*b';
    writeFileSync(path.join(dir, '.gitignore'), `${stars}\n`);
    writeFileSync(path.join(dir, `${'a'.repeat(200)}.txt`), 'the upload is retried with backoff\n');
    const started = performance.now();
    const r = await client.callTool({ name: 'search', arguments: { query: 'upload retried', directory: 'hostile', globs: [`!${stars}`] } }, undefined, { timeout: 30_000 }) as ToolResult;
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent?.files_searched).toBe(1);
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it('logs only to stderr: stdout carried nothing the client could not parse', () => {
    expect(stderr).toMatch(/MCP server ready on stdio/);
    expect(protocolErrors).toEqual([]);
  });
});
