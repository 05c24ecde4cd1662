// A search coordinator reads its shards' answers back from Redis, where anyone with access can push one
// (issue 28's threat: whoever can write to Redis). With a real redis-server and the real CLI as the
// coordinator, and no worker, the test pushes answers as such a writer would. Before, an answer naming
// a file the shard did not hold was printed as a result (here /etc/passwd with a forged line, exit 0),
// and one whose hits were not a list stopped the query with a TypeError; now each fails its shard with
// a reason that says so (exit 2) and prints nothing of it.
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { queued } from '../helpers/cluster.js';
import { redisServerMissing, startRedis, type RedisServer } from '../helpers/redis-server.js';

const missing = redisServerMissing();
let redis: RedisServer;
let client: Redis;
let home = '';
let tree = '';
let env: Record<string, string>;

beforeAll(async () => {
  if (missing) return;
  home = realpathSync(await mkdtemp(path.join(tmpdir(), 'simgrep-forged-results-')));
  env = { HOME: home, SIMGREP_HOME: path.join(home, 'simgrep-home'), SIMGREP_CACHE_DIR: path.join(home, 'cache') };
  tree = path.join(home, 'tree');
  await mkdir(tree);
  await writeFile(path.join(tree, 'retry.ts'), 'export function retryFailedUpload() { return upload.retry(); }\n');
  redis = await startRedis();
  client = new Redis(redis.url, { maxRetriesPerRequest: null });
}, 60_000);
afterAll(async () => {
  client?.disconnect();
  await redis?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});

/** Runs the coordinator and, once its query is alive in Redis, pushes `answer(queryId)` as its shard 0's. */
async function coordinate(answer: (queryId: string) => string, args = ['retry failed upload', tree, '--mode', 'line', '-n', '0']) {
  await client.flushall(); // the last query's keys and its unanswered job
  const run = runCli([...args, '--cluster', redis.url, '--cluster-timeout', '20'], { env });
  // Pushed once the shard is enqueued (the coordinator drops an answer to a shard it has not cut yet).
  let queryId = '';
  for (let i = 0; i < 400 && !queryId; i++) {
    const alive = await client.keys('simgrep:q:*:alive');
    if (alive.length === 1 && await queued(client, 'wait') === 1) queryId = alive[0].split(':')[2];
    else await new Promise((r) => setTimeout(r, 50));
  }
  expect(queryId).toMatch(/^[0-9a-f]{12}$/);
  await client.rpush(`simgrep:q:${queryId}:results`, answer(queryId));
  return run;
}

const stats = { files: 1, lines: 1, bytes: 60, skipped: 0, binary: 0, errors: 0, ms: 1 };
const shardFile = () => path.join(tree, 'retry.ts');

describe.skipIf(missing)('answers in the results list that no worker of the query made', () => {
  it('a hit in a file the shard did not hold (/etc/passwd, a forged line) is not printed: the shard fails, exit 2', async () => {
    const r = await coordinate(() => JSON.stringify({
      n: 0, worker: 'evil', closestMiss: null, warnings: [], stats,
      hits: [{ path: '/etc/passwd', line: 0, start: 0, distance: 0.01, lines: ['root:x:0:0:forged by whoever writes to Redis'] }],
    }));
    expect(r.stdout).toBe('');
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`simgrep: ${shardFile()}: not searched: worker evil sent a hit in "/etc/passwd", a file its shard did not hold; is something else writing to the cluster's Redis?`);
  }, 60_000);

  it('an answer whose hits are not a list fails its shard with the reason, not a TypeError', async () => {
    const r = await coordinate(() => JSON.stringify({ n: 0, worker: 'evil', hits: 5, closestMiss: null, warnings: [], stats }));
    expect(r.stdout).toBe('');
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`simgrep: ${shardFile()}: not searched: worker evil sent an answer without its list of hits; is something else writing to the cluster's Redis?`);
  }, 60_000);
});

