// A cancelled MCP search stops, and what it set going does not: the first search of a cold directory
// queues the directory's background build, which is no call of the client's and is built to its end
// though that search was cancelled; the searches after it answer from the index. (The tools' runner as the
// engine calls it, with the signal the SDK's server hands a handler: test/e2e/mcp-cancel.test.ts has the
// processes.)
import { describe, expect, it } from 'vitest';
import { toolRunnerTree, uploadFiles } from '../helpers/tool-runner-tree.js';

const t = toolRunnerTree(uploadFiles(200, (i) => `retry failed uploads, attempt ${i}`));
const QUERY = { query: 'retry failed uploads', top_k: 5 };

describe('a cancelled MCP search', () => {
  it('stops with an error no one reads, and the background build it queued is built to its end', async () => {
    const { runner } = t;
    const cancelled = await runner.call('search', QUERY, { signal: AbortSignal.abort('the client gave up') });
    // Before: the signal was not read, and the search answered in full.
    expect(cancelled.isError).toBe(true);
    expect(cancelled.content[0]).toMatchObject({ text: expect.stringMatching(/aborted/) });
    await runner.settled!();
    const status = (await runner.call('status', {})).structuredContent as { indexed: boolean; files: number };
    expect(status).toMatchObject({ indexed: true, files: 200 });
    const after = await runner.call('search', QUERY);
    expect(after.isError).toBeUndefined();
    expect((after.structuredContent as { index: string; matches: unknown[] })).toMatchObject({ index: 'fresh' });
    expect((after.structuredContent as { matches: unknown[] }).matches).toHaveLength(5);
  });
});
