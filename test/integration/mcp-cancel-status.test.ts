// A cancelled MCP status call stops where it waits (cancel41's left (c): status took the signal and did not
// read it): over the SDK's own client and the real MCP server, a status of a workspace of many directories
// cancelled while it lists them (to count the files gone since the last run) stops listing, and its runner
// answers with an error no one reads; the next status answers in full.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMcpServer } from '../../src/mcp/server.js';
import type { ToolRunner } from '../../src/mcp/tools.js';
import type { WireToolResult } from '../../src/server/protocol.js';
import { toolRunnerTree } from '../helpers/tool-runner-tree.js';

/** Directories of 4 files each (gone-files.ts LIST_FROM_FILES: each directory is listed once). */
const DIRS = 300;
const files: Record<string, string> = {};
for (let d = 0; d < DIRS; d++) for (let f = 0; f < 4; f++) files[`d${d}/f${f}.ts`] = `export const upload${d}x${f} = retry(${d}, ${f});\n`;
const t = toolRunnerTree(files);

let client: Client;
/** What the runner answered each status call (the client never reads a cancelled call's answer). */
const answered: WireToolResult[] = [];

beforeAll(async () => {
  const seen: ToolRunner = {
    call: async (tool, args, o) => {
      const r = await t.runner.call(tool, args, o);
      if (tool === 'status') answered.push(r);
      return r;
    },
  };
  const [ours, theirs] = InMemoryTransport.createLinkedPair();
  await createMcpServer({ tools: seen, version: '0.0.0' }).connect(ours);
  client = new Client({ name: 'cancel-status', version: '0.0.0' });
  await client.connect(theirs);
  const indexed = await client.callTool({ name: 'index', arguments: {} }, undefined, { timeout: 120_000 });
  expect(indexed.isError).toBeUndefined();
}, 180_000);

afterAll(async () => {
  await client?.close();
});

it('a status cancelled while it lists the index\'s directories stops listing and answers an error; the next answers in full', async () => {
  const promises = fs.promises as unknown as { readdir: (...a: unknown[]) => Promise<unknown> };
  const real = promises.readdir;
  let listed = 0;
  const stop = new AbortController();
  // The client gives up as the first listing starts (the SDK's client sends notifications/cancelled).
  promises.readdir = (...a: unknown[]) => {
    if (++listed === 1) stop.abort('the client gave up');
    return real(...a);
  };
  syncBuiltinESMExports();
  try {
    await expect(client.callTool({ name: 'status', arguments: {} }, undefined, { signal: stop.signal })).rejects.toThrow();
    await expect.poll(() => answered.length, { timeout: 30_000 }).toBe(1);
    // Before: every directory was listed and the status answered in full (`indexed: true`, 1,200 files).
    expect(answered[0]).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/status was aborted/) }] });
    expect(listed).toBeLessThan(DIRS / 2);
  } finally {
    promises.readdir = real;
    syncBuiltinESMExports();
  }
  const full = await client.callTool({ name: 'status', arguments: {} });
  expect(full.structuredContent).toMatchObject({ indexed: true, files: DIRS * 4 });
}, 60_000);