describe.skipIf(missing)('answers in an index run\'s results list that no worker made', () => {
  it('an answer that is not JSON stops the run with CLUSTER_JOB_REFUSED and the reason, not a SyntaxError', async () => {
    const r = await coordinate(() => 'not json at all', ['index', tree, '--index-dir', path.join(home, 'idx')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n').at(-1)).toBe('simgrep: an answer in the index run\'s Redis list is not one a worker makes ("not json at all"); is something else writing to the cluster\'s Redis?');
  }, 60_000);

  const indexStats = { files: 1, indexed: 1, unchanged: 0, lines: 1, bytes: 60, chunks: 1, errors: 0 };

  it('an answer whose warnings are not warnings ([null]) stops the run with CLUSTER_JOB_REFUSED, not a TypeError later', async () => {
    const raw = JSON.stringify({ n: 0, worker: 'w1', staging: 'x', warnings: [null], stats: indexStats });
    const r = await coordinate(() => raw, ['index', tree, '--index-dir', path.join(home, 'idx')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n').at(-1)).toBe(`simgrep: an answer in the index run's Redis list is not one a worker makes (${JSON.stringify(raw.slice(0, 80))}); is something else writing to the cluster's Redis?`);
  }, 60_000);

  it('a worker name with control characters is printed with them escaped (an ESC sequence and a newline reached the terminal)', async () => {
    const r = await coordinate(() => JSON.stringify({ n: 0, worker: 'evil\u001b[2J\nsimgrep: forged', staging: 'x', warnings: [], stats: indexStats }), ['index', tree, '--index-dir', path.join(home, 'idx')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n').at(-1)).toBe('simgrep: worker evil\\x1b[2J\\nsimgrep: forged reported a staging database "x" that is not one of this run\'s; is something else writing to the cluster\'s Redis?');
  }, 60_000);
});

describe.skipIf(missing)('a worker name with control characters in a query\'s answer', () => {
  it('is printed with them escaped in the shard\'s failure', async () => {
    const r = await coordinate(() => JSON.stringify({ n: 0, worker: 'evil\u001b[2J\rx', hits: 5, closestMiss: null, warnings: [], stats }));
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`simgrep: ${shardFile()}: not searched: worker evil\\x1b[2J\\rx sent an answer without its list of hits; is something else writing to the cluster's Redis?`);
  }, 60_000);
});

describe.skipIf(missing)('a worker\'s error text with control characters (trust46: only the names were escaped; a query\'s shard failure was already escaped as a warning)', () => {
  const forged = 'disk gone\u001b[2J\nsimgrep: all clear';
  it('in a query: a refusal that stops it shows it escaped', async () => {
    const r = await coordinate(() => JSON.stringify({ n: 0, worker: 'w1', refused: true, error: { code: 'CLUSTER_INCOMPATIBLE', message: forged } }));
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('simgrep: worker w1 refused the query: disk gone\\x1b[2J\\nsimgrep: all clear; run the same simgrep and --model everywhere');
  }, 60_000);

  it('in an index run: the shard\'s failure and a refusal show it escaped', async () => {
    const failed = await coordinate(() => JSON.stringify({ n: 0, worker: 'w1', error: { code: 'PATH_UNREADABLE', message: forged } }), ['index', tree, '--index-dir', path.join(home, 'idx')]);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain(`simgrep: ${shardFile()}: not searched: failed on worker w1: disk gone\\x1b[2J\\nsimgrep: all clear\n`);
    expect(failed.stderr).not.toMatch(/\u001b|\nsimgrep: all clear/);
    const refused = await coordinate(() => JSON.stringify({ n: 0, worker: 'w1', error: { code: 'CLUSTER_JOB_REFUSED', message: forged } }), ['index', tree, '--index-dir', path.join(home, 'idx')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split('\n').at(-1)).toBe('simgrep: disk gone\\x1b[2J\\nsimgrep: all clear');
  }, 60_000);
});

/**
 * Runs `simgrep index` over the tree on the cluster and answers its one shard as a hostile worker would:
 * simgrep's own shard indexer, run by the test on the coordinator's job (`widen`: entries added to it),
 * its staging database then changed by `forge` (a worker, or whoever writes the index directory, can).
 */
async function forgedIndexRun(indexDir: string, o: { widen?: { path: string; size: number }[]; forge?: (stagingUri: string) => Promise<void> }) {
  const { createSearcher } = await import('../../src/index.js');
  const { runIndexShard } = await import('../../src/cluster/index-shard.js');
  const { stagingUri } = await import('../../src/cluster/staging.js');
  await client.flushall();
  const run = runCli(['index', tree, '--index-dir', indexDir, '--cluster', redis.url, '--cluster-timeout', '20'], { env });
  let job: Record<string, unknown> | null = null;
  for (let i = 0; i < 400 && !job; i++) {
    const waiting = await client.keys('simgrep:shards*:wait');
    const ids = waiting.length === 1 ? await client.lrange(waiting[0], 0, -1) : [];
    if (ids.length === 1) job = JSON.parse((await client.hget(`${waiting[0].slice(0, -':wait'.length)}:${ids[0]}`, 'data'))!) as Record<string, unknown>;
    else await new Promise((r) => setTimeout(r, 50));
  }
  expect(job).not.toBeNull();
  const d = job as unknown as Parameters<typeof runIndexShard>[0];
  const widened = { ...d, entries: [...d.entries, ...(o.widen ?? []).map((e, k) => ({ s: d.entries.length + k, ...e }))] };
  const name = `${d.queryId}-${d.n}-7`;
  const searcher = createSearcher({ concurrency: 1 });
  let indexed = 0;
  try {
    const answer = await runIndexShard(widened, {
      redis: client, searcher, worker: 'evil', host: 'evil', staging: { name, uri: stagingUri(d.indexDir, name) }, signal: new AbortController().signal,
    });
    indexed = answer.stats.indexed;
    await o.forge?.(stagingUri(d.indexDir, name));
    await client.rpush(`simgrep:q:${d.queryId}:results`, JSON.stringify(answer));
  } finally {
    await searcher.close();
  }
  return { indexed, r: await run };
}

/** The file states an index directory holds. */
async function indexedKeys(indexDir: string): Promise<string[]> {
  const { openStore } = await import('../../src/workspace/store/store.js');
  const store = await openStore(indexDir, { dim: 1 });
  try {
    return (await store.fileStates()).map((f) => f.key);
  } finally {
    store.close();
  }
}

/** Rewrites one column of a staging database's `features` table (its other columns and their types kept). */
async function forgeFeatures(uri: string, column: string, values: (n: number) => unknown) {
  const { loadLanceDB } = await import('../../src/workspace/store/lancedb.js');
  const { Table, vectorFromArray } = await import('../../src/workspace/store/arrow.js');
  const db = await loadLanceDB().connect(uri);
  try {
    const t = await db.openTable('features');
    const arrow = await t.query().toArrow();
    t.close();
    const cols = Object.fromEntries(arrow.schema.fields.map((f) => [f.name, f.name === column ? vectorFromArray(values(arrow.numRows) as never, f.type) : arrow.getChild(f.name)!]));
    (await db.createTable('features', new Table(cols), { mode: 'overwrite' })).close();
  } finally {
    db.close();
  }
}

describe.skipIf(missing)('an index shard staged with rows of files it did not hold (trust46)', () => {
  it('a worker that stages a file outside the tree (its job widened): the shard fails with the reason, exit 2, and nothing of it enters the index', async () => {
    const secret = path.join(home, 'secret.txt');
    await writeFile(secret, 'the root password of the payment database is hunter2\n');
    const indexDir = path.join(home, 'idx-widened');
    const { indexed, r } = await forgedIndexRun(indexDir, { widen: [{ path: secret, size: 54 }] });
    expect(indexed).toBe(2); // the shard's file and the secret, staged
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`simgrep: ${shardFile()}: not searched: worker evil staged rows for ${JSON.stringify(secret)}, a file its shard did not hold; is something else writing to the cluster's Redis or the index directory?\n`);
    expect(await indexedKeys(indexDir)).toEqual([]);
  }, 120_000);
});

// mend46b. Before, a features row of -1 left a hole the check's `some` skipped: the merge committed the
// shard's chunks and file states, then stopped the run with a TypeError. Names that were not JSON stopped
// the whole run with a SyntaxError from reading the staging database, the other shards' work lost.
describe.skipIf(missing)('an index shard staged in a shape no worker writes (mend46b)', () => {
  const rows: [string, string, (n: number) => unknown, string][] = [
    ['a features row out of range (-1)', 'row', (n) => Array.from({ length: n }, () => -1), 'features whose rows are not 0..0, each once'],
    ['features whose names are not JSON', 'defs', (n) => Array.from({ length: n }, () => 'not json'), 'features whose names are not JSON'],
  ];
  for (const [name, column, values, why] of rows) {
    it(`${name}: the shard fails with the reason before anything is written, exit 2`, async () => {
      const indexDir = path.join(home, `idx-forged-${column}`);
      const { r } = await forgedIndexRun(indexDir, { forge: (uri) => forgeFeatures(uri, column, values) });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`simgrep: ${shardFile()}: not searched: worker evil staged ${why}; is something else writing to the cluster's Redis or the index directory?\n`);
      expect(await indexedKeys(indexDir)).toEqual([]);
    }, 120_000);
  }
});
