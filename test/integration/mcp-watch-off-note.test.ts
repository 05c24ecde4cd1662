// An MCP engine out of inotify watches says so in the agent's first answer from the index (WATCH_OFF), though
// the made-up searches after the background build (mcp/warm-searches.ts) ran first: the walk cache hands its
// note out once, and before notes42 the first made-up search took it and dropped it with its answer, so the
// agent never saw it. Asked through the MCP SDK's own client and the real MCP server and tool runner.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMcpServer } from '../../src/mcp/server.js';
import { warmSearchesRun } from '../../src/mcp/warm-searches.js';
import { toolRunnerTree, uploadFiles } from '../helpers/tool-runner-tree.js';

const t = toolRunnerTree(uploadFiles(6, () => 'retry failed uploads, then read the input file'));
type Answer = { index: string; notes: string[] };

let client: Client;
const real = fs.watch;

beforeAll(async () => {
  // The kernel's limit (fs.inotify.max_user_watches) cannot be lowered by a test: every watch fails as it would.
  fs.watch = (() => { throw Object.assign(new Error('ENOSPC: System limit for number of file watchers reached, watch'), { code: 'ENOSPC' }); }) as unknown as typeof fs.watch;
  syncBuiltinESMExports();
  const [ours, theirs] = InMemoryTransport.createLinkedPair();
  await createMcpServer({ tools: t.runner, version: '0.0.0' }).connect(ours);
  client = new Client({ name: 'watch-off-note', version: '0.0.0' });
  await client.connect(theirs);
});

afterAll(async () => {
  await client?.close();
  await t.runner.settled!();
  fs.watch = real;
  syncBuiltinESMExports();
});

const search = async (query: string): Promise<Answer> => {
  const r = await client.callTool({ name: 'search', arguments: { query } });
  expect(r.isError).toBeUndefined();
  return r.structuredContent as Answer;
};
const watchOff = (a: Answer) => a.notes.filter((n) => n.includes('WATCH_OFF'));

it('the agent\'s first answer from the index says watching is off, after the made-up searches ran', async () => {
  const before = warmSearchesRun();
  expect((await search('retry failed uploads')).index).toBe('building');
  let fresh = await search('retry failed uploads');
  for (let i = 0; fresh.index !== 'fresh' && i < 2000; i++) fresh = await search('retry failed uploads');
  expect(fresh.index).toBe('fresh');
  // Made-up searches ran before it (the index's calls wait for them, up to WARM_HOLD_MS: how many fit is the load's).
  expect(warmSearchesRun() - before).toBeGreaterThan(0);
  // Before: [] (the first made-up search's answer took the note and was dropped).
  expect(watchOff(fresh)).toEqual(['1 warning (1 WATCH_OFF): this answer may leave out what they name; the CLI prints them in full: WATCH_OFF: .: watching is off: fs.inotify.max_user_watches reached; every search walks the tree']);
  // Said once: the next answers walk, and say nothing of it.
  expect(watchOff(await search('retry failed uploads'))).toEqual([]);
  expect(watchOff(await search('read the input file'))).toEqual([]);
});
