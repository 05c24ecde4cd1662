// A query holding one word of a blob (a hex run of 40,000 characters in a pasted file) scans like any
// other: before audit44 its probe made a regular expression past V8's bound ("Regular expression too
// large") and every file of a scan failed to score (WORKER_FAILED, exit 2, no result), in the CLI and in
// an MCP search's first, scanned answer. Such a word is no term; the query's other words still rank.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { isolatedHome } from '../helpers/isolated-home.js';
import { mcpClient } from '../helpers/mcp-client.js';

let home: ReturnType<typeof isolatedHome>;
let root = '';
const blob = 'f0'.repeat(20_000);

beforeAll(() => {
  home = isolatedHome('simgrep-blob-word-');
  root = path.join(home.dir, 'project');
  mkdirSync(root, { recursive: true });
  writeFileSync(path.join(root, 'upload.py'), 'def retry_upload(path):\n    for i in range(3):\n        send(path)\n');
  writeFileSync(path.join(root, 'config.ts'), 'export function parseConfig(text) {\n  return JSON.parse(text);\n}\n');
  const docs = path.join(root, 'docs');
  mkdirSync(docs, { recursive: true });
  // Enough Markdown for the scan to probe the weak documents' lines for the query's terms (prose-counter.ts).
  for (let d = 0; d < 40; d++) writeFileSync(path.join(docs, `doc${d}.md`), Array.from({ length: 300 }, (_, i) => i === 7 * d + 3 ? 'Retry the upload when the network fails.' : `Section ${d}.${i} describes the billing report layout.`).join('\n') + '\n');
});
afterAll(() => home.restore());

describe('a query with a 40,000-character word', () => {
  for (const mode of ['hybrid', 'lexical']) {
    it(`scans in ${mode} mode: the other words rank, no file fails (CLI)`, async () => {
      const r = await runCli([`retry upload ${blob}`, root, '--mode', mode, '--no-index', '--top-k', '1', '-l'], { env: home.env });
      expect([r.code, r.stdout, r.stderr]).toEqual([0, `${path.join(root, 'upload.py')}\n`, '']);
    });
  }

  it('a query that is only a blob says why it has no word to look for, and what to do (audit44\'s left: "no word to look for" alone)', async () => {
    const why = 'has no word to look for: each of its words is over 16,384 characters (a blob, such as a base64 or hex run, which is never looked up: no name is that long); search for a name or a few words from it instead';
    const letters = 'QmFzZTY0'.repeat(2_500); // a base64 run of 20,000 characters, one word
    for (const mode of ['hybrid', 'lexical', 'semantic']) {
      const r = await runCli([letters, root, '--mode', mode, '--no-index'], { env: home.env });
      expect([r.code, r.stdout, r.stderr]).toEqual([2, '', `simgrep: the query "${letters.slice(0, 60)}…" ${why}\n`]);
    }
  });

  it('a query with a 40,000-character number run (a pasted JSON array) scans and answers as the index does', async () => {
    // Review of audit44: a run of digits past V8's bound made the prose probe's regular expression fail at its first
    // exec: 35 of 40 Markdown files failed to score (exit 2), and the index answered with other files.
    const array = `[${Array.from({ length: 20_000 }, (_, i) => i % 10).join(',')}]`;
    const query = `retry the upload ${array}`;
    const scan = await runCli([query, path.join(root, 'docs'), '--no-index', '--top-k', '3', '--jsonl'], { env: home.env });
    expect([scan.code, scan.stderr]).toEqual([0, '']);
    expect(scan.stdout).toMatch(/Retry the upload/);
    expect((await runCli(['index', path.join(root, 'docs')], { env: home.env })).code).toBe(0);
    const indexed = await runCli([query, path.join(root, 'docs'), '--index', '--top-k', '3', '--jsonl'], { env: home.env });
    expect([indexed.code, indexed.stdout]).toEqual([0, scan.stdout]);
  });

  it('an MCP search\'s first answer (from the files) has the match and no warning', async () => {
    const client = await mcpClient(root, home.env);
    try {
      const r = await client.callTool({ name: 'search', arguments: { query: `def retry_upload(path):\n    data = "${blob}"\n`, top_k: 1 } }) as { structuredContent: { matches: { path: string }[]; notes: string[]; index: string } };
      expect(r.structuredContent.index).toBe('building');
      expect(r.structuredContent.matches.map((m) => m.path)).toEqual([path.join(root, 'upload.py')]);
      expect(r.structuredContent.notes.filter((n) => !n.startsWith('the index of this directory is being built'))).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
