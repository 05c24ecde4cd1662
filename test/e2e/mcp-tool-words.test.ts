// What the MCP tools say in words, as an agent reads them (audit44): counts in the singular when there
// is one ("1 file searched", not "1 files"), and advice in the tools' own terms (`"mode": "semantic"`,
// not the CLI's `--mode semantic`, which an agent cannot pass).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedHome } from '../helpers/isolated-home.js';
import { mcpClient } from '../helpers/mcp-client.js';

let home: ReturnType<typeof isolatedHome>;
let root = '';
let client: Client;

type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, unknown> };
const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<ToolResult>;

beforeAll(async () => {
  home = isolatedHome('simgrep-mcp-words-');
  root = path.join(home.dir, 'project');
  mkdirSync(path.join(root, 'src'), { recursive: true });
  writeFileSync(path.join(root, 'src', 'upload.py'), 'def upload(path, retries=3):\n    for i in range(retries):\n        send(path)\n');
  writeFileSync(path.join(root, 'src', 'config.ts'), 'export function parseConfig(text) {\n  return JSON.parse(text);\n}\n');
  for (let i = 0; i < 12; i++) writeFileSync(path.join(root, 'src', `upload-step-${i}.ts`), `export function retryUploadStep${i}(file) {\n  return upload(file, ${i});\n}\n`);
  client = await mcpClient(root, home.env);
});
afterAll(async () => {
  await client?.close();
  home.restore();
});

describe('simgrep mcp: the words of an answer', () => {
  it('one file searched is "1 file searched", and no match in it "no match in 1 file"', async () => {
    const hit = await call('search', { query: 'retry upload', types: ['py'], top_k: 1 });
    expect(hit.structuredContent?.files_searched).toBe(1);
    expect(hit.content[0].text).toMatch(/\n\[1 file searched; index: (building|fresh|scanned)\]/);
    const none = await call('search', { query: 'the of and', types: ['py'] });
    expect(none.content[0].text).toMatch(/^no match in 1 file\n\[1 file searched; /);
  });

  it('a query of symbols is refused with advice in the tool\'s terms ("mode": "semantic"), not the CLI\'s --mode', async () => {
    const r = await call('search', { query: '=>' });
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toBe('BAD_QUERY: the query "=>" has no letter or number to look for: simgrep ranks words and meaning, not symbols (grep -F finds them); use identifiers or words, or "mode": "semantic" for the nearest lines anyway');
  });

  it('an argument quoted in a message stays as given: "--mode line" inside it is the agent\'s text, not advice to rewrite (audit44\'s left)', async () => {
    const r = await call('search', { query: 'retry upload', types: ['--mode line'] });
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toMatch(/^BAD_FLAG: unknown file type "--mode line" \(types\); known types: c, /);
  });

  it('a query of stop words notes its advice in the tool\'s terms too', async () => {
    const r = await call('search', { query: 'the of and' });
    const notes = r.structuredContent?.notes as string[];
    expect(notes.join('\n')).toContain('use identifiers or words, or "mode": "semantic" for the nearest lines anyway');
    expect(notes.join('\n')).not.toContain('--mode');
    const numbers = await call('search', { query: '1964' });
    expect((numbers.structuredContent?.notes as string[]).join('\n')).toContain('or use "mode": "lexical" for the lines that hold it ("mode": "line" for the nearest lines)');
  });

  it('a budget that drops locations only (files_with_matches: no code to compact) says what it left out, not "0 matches shown compact"', async () => {
    const r = await call('search', { query: 'retry upload step', files_with_matches: true, top_k: 12, max_tokens: 200 });
    const s = r.structuredContent as { budget: { compacted: number; dropped: number }; notes: string[] };
    expect(s.budget.compacted).toBe(0);
    expect(s.budget.dropped).toBeGreaterThan(0);
    expect(s.notes.filter((n) => n.startsWith('max_tokens'))).toEqual([`max_tokens 200: ${s.budget.dropped} left out; raise max_tokens or narrow the query to see them`]);
  });

  it('budget.used_tokens is the answer\'s own estimate (its structured content\'s characters / 4), not the room kept for the largest cut note', async () => {
    for (const args of [{ query: 'retry upload step', top_k: 3 }, { query: 'retry upload step', top_k: 12, max_tokens: 300 }, { query: 'retry upload step', files_with_matches: true, top_k: 12, max_tokens: 200 }]) {
      const r = await call('search', args);
      const s = r.structuredContent as { budget: { used_tokens: number; max_tokens: number } };
      expect(s.budget.used_tokens).toBe(Math.ceil(JSON.stringify(s).length / 4));
      expect(s.budget.used_tokens).toBeLessThanOrEqual(s.budget.max_tokens);
    }
  });

  it('index and status count one file as "1 file" (a directory of one file)', async () => {
    mkdirSync(path.join(home.dir, 'one'));
    writeFileSync(path.join(home.dir, 'one', 'only.py'), 'def retry_upload(path):\n    send(path)\n');
    const c = await mcpClient(path.join(home.dir, 'one'), home.env);
    try {
      const ix = await c.callTool({ name: 'index', arguments: {} }) as ToolResult;
      expect(ix.content[0].text).toMatch(/^workspace one-\w+: 1 file checked, 1 indexed, 0 unchanged, 0 removed, 0 errors$/);
      const st = await c.callTool({ name: 'status', arguments: {} }) as ToolResult;
      expect(st.content[0].text).toMatch(/: indexed in workspace one-\w+ \(1 file, 1 chunk\)$/);
    } finally {
      await c.close();
    }
  });
});
