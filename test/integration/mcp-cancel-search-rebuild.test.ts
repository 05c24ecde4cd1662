// A cancelled MCP search that must rebuild the ranking snapshot from the store (its file lost, or removed as
// damaged) stops promptly, and so does the rebuild no other load waits for (trust43's left (b): searches did not
// pass their signal to loadSnapshot, and read and chunked every file of the store before they looked at it).
// Over the SDK's own client and the real MCP server: an index of many files built by an engine since closed, its
// snapshot file removed, a new engine's search cancelled by its client as the rebuild opens its first file.
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import * as fileChunks from '../../src/workspace/build/file-chunks.js';
import { isolatedHome } from '../helpers/isolated-home.js';
import { indexWithSnapshotLost, watchedMcp } from '../helpers/watched-mcp.js';

const DIRS = 100;
const PER_DIR = 30;
const FILES = DIRS * PER_DIR;
const QUERY = { query: 'retry failed uploads', top_k: 5 };
let home: ReturnType<typeof isolatedHome>;
let real = '';

beforeAll(async () => {
  home = isolatedHome();
  real = await indexWithSnapshotLost(home.dir, DIRS, PER_DIR);
}, 180_000);
afterAll(() => home.restore());
afterEach(() => { vi.restoreAllMocks(); });

it('a search cancelled while the snapshot is rebuilt from the store stops at once, and the rebuild with it; the next answers in full', async () => {
  const { client, answered, close } = await watchedMcp(real, 'search', 'cancel-search-rebuild');
  try {
    const open = fileChunks.openChunks;
    const stop = new AbortController();
    let abortedAt = 0;
    // The client gives up as the rebuild opens the store's first file (the SDK's client sends notifications/cancelled).
    const opened = vi.spyOn(fileChunks, 'openChunks').mockImplementation((...a: Parameters<typeof open>) => {
      if (opened.mock.calls.length === 1) { abortedAt = performance.now(); stop.abort('the client gave up'); }
      return open(...a);
    });
    await expect(client.callTool({ name: 'search', arguments: QUERY }, undefined, { signal: stop.signal })).rejects.toThrow();
    await expect.poll(() => answered.length, { timeout: 60_000 }).toBe(1);
    expect(answered[0].r).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/aborted/) }] });
    const atAnswer = opened.mock.calls.length;
    const cutMs = answered[0].at - abortedAt;
    // Before: the cancelled search opened all 3,000 files (the whole rebuild) before it answered.
    expect(atAnswer).toBeLessThan(FILES / 10);
    // The rebuild stopped too: no file is opened after the answer.
    await new Promise((r) => setTimeout(r, 500));
    expect(opened.mock.calls.length).toBe(atAnswer);
    // The next search rebuilds it in full, every file opened (and a few again for its answer's lines), and
    // answers from the index.
    const began = performance.now();
    const full = await client.callTool({ name: 'search', arguments: QUERY });
    const fullMs = performance.now() - began;
    expect(full.isError).toBeFalsy();
    expect(full.structuredContent).toMatchObject({ index: 'fresh', files_searched: FILES });
    expect((full.structuredContent as { matches: unknown[] }).matches).toHaveLength(QUERY.top_k);
    expect(opened.mock.calls.length - atAnswer).toBeGreaterThanOrEqual(FILES);
    console.log(`cancelled search: ${atAnswer} of ${FILES} files opened, answered ${cutMs.toFixed(1)} ms after the abort; the next search ${fullMs.toFixed(0)} ms`);
    // Generous (the load of a shared machine), far under the full rebuild.
    expect(cutMs).toBeLessThan(Math.max(500, fullMs / 3));
  } finally {
    await close();
  }
}, 180_000);
