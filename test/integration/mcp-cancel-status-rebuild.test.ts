// A cancelled MCP status whose file list must be rebuilt from the store (no snapshot file: lost, or removed as
// damaged) stops promptly (notes42's left (b): it read and chunked every file of the store before it looked at
// its signal). Over the SDK's own client and the real MCP server: an index of many files built by an engine
// since closed, its snapshot file removed, a new engine's status cancelled as the rebuild opens its first file.
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import * as fileChunks from '../../src/workspace/build/file-chunks.js';
import { isolatedHome } from '../helpers/isolated-home.js';
import { indexWithSnapshotLost, watchedMcp } from '../helpers/watched-mcp.js';

const DIRS = 100;
const PER_DIR = 30;
const FILES = DIRS * PER_DIR;
let home: ReturnType<typeof isolatedHome>;
let real = '';

beforeAll(async () => {
  home = isolatedHome();
  real = await indexWithSnapshotLost(home.dir, DIRS, PER_DIR);
}, 180_000);
afterAll(() => home.restore());
afterEach(() => { vi.restoreAllMocks(); });

it('a status cancelled while the snapshot is rebuilt from the store stops at once; the next answers in full', async () => {
  const { client, answered, close } = await watchedMcp(real, 'status', 'cancel-status-rebuild');
  try {
    const open = fileChunks.openChunks;
    const stop = new AbortController();
    let abortedAt = 0;
    // The client gives up as the rebuild opens the store's first file (the SDK's client sends notifications/cancelled).
    const opened = vi.spyOn(fileChunks, 'openChunks').mockImplementation((...a: Parameters<typeof open>) => {
      if (opened.mock.calls.length === 1) { abortedAt = performance.now(); stop.abort('the client gave up'); }
      return open(...a);
    });
    await expect(client.callTool({ name: 'status', arguments: {} }, undefined, { signal: stop.signal })).rejects.toThrow();
    await expect.poll(() => answered.length, { timeout: 60_000 }).toBe(1);
    expect(answered[0].r).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/status was aborted/) }] });
    const atAnswer = opened.mock.calls.length;
    const cutMs = answered[0].at - abortedAt;
    // Before: the cancelled status opened all 3,000 files before it answered.
    expect(atAnswer).toBeLessThan(FILES / 10);
    // The rebuild stopped too: no file is opened after the answer.
    await new Promise((r) => setTimeout(r, 500));
    expect(opened.mock.calls.length).toBe(atAnswer);
    // The next status rebuilds it in full, every file opened.
    const began = performance.now();
    const full = await client.callTool({ name: 'status', arguments: {} });
    const fullMs = performance.now() - began;
    expect(full.structuredContent).toMatchObject({ indexed: true, files: FILES });
    expect(opened.mock.calls.length - atAnswer).toBe(FILES);
    // Generous (the load of a shared machine), far under the full read (~1.5 s at load 3; ~10 ms here).
    expect(cutMs).toBeLessThan(Math.max(500, fullMs / 3));
  } finally {
    await close();
  }
}, 180_000);
