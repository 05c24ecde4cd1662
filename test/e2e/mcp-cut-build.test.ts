// An index build cut short (the resident engine killed with kill -9 while it built the index in the
// background) leaves tables without workspace.json. The next search, through a new engine, used those
// tables as an index: it indexed the rest of the tree before answering (15 s of a 1,024-file tree at
// trial34, the agent waiting; docs/agents.md: "an agent never waits on a cold index"). It now answers
// from a scan, says `building`, finishes the build in the background and then answers `fresh`, the same.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, expect, it } from 'vitest';
import { cliPath } from '../helpers/cli.js';
import { isolatedHome } from '../helpers/isolated-home.js';

type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, unknown>; _meta?: Record<string, unknown> };

const WORDS = ['upload', 'retry', 'invoice', 'socket', 'parser', 'render', 'cache', 'token', 'backoff', 'queue', 'payment', 'login'];
const file = (seed: number, lines: number) => Array.from({ length: lines }, (_, i) => `const ${WORDS[(seed + i) % 12]}${i} = ${WORDS[(seed * 7 + i) % 12]}(${i}); // ${WORDS[(i * 5 + seed) % 12]} handling`).join('\n');
const home = isolatedHome('simgrep-mcp-cut-build-');
const clients: Client[] = [];
const engines = new Set<number>();
const alive = (pid: number) => { try { process.kill(pid, 0); return true; } catch { return false; } };
const enginePid = (r: ToolResult) => (r._meta?.['simgrep/engine'] as { pid: number } | undefined)?.pid ?? 0;
const workspaces = () => path.join(home.env.SIMGREP_HOME, 'workspaces');
/** The one workspace's commits so far, and whether a build of it finished (workspace.json). */
const built = () => {
  const names = existsSync(workspaces()) ? readdirSync(workspaces()) : [];
  const dir = path.join(workspaces(), names[0] ?? 'none');
  // Rows of the tree committed: a version of the files' table past its first (the empty table the build
  // makes as it starts; a commit writes its file states after its chunks). Not its data files: LanceDB
  // writes one before the version that holds it, and a kill between the two leaves nothing committed
  // (CI saw `files: 0` so, stop 53).
  let commits = 0;
  try {
    const versions = readdirSync(path.join(dir, 'files.lance', '_versions')).filter((n) => n.endsWith('.manifest'));
    commits = Math.max(0, versions.length - 1);
  } catch { /* none yet */ }
  return { commits, finished: existsSync(path.join(dir, 'workspace.json')) };
};

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  // Never pid 0 (this process group: vitest itself) nor below.
  for (const pid of engines) if (pid > 0 && alive(pid)) process.kill(pid, 'SIGKILL');
  for (const pid of engines) for (let i = 0; i < 200 && alive(pid); i++) await new Promise((r) => setTimeout(r, 25));
  home.restore();
});

it.runIf(process.platform === 'linux')('a search after the engine was killed mid-build answers at once from a scan and finishes the build in the background', async () => {
  const root = path.join(home.dir, 'project');
  // 90,000 lines: the build commits every 65,536 lines (chunk-batch.ts), so it is killed between its two commits.
  for (let d = 0; d < 4; d++) {
    mkdirSync(path.join(root, `m${d}`), { recursive: true });
    for (let f = 0; f < 75; f++) writeFileSync(path.join(root, `m${d}`, `f${f}.ts`), file(d * 100 + f, 300));
  }
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'mcp', root, '-J', '0'],
    env: { ...process.env as Record<string, string>, ...home.env, SIMGREP_RUNTIME_DIR: path.join(home.dir, 'run'), HF_HUB_OFFLINE: '1' },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'simgrep-e2e-cut-build', version: '0.0.0' });
  await client.connect(transport);
  clients.push(client);
  const search = async () => {
    const r = await client.callTool({ name: 'search', arguments: { query: 'retry the invoice upload', top_k: 5 } }) as ToolResult;
    engines.add(enginePid(r));
    return r;
  };

  const first = await search();
  expect(first.structuredContent?.index).toBe('building');
  // Killed once the background build has committed part of the tree, before it finished.
  for (let i = 0; i < 12_000 && built().commits === 0 && !built().finished; i++) await new Promise((r) => setTimeout(r, 10));
  expect(built().commits).toBeGreaterThan(0);
  // An answer of the engine (not of a front that fell back to answering in its own process).
  expect(enginePid(first)).toBeGreaterThan(0);
  process.kill(enginePid(first), 'SIGKILL');
  expect(built().finished).toBe(false);

  // Status first, through the new engine the call starts: the part the killed build wrote is there, so
  // not "not indexed yet" (trial37) but incomplete, with what it holds and what finishes it.
  const status = async () => {
    const r = await client.callTool({ name: 'status', arguments: {} }) as ToolResult;
    engines.add(enginePid(r));
    return r;
  };
  const cut = await status();
  expect(cut.isError).toBeUndefined();
  expect(enginePid(cut)).not.toBe(enginePid(first));
  expect(cut.structuredContent).toMatchObject({ indexed: false, incomplete: true, model: null, updated: null });
  expect(cut.structuredContent?.building).toBeUndefined();
  expect(cut.structuredContent?.files as number).toBeGreaterThan(0);
  expect(cut.structuredContent?.files as number).toBeLessThan(300);
  expect(cut.structuredContent?.chunks as number).toBeGreaterThan(0);
  expect(cut.content[0].text).toContain('is incomplete: no build of it has finished, one was cut short or is still running');
  expect(cut.content[0].text).not.toContain('not indexed yet');

  const next = await search();
  expect(enginePid(next)).not.toBe(enginePid(first));
  // The search queued the rebuild: status says building now, no longer incomplete.
  const rebuilding = (await status()).structuredContent;
  if (!rebuilding?.indexed) expect(rebuilding).toMatchObject({ building: true });
  expect(rebuilding?.incomplete).toBeUndefined();
  // It said `fresh`: it had indexed the rest of the tree before answering.
  expect(next.structuredContent?.index).toBe('building');
  expect(next.structuredContent?.matches).toEqual(first.structuredContent?.matches);
  let later = next;
  for (let i = 0; i < 600 && later.structuredContent?.index !== 'fresh'; i++) {
    await new Promise((r) => setTimeout(r, 100));
    later = await search();
  }
  expect(later.structuredContent?.index).toBe('fresh');
  expect(later.structuredContent?.matches).toEqual(first.structuredContent?.matches);
  expect(built().finished).toBe(true);
}, 180_000);
