// A ranking snapshot that `simgrep workspace status`, `workspace prune` or the MCP `status` tool rebuilt from
// the index (none on disk) and could not save is said by them (mend41, review of integ41): each run reports
// only what it met itself since integ41, and these called the snapshot's load and save with nothing to tell,
// so nobody said it (before integ41 the next search of a resident process did, though it was not its own).
// The save fails where a directory stands at the snapshot file's name (a rename onto it fails: EISDIR).
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { isolatedHome } from '../helpers/isolated-home.js';
import { mcpClient } from '../helpers/mcp-client.js';

const home = isolatedHome('simgrep-status-not-saved-');
let client: Client | null = null;
afterAll(async () => {
  await client?.close();
  home.restore();
});

type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent: { indexed: boolean; files: number; notes?: string[] } };
const WORDS = ['upload', 'retry', 'invoice', 'socket', 'parser', 'render', 'cache', 'token', 'backoff', 'queue'];
const file = (seed: number, lines: number) => Array.from({ length: lines }, (_, i) => `const ${WORDS[(seed + i) % 10]}${i} = ${WORDS[(seed * 3 + i) % 10]}(${i});`).join('\n');

/** An indexed tree of 8 files whose workspace has no snapshot file, and a directory where it would go. */
async function unsavable(name: string): Promise<{ root: string; dir: string }> {
  const root = path.join(home.dir, name);
  mkdirSync(root, { recursive: true });
  for (let f = 0; f < 8; f++) writeFileSync(path.join(root, `f${f}.ts`), file(f, 30));
  expect((await runCli(['index', root, '-w', name], { env: home.env })).code).toBe(0);
  const dir = path.join(home.env.SIMGREP_HOME, 'workspaces', name);
  for (const f of readdirSync(dir).filter((n) => n.startsWith('snapshot'))) rmSync(path.join(dir, f));
  mkdirSync(path.join(dir, 'snapshot.bin', 'in-the-way'), { recursive: true });
  return { root, dir };
}

const notSaved = (dir: string, what: string) => new RegExp(`^simgrep: workspace \\S+: the ranking snapshot was ${what} \\(EISDIR: [^\\n]*${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/snapshot\\.bin'\\); every search rebuilds it from the index, slower; free some space and run simgrep index again\\n`);

it('simgrep workspace status says the snapshot it rebuilt was not saved (exit 0), in --json too', async () => {
  const { dir } = await unsavable('st');
  const text = await runCli(['workspace', 'status', '-w', 'st'], { env: home.env });
  expect([text.code, text.stdout.split('\n')[3]]).toEqual([0, 'files:     8 (0 binary)']);
  expect(text.stderr).toMatch(notSaved(dir, 'rebuilt from the index but not saved'));
  expect(text.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  const json = await runCli(['workspace', 'status', '-w', 'st', '--json'], { env: home.env });
  const s = JSON.parse(json.stdout) as { files: number; warnings?: { code: string }[] };
  expect([json.code, s.files, s.warnings?.map((w) => w.code)]).toEqual([0, 8, ['SNAPSHOT_NOT_SAVED']]);
}, 120_000);

it('simgrep workspace prune says the snapshot it rebuilt and patched was not saved', async () => {
  const { root, dir } = await unsavable('pr');
  rmSync(path.join(root, 'f5.ts'));
  const prune = await runCli(['workspace', 'prune', '-w', 'pr'], { env: home.env });
  expect(prune.code).toBe(0);
  expect(prune.stderr).toMatch(notSaved(dir, 'not saved'));
  expect(prune.stderr.split('\n').slice(1).join('\n')).toBe('simgrep: workspace pr: removed 1 file that no longer exists\n');
}, 120_000);

it('the MCP status tool says the snapshot it rebuilt was not saved', async () => {
  const { root } = await unsavable('mcp');
  client = await mcpClient(root, home.env);
  const status = await client.callTool({ name: 'status', arguments: {} }) as ToolResult;
  const text = status.content.map((c) => c.text).join('\n');
  expect(status.isError, text).toBeFalsy();
  expect([status.structuredContent.indexed, status.structuredContent.files]).toEqual([true, 8]);
  expect(status.structuredContent.notes).toEqual([expect.stringMatching(/^1 warning \(1 SNAPSHOT_NOT_SAVED\): .*SNAPSHOT_NOT_SAVED: workspace mcp: the ranking snapshot was rebuilt from the index but not saved \(EISDIR: /)]);
  expect(text).toMatch(/\nnote: 1 warning \(1 SNAPSHOT_NOT_SAVED\)/);
  // The index's own directory is named "the index" in a note, never by its path.
  expect(text).not.toContain(home.env.SIMGREP_HOME);
  expect(readFileSync(path.join(home.env.SIMGREP_HOME, 'workspaces', 'mcp', 'workspace.json'), 'utf8')).toContain(root);
}, 120_000);
