// A query of a lone joining or marking character (mend37b): `x \ufe0f- y` made a query term '' (a lone
// presentation selector folds to nothing), and counting it in `const k0 = 1;` grew a list until the heap ran
// out: the CLI exited 134. Now each such query is answered (or refused with a readable error), through the
// spawned CLI with and without an index and the MCP server alike.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { mcpClient } from '../helpers/mcp-client.js';
import { isolatedHome } from '../helpers/isolated-home.js';

/** Lone: a selector, ZWJ, a combining mark, a skin tone, the keycap mark, a variation selector, a tag char. */
const MARKS = ['\ufe0f', '\ufe0e', '\u200d', '\u0301', '\u{1f3fd}', '\u20e3', '\u{e0100}', '\u{e0041}'];
/** The reviewer's query first (the crash), then each mark after a separator among words. */
const QUERIES = ['x \ufe0f- y', '-\ufe0f', MARKS.map((m) => `k0 ${m}- const`).join(' '), MARKS.map((m) => `-${m}`).join(' ')];

let home: ReturnType<typeof isolatedHome>;
let root = '';
let client: Client;
type ToolResult = { isError?: boolean; content: { type: string; text: string }[] };

beforeAll(async () => {
  home = isolatedHome('simgrep-lone-marks-');
  root = path.join(home.dir, 'project');
  mkdirSync(root, { recursive: true });
  writeFileSync(path.join(root, 'a.ts'), 'const k0 = 1;\n');
  writeFileSync(path.join(root, 'notes.md'), '# Notes\n\nThe x and the y \ufe0f meet here.\n');
  client = await mcpClient(root, home.env);
}, 60_000);
afterAll(async () => {
  await client?.close();
  home.restore();
});

/** An answer (exit 0 or 1: none found) or a readable error (exit 2 with a message), never a crash. */
function answered(r: { code: number | null; stderr: string }, q: string): void {
  expect([0, 1, 2], `${JSON.stringify(q)}: ${r.stderr.slice(0, 300)}`).toContain(r.code);
  expect(r.stderr, JSON.stringify(q)).not.toMatch(/heap|FATAL|RangeError|TypeError|\n\s+at /);
  if (r.code === 2) expect(r.stderr.trim().length).toBeGreaterThan(0);
}

describe('a query of lone marks', () => {
  it('the CLI answers the reviewer\'s `x \\ufe0f- y` over `const k0 = 1;` (was: exit 134, heap out of memory)', async () => {
    const r = await runCli(['--jsonl', '--no-index', 'x \ufe0f- y', root], { env: home.env });
    answered(r, 'x \ufe0f- y');
    expect(r.code).toBe(0);
  }, 60_000);

  it('the CLI answers each query, scanning and from an index', async () => {
    for (const q of QUERIES.slice(1)) answered(await runCli(['--jsonl', '--no-index', '--mode', 'lexical', q, root], { env: home.env }), q);
    const built = await runCli(['index', root, '-w', 'marks'], { env: home.env });
    expect(built.code, built.stderr).toBe(0);
    for (const q of QUERIES) {
      const r = await runCli(['--jsonl', '-w', 'marks', q, root], { env: home.env });
      answered(r, q);
    }
  }, 120_000);

  it('the MCP server answers each query', async () => {
    for (const q of QUERIES) {
      const r = await client.callTool({ name: 'search', arguments: { query: q, k: 5 } }) as ToolResult;
      const text = r.content.map((c) => c.text).join('\n');
      expect(text, JSON.stringify(q)).not.toMatch(/heap|RangeError|TypeError/);
      if (r.isError) expect(text.length).toBeGreaterThan(0);
    }
  }, 120_000);
});
