// The MCP tools' top_k is the CLI's --top-k (trial39). The ranking's candidate pool grows with K (4K+10
// chunks; a file whose several chunks are candidates is raised), so its top K is not always the top K of
// K+1: the tools asked the library for top_k + 1 (to say `truncated`) and cut one, and on this tree
// answered top_k 2 with another second match than `simgrep --top-k 2`. They now ask for top_k and read
// `truncated` from the answer's `more`. Checked over a scan (the index being built) and the fresh index.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath, runCli } from '../helpers/cli.js';
import { isolatedHome } from '../helpers/isolated-home.js';

type ToolResult = { isError?: boolean; content: { text: string }[]; structuredContent?: Record<string, unknown> & { matches: Match[]; index: string; truncated: boolean } };
type Match = { path: string; start_line: number; end_line: number; match_line: number };

const QUERY = 'retry the upload';
let home: ReturnType<typeof isolatedHome>;
let root = '';
let client: Client;

/** One strong chunk (alpha), a file of many weak chunks (beta) and fillers between them in relevance. */
function writeTree(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const pad = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = compute(${i});`).join('\n');
  writeFileSync(path.join(dir, 'alpha.ts'), 'export function retryUpload() {\n  // retry the upload with backoff\n  return backoff(upload);\n}\n');
  const chunks = Array.from({ length: 8 }, (_, c) => `export function part${c}() {\n  // ${c === 0 ? 'retry the upload' : 'the upload'}\n${pad(44)}\n}`);
  writeFileSync(path.join(dir, 'beta.ts'), chunks.join('\n') + '\n');
  for (let f = 0; f < 14; f++) writeFileSync(path.join(dir, `filler${f}.ts`), `export function f${f}() {\n  // retry the upload later ${'x'.repeat(f)}\n${pad(10 + f * 3)}\n}\n`);
}

const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<ToolResult>;
const where = (m: Match) => `${path.relative(root, m.path)}:${m.start_line}-${m.end_line}@${m.match_line}`;

/** The CLI's answer (a scan), as the MCP tools give places: relative path, 1-based inclusive lines. */
async function cli(args: string[]): Promise<string[]> {
  const r = await runCli(['--jsonl', '--no-index', '--no-server', '-J', '0', ...args], { env: home.env, cwd: root });
  expect(r.stderr).toBe('');
  return r.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { filename: string; start_line: number; end_line: number; match_line: number })
    .map((x) => `${path.relative(root, path.resolve(root, x.filename))}:${x.start_line}-${x.end_line}@${x.match_line}`);
}

beforeAll(async () => {
  home = isolatedHome('simgrep-mcp-topk-');
  root = path.join(home.dir, 'tree');
  writeTree(root);
  client = new Client({ name: 'simgrep-e2e-topk', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [cliPath, 'mcp', root, '-J', '0'], env: { ...process.env as Record<string, string>, ...home.env, HF_HUB_OFFLINE: '1' }, stderr: 'ignore' }));
});
afterAll(async () => {
  await client?.close();
  home.restore();
});

describe('top_k means the CLI\'s --top-k', () => {
  it('search: the same matches as simgrep --top-k K, for K = 1..4, from a scan and from the index', async () => {
    const want: Record<number, string[]> = {};
    for (let k = 1; k <= 4; k++) want[k] = await cli(['--top-k', String(k), '-n', '1', QUERY, '.']);
    // The tree this test is about: the top 2 of K = 2 is not the top 2 of K = 3.
    expect(want[2]).not.toEqual((await cli(['--top-k', '3', '-n', '1', QUERY, '.'])).slice(0, 2));
    let fresh = false;
    for (let round = 0; round < 600 && !fresh; round++) {
      for (let k = 1; k <= 4; k++) {
        const r = await call('search', { query: QUERY, top_k: k, n_lines: 1, max_tokens: 100_000 });
        expect(r.isError).toBeUndefined();
        expect([k, r.structuredContent!.index, r.structuredContent!.matches.map(where)]).toEqual([k, r.structuredContent!.index, want[k]]);
        expect(r.structuredContent!.truncated).toBe(true);
        if (k === 4) fresh = r.structuredContent!.index === 'fresh';
      }
      if (!fresh) await new Promise((res) => setTimeout(res, 100));
    }
    expect(fresh).toBe(true);
  });

  it('truncated is false when every match came back', async () => {
    const r = await call('search', { query: QUERY, top_k: 50, n_lines: 0, max_tokens: 100_000 });
    expect(r.structuredContent!.matches.length).toBeLessThan(50);
    expect(r.structuredContent!.truncated).toBe(false);
  });

  it('find_related: the same matches as simgrep --like, and per_file as --per-file', async () => {
    for (let k = 1; k <= 4; k++) {
      const want = await cli(['--top-k', String(k), '-n', '1', '--like', 'alpha.ts:2', '.']);
      const r = await call('find_related', { file_path: 'alpha.ts', line: 2, top_k: k, n_lines: 1, max_tokens: 100_000 });
      expect([k, r.structuredContent!.matches.map(where)]).toEqual([k, want]);
      const perFile = await cli(['--top-k', String(k), '-n', '1', '--per-file', '1', QUERY, '.']);
      const p = await call('search', { query: QUERY, top_k: k, n_lines: 1, per_file: 1, max_tokens: 100_000 });
      expect([k, p.structuredContent!.matches.map(where)]).toEqual([k, perFile]);
    }
  });
});
