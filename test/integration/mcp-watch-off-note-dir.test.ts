// The WATCH_OFF that the MCP engine's made-up searches after a background build met (mcp/warm-searches.ts) is
// handed only to an answer of the directory they searched, naming it: the note is of that walk. Before notes42's
// review it was kept by workspace name, and went to the agent's first answer of any directory the workspace
// covers (here `sub`, whose own walk is watched), while the answers of the root, which walk the tree every
// time, never said it. Out of watches for the root's directory only; through the MCP SDK's own client.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMcpServer } from '../../src/mcp/server.js';
import { toolRunnerTree } from '../helpers/tool-runner-tree.js';

const files: Record<string, string> = {};
for (let i = 0; i < 6; i++) files[`upload${i}.ts`] = `export function retryUpload${i}() { return ${i}; } // retry failed uploads\n`;
for (let i = 0; i < 3; i++) files[`sub/part${i}.ts`] = `export function retryPart${i}() { return ${i}; } // retry failed uploads\n`;
const t = toolRunnerTree(files);
type Answer = { index: string; notes: string[] };

let client: Client;
const real = fs.watch;

beforeAll(async () => {
  const root = fs.realpathSync(t.tree);
  // A warning of the root's own answers (IGNORE_FILE_UNUSABLE: a rule file that is a link to itself), which the handed-on note comes after.
  fs.symlinkSync('.ignore', path.join(root, '.ignore'));
  // The kernel's limit cannot be lowered by a test: the root directory's watch fails as it would (a walk of sub/ never watches it).
  fs.watch = ((p: string, ...rest: unknown[]) => {
    if (path.resolve(String(p)) === root) throw Object.assign(new Error('ENOSPC: System limit for number of file watchers reached, watch'), { code: 'ENOSPC' });
    return (real as unknown as (...a: unknown[]) => unknown)(p, ...rest);
  }) as unknown as typeof fs.watch;
  syncBuiltinESMExports();
  const [ours, theirs] = InMemoryTransport.createLinkedPair();
  await createMcpServer({ tools: t.runner, version: '0.0.0' }).connect(ours);
  client = new Client({ name: 'watch-off-note-dir', version: '0.0.0' });
  await client.connect(theirs);
});

afterAll(async () => {
  await client?.close();
  await t.runner.settled!();
  fs.watch = real;
  syncBuiltinESMExports();
});

const search = async (args: Record<string, unknown>): Promise<Answer> => {
  const r = await client.callTool({ name: 'search', arguments: { query: 'retry failed uploads', ...args } });
  expect(r.isError).toBeUndefined();
  return r.structuredContent as Answer;
};
const watchOff = (a: Answer) => a.notes.filter((n) => n.includes('WATCH_OFF'));

it('the handed-on WATCH_OFF goes to the next answer of the root, which it names, not to one of another directory', async () => {
  expect((await search({})).index).toBe('building');
  // The build, then the made-up searches of the root (the second of them sets the watchers, and meets ENOSPC).
  await t.runner.settled!();
  const sub = await search({ directory: 'sub' });
  expect(sub.index).toBe('fresh');
  // Before: the root's note ('1 warning (1 WATCH_OFF): ...').
  expect(watchOff(sub)).toEqual([]);
  const top = await search({});
  expect(top.index).toBe('fresh');
  // Before: [] (the answer of sub had taken it). After the answer's own warning (before, first: a small max_tokens
  // cut the answer's own); its path the root's, '.' (before, hidden: the message's "fs.inotify" has a dot in it).
  expect(watchOff(top)).toEqual(['2 warnings (1 IGNORE_FILE_UNUSABLE, 1 WATCH_OFF): this answer may leave out what they name; the CLI prints them in full: IGNORE_FILE_UNUSABLE: .ignore is a symbolic link loop; its ignore rules were not applied; WATCH_OFF: .: watching is off: fs.inotify.max_user_watches reached; every search walks the tree']);
  expect(watchOff(await search({}))).toEqual([]);
});
