// Regression (trial37): a resident process (MCP, serve) watched only the directories that held a
// searched file, so a file created later in a directory its walk had listed but that held none (an
// empty directory, one holding only ignored files) was never seen: the answer said `index: fresh`
// and left it out (`simgrep serve` answered exit 1 where a scan found it), until some other change.
// Likewise a directory removed and made again (rm -rf, a checkout): its old watcher saw nothing in the
// new one, so files written there later were never searched.
// Over the MCP SDK's own client and a real `simgrep mcp`, against the CLI's scan of the same tree.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { mcpClient } from '../helpers/mcp-client.js';
import { isolatedHome } from '../helpers/isolated-home.js';

let home: ReturnType<typeof isolatedHome>;
let root = '';
let client: Client;

type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: { index?: string; files?: string[]; matches?: { path: string }[] } };
const QUERY = { query: 'reconcile the quarterly ledger', top_k: 10, files_with_matches: true };
const search = () => client.callTool({ name: 'search', arguments: QUERY }) as Promise<ToolResult>;
const filesOf = (r: ToolResult) => (r.structuredContent?.matches ?? []).map((m) => path.relative(root, m.path)).sort();
async function scanned(): Promise<string[]> {
  const r = await runCli(['-l', '--no-index', '--top-k', '10', QUERY.query, '.'], { cwd: root, env: home.env });
  expect(r.code === 0 || r.code === 1).toBe(true);
  return r.stdout.split('\n').filter(Boolean).map((p) => path.normalize(p)).sort();
}

beforeAll(async () => {
  home = isolatedHome('simgrep-watch-empty-');
  root = path.join(home.dir, 'project');
  mkdirSync(path.join(root, 'src'), { recursive: true });
  writeFileSync(path.join(root, 'src', 'ledger.ts'), 'export function reconcileQuarterlyLedger(entries) {\n  return entries.filter(Boolean);\n}\n');
  mkdirSync(path.join(root, 'empty'));
  mkdirSync(path.join(root, 'logs'));
  writeFileSync(path.join(root, '.gitignore'), '*.log\n');
  writeFileSync(path.join(root, 'logs', 'run.log'), 'reconcile the quarterly ledger: ignored\n');
  client = await mcpClient(root, home.env);
}, 60_000);
afterAll(async () => {
  await client?.close();
  home.restore();
});

it('a file created in a listed directory that held no searched file is found, as a scan finds it', async () => {
  let r = await search();
  for (let i = 0; r.structuredContent?.index !== 'fresh' && i < 300; i++) {
    await new Promise((res) => setTimeout(res, 100));
    r = await search();
  }
  expect(r.structuredContent?.index).toBe('fresh');
  expect(filesOf(await search())).toEqual(['src/ledger.ts']); // watched, walk cached
  writeFileSync(path.join(root, 'empty', 'late.md'), 'Reconcile the quarterly ledger before the audit.\n');
  writeFileSync(path.join(root, 'logs', 'notes.md'), 'How we reconcile the quarterly ledger.\n');
  const after = await search();
  expect(after.structuredContent?.index).toBe('fresh');
  expect(filesOf(after)).toEqual(['empty/late.md', 'logs/notes.md', 'src/ledger.ts']);
  expect(filesOf(after)).toEqual(await scanned());
}, 60_000);

it('a directory removed and made again is watched again: a file created in it later is found', async () => {
  mkdirSync(path.join(root, 'again'));
  writeFileSync(path.join(root, 'again', 'first.md'), 'The quarterly ledger is reconciled here first.\n');
  expect(filesOf(await search())).toContain('again/first.md');
  expect(filesOf(await search())).toContain('again/first.md'); // walk cached, again/ watched
  rmSync(path.join(root, 'again'), { recursive: true });
  mkdirSync(path.join(root, 'again'));
  expect(filesOf(await search())).not.toContain('again/first.md');
  expect(filesOf(await search())).not.toContain('again/first.md');
  writeFileSync(path.join(root, 'again', 'second.md'), 'Reconcile the quarterly ledger once more.\n');
  const after = await search();
  expect(after.structuredContent?.index).toBe('fresh');
  expect(filesOf(after)).toContain('again/second.md');
  expect(filesOf(after)).toEqual(await scanned());
}, 60_000);
