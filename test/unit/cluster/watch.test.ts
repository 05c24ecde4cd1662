// The coordinator's watch with a fake queue and Redis: a shard BullMQ failed (a worker that died
// mid-shard more often than the stall limit) or that vanished becomes one error naming its files;
// no worker, or only incompatible ones (listening on their own queues), ends the wait after the timeout
// with what differs.
import { describe, expect, it } from 'vitest';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { checkWorkers, type PendingShard, type WatchContext } from '../../../src/cluster/watch.js';
import { TopK } from '../../../src/rank/topk.js';
import type { Hit } from '../../../src/rank/windows.js';

const me = { protocol: 1, simgrep: '0.1.0', model: 'bundled (9 bytes of weights)' };

/** `elsewhere`: the worker listens on another queue (another build's or model's: queueName), not this query's. */
/** `info`: an object is written as JSON, a string as it is (what else may be in Redis). */
type FakeWorker = { id: string; info: object | string | null; elsewhere?: boolean };
const nameOf = (w: FakeWorker) => `simgrep:${w.elsewhere ? 'c2hhcmRzLW90aGVy' : 'c2hhcmRzLW1pbmU='}:w:${w.id}`;

function context(o: { states: Record<string, string>; workers: FakeWorker[]; timeoutMs?: number }): WatchContext {
  const removed: string[] = [];
  const queue = {
    getWorkers: async () => o.workers.filter((w) => !w.elsewhere).map((w) => ({ rawname: nameOf(w) })),
    getJobState: async (id: string) => o.states[id] ?? 'unknown',
    getJob: async (id: string) => ({ failedReason: 'job stalled more than allowable limit', remove: async () => { removed.push(id); } }),
  } as unknown as Queue;
  const redis = {
    hmget: async (_k: string, ...ids: string[]) => ids.map((id) => { const w = o.workers.find((x) => x.id === id); if (typeof w?.info === 'string') return w.info; return w?.info ? JSON.stringify(w.info) : null; }),
    // CLIENT LIST: every connection, the coordinator's own and other programs' among them.
    client: async (sub: string) => (sub === 'LIST' ? ['id=1 addr=127.0.0.1:1 name=simgrep-coordinator cmd=client', 'id=2 addr=127.0.0.1:2 name= cmd=get',
      ...o.workers.map((w, i) => `id=${i + 3} addr=127.0.0.1:${i + 3} name=${nameOf(w)} cmd=bzpopmin`)].join('\n') + '\n' : null),
  } as unknown as Redis;
  const shards = new Map<number, PendingShard>([
    [0, { id: 'q-0', entries: [{ s: 0, path: 's3://b/a.txt' }, { s: 0, path: 's3://b/b.txt' }], queued: true, missingTicks: 0 }],
    [1, { id: 'q-1', entries: [{ s: 0, path: 's3://b/c.txt' }], queued: true, missingTicks: 0 }],
    [2, { id: 'q-2', entries: [{ s: 0, path: 's3://b/d.txt' }], queued: true, missingTicks: 0 }],
  ]);
  return {
    redis, queue, url: 'redis://:pw@h:6379', me, timeoutMs: o.timeoutMs ?? 30_000, shards, total: 3,
    state: { topk: new TopK<Hit>(3), closest: null, warnings: [], seenWarnings: new Set(), stats: { files: 0, lines: 0, bytes: 0, skipped: 0, binary: 0, errors: 0, ms: 0 } },
    watch: { noWorkerSince: null, noted: false },
  };
}

describe('checkWorkers', () => {
  it('turns a failed shard into one error naming its files, and a vanished one after it is seen missing twice', async () => {
    const c = context({ states: { 'q-0': 'failed', 'q-2': 'active' }, workers: [{ id: 'h:1', info: { ...me, id: 'h:1' } }] });
    await checkWorkers(c);
    expect(c.state.warnings.map((w) => w.message)).toEqual(['s3://b/a.txt, s3://b/b.txt: not searched: the shard failed: job stalled more than allowable limit']);
    expect([...c.shards.keys()]).toEqual([1, 2]);
    await checkWorkers(c);
    expect(c.state.warnings[1].message).toMatch(/^s3:\/\/b\/c\.txt: not searched: its job disappeared from Redis/);
    expect([...c.shards.keys()]).toEqual([2]);
    expect(c.state.stats.errors).toBe(2);
  });

  it('gives up after the timeout when the only workers run another model, saying which', async () => {
    const c = context({ states: { 'q-0': 'waiting', 'q-1': 'waiting', 'q-2': 'waiting' }, workers: [{ id: 'h:2', info: { ...me, id: 'h:2', model: 'tiny (5 bytes of weights)' }, elsewhere: true }], timeoutMs: 1 });
    const notes: string[] = [];
    c.notice = (m) => notes.push(m);
    c.watch.noWorkerSince = Date.now() - 5000;
    await expect(checkWorkers(c)).rejects.toThrow('no worker can run this query (1 listening, none compatible: model bundled (9 bytes of weights) on the coordinator, tiny (5 bytes of weights) on the worker) for 0.001 s (--cluster-timeout): 3 of 3 shards not searched; start workers with: simgrep worker --cluster redis://:***@h:6379');
    expect(notes).toHaveLength(1);
  });

  it('counts a listening worker whose versions are not known yet as able to run the query', async () => {
    const c = context({ states: { 'q-0': 'waiting', 'q-1': 'waiting', 'q-2': 'waiting' }, workers: [{ id: 'h:3', info: null }], timeoutMs: 1 });
    c.watch.noWorkerSince = Date.now() - 5000;
    await checkWorkers(c);
    expect(c.watch.noWorkerSince).toBeNull();
  });

  it('takes a worker whose info in Redis is not in a worker\'s form as not known (it stopped the query with a SyntaxError or a TypeError)', async () => {
    for (const info of ['not json {', 'null', '"text"', JSON.stringify({ ...me, protocol: 'one' })]) {
      const c = context({ states: { 'q-0': 'waiting', 'q-1': 'waiting', 'q-2': 'waiting' }, workers: [{ id: 'h:4', info }, { id: 'h:5', info, elsewhere: true }], timeoutMs: 1 });
      c.watch.noWorkerSince = Date.now() - 5000;
      await checkWorkers(c);
      expect(c.watch.noWorkerSince, info).toBeNull();
    }
  });
});
