// --per-file / per_file / files_with_matches keep each file's best hunk, as a search without them shows
// it: before audit44 the per-file search ranked a wider pool (4K hits, widened 4x while a few files held
// them all) and merged the pool's windows before keeping one result per file, so a file matching on
// every other line came back as one hunk of the whole file (400 lines for --top-k 3), its code spent
// from an agent's budget.
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { isolatedHome } from '../helpers/isolated-home.js';
import { mcpClient } from '../helpers/mcp-client.js';

let home: ReturnType<typeof isolatedHome>;
let root = '';

beforeAll(() => {
  home = isolatedHome('simgrep-per-file-hunk-');
  root = path.join(home.dir, 'project');
  mkdirSync(root, { recursive: true });
  writeFileSync(path.join(root, 'notes.md'), Array.from({ length: 200 }, (_, i) => `Retry the upload of part ${i} after a failure.\n\n`).join(''));
  writeFileSync(path.join(root, 'other.py'), 'def retry_upload(part):\n    return send(part)\n');
});
afterAll(() => home.restore());

type Line = { filename: string; start_line: number; end_line: number; match_line: number; content: string };
const jsonl = (out: string): Line[] => out.trim().split('\n').map((l) => JSON.parse(l) as Line);

describe('one result per file is the file\'s best hunk, not its whole pool merged', () => {
  for (const index of ['--no-index', '--index']) {
    it(`--per-file 1 --top-k 3 (${index}): notes.md's hunk is its best line with 3 lines of context`, async () => {
      if (index === '--index') expect((await runCli(['index', root], { env: home.env })).code).toBe(0);
      const r = await runCli(['retry the upload', root, '--per-file', '1', '--top-k', '3', '--jsonl', index], { env: home.env });
      expect(r.code, r.stderr).toBe(0);
      const notes = jsonl(r.stdout).filter((x) => x.filename.endsWith('notes.md'));
      expect(notes.map((x) => [x.start_line, x.end_line, x.match_line])).toEqual([[1, 4, 1]]);
    });
  }

  it('--per-file 2: two hunks of a file whose best hits lie apart, a hit beside a better one adding none', async () => {
    // Matches at lines 11, 13 and 41 (1-based): 11's and 13's windows touch, so the second hunk is 41's (review of
    // audit44: cut per hit, then merged, the file gave one hunk, 8-16, and 41 was left out).
    const dir = path.join(root, 'apart');
    mkdirSync(dir, { recursive: true });
    const lines = Array.from({ length: 50 }, (_, i) => `total_${i} = ${i} * width`);
    lines[10] = 'retry the failed upload now';
    lines[12] = 'retry the failed upload later';
    lines[40] = 'retry the failed upload again';
    writeFileSync(path.join(dir, 'a.py'), lines.join('\n') + '\n');
    const r = await runCli(['retry the failed upload', dir, '--mode', 'line', '--per-file', '2', '--top-k', '5', '--jsonl', '--no-index'], { env: home.env });
    expect(r.code, r.stderr).toBe(0);
    const hunks = jsonl(r.stdout);
    expect(hunks).toHaveLength(2);
    expect(hunks.map((x) => x.match_line).sort((a, b) => a - b)).toEqual([expect.any(Number), 41]);
    expect([11, 13]).toContain(Math.min(...hunks.map((x) => x.match_line)));
    for (const h of hunks) expect(h.end_line - h.start_line).toBeLessThanOrEqual(7);
  });

  it('per_file and files_with_matches over MCP: each match\'s lines are the hunk around its line', async () => {
    const client = await mcpClient(root, home.env);
    try {
      for (const args of [{ per_file: 1 }, { files_with_matches: true, show_preview: true }]) {
        const r = await client.callTool({ name: 'search', arguments: { query: 'retry the upload', top_k: 3, ...args } }) as { structuredContent: { matches: { path: string; start_line: number; end_line: number; match_line: number }[] } };
        const notes = r.structuredContent.matches.filter((m) => m.path.endsWith('notes.md'));
        expect(notes.map((m) => [m.start_line, m.end_line, m.match_line])).toEqual([[1, 4, 1]]);
      }
    } finally {
      await client.close();
    }
  });
});
