// A cancelled MCP status of an index no run finished (its first build cut short: `incomplete`) stops within a
// batch of the store's file list (trust43's left (a): the list was one LanceDB read nothing could stop, and the
// status answered only after all of it). Over the SDK's own client and the real MCP server: a first build of
// thousands of files cut short after its sixth commit (a real LanceDB directory), then a status cancelled by
// its client as the first rows of the file list are read.
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { createActionEngine } from '../../src/actions/engine.js';
import * as columns from '../../src/workspace/store/table-columns.js';
import { defaultName } from '../../src/workspace/registry.js';
import { isolatedHome } from '../helpers/isolated-home.js';
import { watchedMcp } from '../helpers/watched-mcp.js';

// 16,000 files: the build commits every 2,048 files (chunk-batch.ts), so 12,288 are in the tables when its
// sixth commit pauses it and it is cut short.
const DIRS = 160;
const PER_DIR = 100;
const LINES = 5;
let home: ReturnType<typeof isolatedHome>;
let real = '';

beforeAll(async () => {
  home = isolatedHome();
  const tree = path.join(home.dir, 'tree');
  for (let d = 0; d < DIRS; d++) {
    mkdirSync(path.join(tree, `d${d}`), { recursive: true });
    for (let f = 0; f < PER_DIR; f++) writeFileSync(path.join(tree, `d${d}`, `f${f}.ts`), Array.from({ length: LINES }, (_, j) => `export const upload${d}x${f}x${j} = retry(${d}, ${f}); // retry failed uploads`).join('\n') + '\n');
  }
  real = realpathSync(tree);
  // The first build paused after its sixth commit (the crash tests' failpoint), then cut short.
  const cut = new AbortController();
  const write = process.stderr.write.bind(process.stderr);
  const said = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
    if (String(chunk).includes('failpoint: paused after commit 6')) cut.abort('cut short');
    return (write as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
  });
  process.env.SIMGREP_FAILPOINT = 'pause-after-commit:6';
  const before = createActionEngine({ concurrency: 0, resident: true });
  try {
    await expect(before.workspace({ name: defaultName([real]) }).index([real], { signal: cut.signal })).rejects.toThrow(/aborted/);
  } finally {
    delete process.env.SIMGREP_FAILPOINT;
    said.mockRestore();
    await before.close();
  }
}, 300_000);
afterAll(() => home.restore());
afterEach(() => { vi.restoreAllMocks(); });

it('a status of an index no run finished, cancelled as its file list is read, stops within a batch of it', async () => {
  const { client, answered, close } = await watchedMcp(real, 'status', 'cancel-status-incomplete');
  try {
    // The file list's rows as they are read: every row's path is read by table-columns' strings(), once per read.
    const strings = columns.strings;
    const stop = new AbortController();
    let abortedAt = 0;
    let rows = 0;
    const read = vi.spyOn(columns, 'strings').mockImplementation((t, name) => {
      const out = strings(t, name);
      if (name !== 'path') return out;
      rows += out.length;
      // The client gives up as the first rows arrive (the SDK's client sends notifications/cancelled).
      if (abortedAt === 0) { abortedAt = performance.now(); stop.abort('the client gave up'); }
      return out;
    });
    await expect(client.callTool({ name: 'status', arguments: {} }, undefined, { signal: stop.signal })).rejects.toThrow();
    await expect.poll(() => answered.length, { timeout: 60_000 }).toBe(1);
    expect(answered[0].r).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/status was aborted/) }] });
    const cutRows = rows;
    const cutMs = answered[0].at - abortedAt;

    // The next status reads the whole list: the index is incomplete, with the files of its six commits.
    rows = 0;
    const began = performance.now();
    const full = await client.callTool({ name: 'status', arguments: {} });
    const fullMs = performance.now() - began;
    const files = (full.structuredContent as { files: number }).files;
    expect(full.structuredContent).toMatchObject({ indexed: false, incomplete: true });
    expect(files).toBe(6 * 2048);
    expect(files).toBe(rows);
    // Before: the cancelled status read the whole list (every file's row) before it answered; now a batch or
    // two (1,024 rows each), as the cancel reaches the server between the native reads.
    console.log(`cancelled status: ${cutRows} of ${files} rows read, answered ${cutMs.toFixed(1)} ms after the abort; a full status ${fullMs.toFixed(1)} ms`);
    expect(cutRows).toBeLessThanOrEqual(3 * 1024);
    read.mockRestore();
  } finally {
    await close();
  }
}, 180_000);
