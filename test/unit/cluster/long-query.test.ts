// A long query (a pasted file or two) travels to the workers, and one over the jobs' bound is refused
// by the coordinator with its own message, before any Redis is reached: a worker's refusal said to run
// the same simgrep everywhere, which was not the cause.
import { describe, expect, it } from 'vitest';
import { clusterSearch } from '../../../src/cluster/coordinator.js';
import { checkSearchJob, MAX_QUERY_CHARS } from '../../../src/cluster/job-check.js';

const job = (query: string) => ({
  protocol: 1, simgrep: '1.0.0', model: 'm', queryId: 'abcdef012345', n: 0, roots: ['/tmp'], cwd: '/tmp',
  options: { query }, entries: [{ s: 0, path: '/tmp/a.ts', size: 1 }],
});

describe('long queries in a cluster search', () => {
  it('a worker takes a 100,000-character query (MCP cuts there)', () => {
    expect(MAX_QUERY_CHARS).toBeGreaterThanOrEqual(100_000);
    expect(() => checkSearchJob(job('x'.repeat(100_000)))).not.toThrow();
    expect(() => checkSearchJob(job('x'.repeat(MAX_QUERY_CHARS + 1)))).toThrow(/options\.query/);
  });

  it('the coordinator refuses a query over the bound before connecting, saying how to fix it', async () => {
    const refused = clusterSearch({ query: 'x'.repeat(MAX_QUERY_CHARS + 1), paths: ['/tmp'], cluster: 'redis://127.0.0.1:1' }, { model: 'm', deadline: null });
    await expect(refused).rejects.toMatchObject({ code: 'BAD_QUERY', message: expect.stringMatching(/at most 1,048,576 characters .*search without --cluster/) });
  });
});
