// Shards into the queue as the listing cuts them: each is recorded as pending before its job exists
// (its result may come back before add() returns), and jobs are removed once answered, so nothing
// piles up in Redis.
import type { Queue } from 'bullmq';
import type { ListedShard } from './shards.js';
import type { PendingShard } from './watch.js';

/** How far the listing got: shards enqueued so far, and whether it ended. */
export interface Listed { total: number; done: boolean }

export async function enqueueShards<J>(o: {
  queue: Queue;
  kind: 'search' | 'index';
  runId: string;
  cut: AsyncIterable<ListedShard>;
  pending: Map<number, PendingShard>;
  listed: Listed;
  jobOf: (shard: ListedShard, n: number) => J;
}): Promise<void> {
  for await (const shard of o.cut) {
    const n = o.listed.total;
    const id = `${o.runId}-${n}`;
    const job = o.jobOf(shard, n);
    const pending: PendingShard = { id, entries: shard.entries, queued: false, missingTicks: 0 };
    o.pending.set(n, pending);
    o.listed.total++;
    await o.queue.add(o.kind, job, { jobId: id, removeOnComplete: true, removeOnFail: { age: 600 }, attempts: 1 });
    pending.queued = true;
  }
  o.listed.done = true;
}
