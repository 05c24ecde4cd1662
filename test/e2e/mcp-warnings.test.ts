// Regression (trial34): MCP answers never carried the search's warnings, so an agent trusted an answer
// that left files out. Over the MCP SDK's own client and a real `simgrep mcp`: ignore files that cannot
// be used (each `.gitignore` here is a directory: what a root user cannot make unreadable with chmod)
// come back as one note, by code and path, within the answer's budget, naming nothing outside the root.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpClient } from '../helpers/mcp-client.js';
import { isolatedHome } from '../helpers/isolated-home.js';

let home: ReturnType<typeof isolatedHome>;
let root = '';
let client: Client;

type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, unknown> };
const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<ToolResult>;
const SUBDIRS = 30;

beforeAll(async () => {
  home = isolatedHome('simgrep-mcp-warn-');
  root = path.join(home.dir, 'project');
  mkdirSync(path.join(root, 'src'), { recursive: true });
  writeFileSync(path.join(root, 'src', 'upload.ts'), 'export function retryUpload(file) {\n  return backoff(() => upload(file));\n}\n');
  mkdirSync(path.join(root, '.gitignore'));
  for (let i = 0; i < SUBDIRS; i++) {
    const d = path.join(root, 'pkg', `p${String(i).padStart(2, '0')}`);
    mkdirSync(path.join(d, '.gitignore'), { recursive: true });
    writeFileSync(path.join(d, 'mod.ts'), `export const value${i} = ${i};\n`);
  }
  client = await mcpClient(root, home.env);
}, 60_000);
afterAll(async () => {
  await client?.close();
  home.restore();
});

const warningNoteOf = (r: ToolResult) => (r.structuredContent!.notes as string[]).find((n) => /^\d+ warnings? \(/.test(n));

describe('MCP answers carry the search warnings', () => {
  it('search: one note with the count by code, the first paths and "N more", in the text too', async () => {
    const r = await call('search', { query: 'retry the upload with backoff', k: 1 });
    expect(r.isError).toBeUndefined();
    const note = warningNoteOf(r)!;
    expect(note).toMatch(new RegExp(`^${SUBDIRS + 1} warnings \\(${SUBDIRS + 1} IGNORE_FILE_UNUSABLE\\): `));
    // With its message (what went wrong, what to do), the path relative to the root (left35: codes and paths only).
    expect(note).toContain('IGNORE_FILE_UNUSABLE: .gitignore is a directory, not a file of rules; its ignore rules were not applied; IGNORE_FILE_UNUSABLE: pkg/p00/.gitignore is a directory, not a file of rules; its ignore rules were not applied');
    expect(note).not.toContain(root);
    expect(note).toMatch(/; and \d+ more$/);
    expect(r.content[0].text).toContain(`note: ${note}`);
  });

  it('find_related says them too', async () => {
    const r = await call('find_related', { file_path: 'src/upload.ts', line: 1, k: 1 });
    expect(r.isError).toBeUndefined();
    expect(warningNoteOf(r)).toMatch(new RegExp(`^${SUBDIRS + 1} warnings \\(${SUBDIRS + 1} IGNORE_FILE_UNUSABLE\\)`));
  });

  it('the smallest budget is kept, the note included, and no path outside the root is named', async () => {
    for (const tool of ['search', 'find_related'] as const) {
      const args = tool === 'search' ? { query: 'retry the upload with backoff', max_tokens: 200 } : { file_path: 'src/upload.ts', line: 1, max_tokens: 200 };
      const r = await call(tool, args);
      const note = warningNoteOf(r)!;
      expect(note).toMatch(/^31 warnings \(31 IGNORE_FILE_UNUSABLE\)/);
      expect(JSON.stringify(r.structuredContent).length / 4).toBeLessThanOrEqual(200);
      expect((r.structuredContent!.budget as { used_tokens: number }).used_tokens).toBeLessThanOrEqual(200);
      const outside = JSON.stringify(r).replaceAll(root, '<root>');
      expect(outside).not.toContain(home.dir);
    }
  });

  it('once the index answers, the walk warnings still come back', async () => {
    let r: ToolResult | undefined;
    for (let i = 0; i < 600; i++) {
      r = await call('search', { query: 'retry the upload with backoff', k: 1 });
      if (r.structuredContent?.index === 'fresh') break;
      await new Promise((res) => setTimeout(res, 100));
    }
    expect(r!.structuredContent!.index).toBe('fresh');
    expect(warningNoteOf(r!)).toMatch(/^31 warnings \(31 IGNORE_FILE_UNUSABLE\)/);
    expect(JSON.stringify(r).replaceAll(root, '<root>')).not.toContain(home.dir);
  });
});
