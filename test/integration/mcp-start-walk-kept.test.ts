// An MCP engine started over an index built earlier, on a tree where a few files of one directory changed since:
// its made-up searches (mcp/warm-searches.ts) stop at the first changed file (NOT_FRESH) and save nothing, as
// they must (the engine's start writes nothing). Before trust43 they gave their walk back as unsaved, so the
// agent's first search walked the whole tree again and checked every file; now the walk is kept with the
// directories of what changed, and that search checks only those (and what the watchers saw since). Its answer is still a fresh scan's. Asked
// through the MCP SDK's own client and the real MCP server and tool runner; whole walks counted at the walk cache.
import { appendFileSync, mkdirSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { createActionEngine, type ActionEngine } from '../../src/actions/engine.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { createToolRunner, type ToolRunner } from '../../src/mcp/tools.js';
import * as indexer from '../../src/workspace/build/indexer.js';
import { WalkCache } from '../../src/workspace/changes/walk-cache.js';
import * as walkFns from '../../src/workspace/changes/walks.js';
import { defaultName, workspaceDir } from '../../src/workspace/registry.js';
import { isolatedHome } from '../helpers/isolated-home.js';

const DIRS = 8;
const PER_DIR = 5;
let home: ReturnType<typeof isolatedHome>;
let real = '';

beforeAll(async () => {
  home = isolatedHome();
  const tree = path.join(home.dir, 'tree');
  for (let d = 0; d < DIRS; d++) {
    mkdirSync(path.join(tree, `d${d}`), { recursive: true });
    for (let i = 0; i < PER_DIR; i++) writeFileSync(path.join(tree, `d${d}`, `socket${i}.ts`), `export function closeSocket${d}_${i}(s: Socket) {\n  // close the socket when the peer goes away\n  return s.end(${d * PER_DIR + i});\n}\n`);
  }
  real = realpathSync(tree);
  // Indexed as the MCP server indexes it (its own workspace), by an engine since closed.
  const before = createActionEngine({ concurrency: 0, resident: true });
  await before.workspace({ name: defaultName([real]) }).index([real]);
  await before.close();
  // Then two files of d3 changed and one added there, before the engine starts.
  const later = new Date(Date.now() + 5_000);
  for (const i of [1, 3]) {
    const file = path.join(real, 'd3', `socket${i}.ts`);
    writeFileSync(file, `export function openSocket${i}(s: Socket) {\n  // open the socket again after a drop\n  return s.connect(${i});\n}\n`);
    utimesSync(file, later, later);
  }
  writeFileSync(path.join(real, 'd3', 'reconnect.ts'), 'export function reconnect(s: Socket) {\n  // open the socket again after a drop, with a backoff\n  return s.connect(9);\n}\n');
  await new Promise((r) => setTimeout(r, 50));
});
afterAll(() => home.restore());
afterEach(() => { vi.restoreAllMocks(); });

/** The MCP tools of a resident engine over the tree, behind the real MCP server, and the SDK's client of it. */
async function connected(): Promise<{ engine: ActionEngine; runner: ToolRunner; client: Client; close: () => Promise<void> }> {
  const engine = createActionEngine({ concurrency: 0, resident: true });
  const runner = createToolRunner(engine, { real, given: real });
  const [ours, theirs] = InMemoryTransport.createLinkedPair();
  await createMcpServer({ tools: runner, version: '0.0.0' }).connect(ours);
  const client = new Client({ name: 'start-walk-kept', version: '0.0.0' });
  await client.connect(theirs);
  return { engine, runner, client, close: async () => { await client.close(); await runner.close!(); await engine.close(); } };
}

type Answer = { index: string; files_searched: number; matches: { path: string; match_line: number; score: number; code?: string }[] };
const search = async (client: Client, query: string): Promise<Answer> => {
  const r = await client.callTool({ name: 'search', arguments: { query } });
  expect(r.isError, JSON.stringify(r.content)).toBeUndefined();
  return r.structuredContent as Answer;
};

it('the agent\'s first search after an engine\'s start over a changed tree checks only the changed directory, and answers as a fresh scan', async () => {
  const walks = vi.spyOn(WalkCache.prototype as unknown as { walkAgain: (...a: unknown[]) => Promise<unknown> }, 'walkAgain');
  const checks = vi.spyOn(walkFns, 'staleEntries');
  const reads = vi.spyOn(indexer, 'updateIndex');
  const query = 'open the socket again after a drop';
  const e = await connected();
  let first: Answer;
  try {
    // As the engine does once it listens: the made-up searches stop at the changed files, saving and reading none.
    expect(await e.runner.warmUp!()).toEqual({ workspace: defaultName([real]), ran: 0 });
    expect(walks.mock.calls.length).toBe(1);
    expect(checks.mock.calls.length).toBe(1);
    expect(reads.mock.calls.length).toBe(0);
    // A file of d5 written in place after them: its watcher names d5 too.
    appendFileSync(path.join(real, 'd5', 'socket2.ts'), '// open the socket again after a drop: once more\n');
    await new Promise((r) => setTimeout(r, 200));
    first = await search(e.client, query);
    expect(first.index).toBe('fresh');
    // No walk of the tree again (before: 2, the walk given back unsaved), and the stale check looked only at d3
    // (before: every directory, no changedDirs).
    expect(walks.mock.calls.length).toBe(1);
    expect(checks.mock.calls.length).toBe(2);
    expect([...(checks.mock.calls[1][3] ?? ['every directory'])].sort()).toEqual([path.join(real, 'd3'), path.join(real, 'd5')]);
    const changed = ['d3/reconnect.ts', 'd3/socket1.ts', 'd3/socket3.ts', 'd5/socket2.ts'];
    expect((await checks.mock.results[1].value as { path: string }[]).map((x) => path.relative(real, x.path)).sort()).toEqual(changed);
    // The four files read and saved once, by this search.
    expect(reads.mock.calls.map((c) => c[0].entries?.map((x) => path.relative(real, x.path)).sort())).toEqual([changed]);
    expect(first.files_searched).toBe(DIRS * PER_DIR + 1);
    // The new text answers (the changed files, none of the old).
    const top = first.matches.map((m) => path.relative(real, m.path)).slice(0, 3);
    expect(top.length).toBe(3);
    for (const p of top) expect(changed).toContain(p);
  } finally {
    await e.close();
  }
  // A fresh scan's answer: the same tools with no index (the first search answers from the files).
  rmSync(workspaceDir(defaultName([real])), { recursive: true, force: true });
  const s = await connected();
  try {
    const scanned = await search(s.client, query);
    expect(scanned.index).toBe('building');
    expect(first.matches).toEqual(scanned.matches);
    expect(first.files_searched).toBe(scanned.files_searched);
  } finally {
    await s.close();
  }
}, 60_000);
