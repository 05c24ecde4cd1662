// A cluster index run of several shards, one of them bad (trust47; a real redis-server, the CLI spawned as the
// coordinator, the test answering each shard as a worker would with simgrep's own shard indexer): the good
// shards' files land, the bad shard's do not, the run exits 2 naming the bad shard's file, and the index stays
// consistent: the next local `simgrep index` indexes only the file that did not land.
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { redisServerMissing, startRedis, type RedisServer } from '../helpers/redis-server.js';

const missing = redisServerMissing();
let redis: RedisServer;
let client: Redis;
let home = '';
let tree = '';
let env: Record<string, string>;
const FILES = ['a/retry.ts', 'b/upload.ts', 'c/queue.ts'];

beforeAll(async () => {
  if (missing) return;
  home = realpathSync(await mkdtemp(path.join(tmpdir(), 'simgrep-bad-shard-')));
  env = { HOME: home, SIMGREP_HOME: path.join(home, 'simgrep-home'), SIMGREP_CACHE_DIR: path.join(home, 'cache') };
  tree = path.join(home, 'tree');
  for (const [i, f] of FILES.entries()) {
    await mkdir(path.dirname(path.join(tree, f)), { recursive: true });
    await writeFile(path.join(tree, f), `export function step${i}() { return retryFailedUpload(${i}); }\n`);
  }
  redis = await startRedis();
  client = new Redis(redis.url, { maxRetriesPerRequest: null });
}, 60_000);
afterAll(async () => {
  client?.disconnect();
  await redis?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});

it.skipIf(missing)('three shards, one staged with a file outside the tree: the others land, exit 2 naming it, the index consistent', async () => {
  const { createSearcher } = await import('../../src/index.js');
  const { runIndexShard } = await import('../../src/cluster/index-shard.js');
  const { stagingUri } = await import('../../src/cluster/staging.js');
  const { openStore } = await import('../../src/workspace/store/store.js');
  const secret = path.join(home, 'secret.txt');
  await writeFile(secret, 'the root password of the payment database is hunter2\n');
  const indexDir = path.join(home, 'idx');
  const run = runCli(['index', tree, '--index-dir', indexDir, '--cluster', redis.url, '--cluster-timeout', '20', '--shard-size', '1'], { env });
  const searcher = createSearcher({ concurrency: 1 });
  const answered = new Set<string>();
  const shardFiles = new Map<number, string[]>();
  let bad = -1;
  try {
    for (let i = 0; i < 600 && answered.size < FILES.length; i++) {
      const waiting = await client.keys('simgrep:shards*:wait');
      const ids = waiting.length === 1 ? await client.lrange(waiting[0], 0, -1) : [];
      const fresh = ids.filter((id) => !answered.has(id));
      if (fresh.length === 0) { await new Promise((r) => setTimeout(r, 50)); continue; }
      for (const id of fresh) {
        answered.add(id);
        const d = JSON.parse((await client.hget(`${waiting[0].slice(0, -':wait'.length)}:${id}`, 'data'))!) as Parameters<typeof runIndexShard>[0];
        shardFiles.set(d.n, d.entries.map((e) => e.path));
        // The first shard answered is the bad one: its job widened to a file outside the tree.
        if (bad < 0) bad = d.n;
        const job = d.n === bad ? { ...d, entries: [...d.entries, { s: d.entries.length, path: secret, size: 54 }] } : d;
        const name = `${d.queryId}-${d.n}-7`;
        const answer = await runIndexShard(job, {
          redis: client, searcher, worker: d.n === bad ? 'evil' : 'honest', host: 'h', staging: { name, uri: stagingUri(d.indexDir, name) }, signal: new AbortController().signal,
        });
        await client.rpush(`simgrep:q:${d.queryId}:results`, JSON.stringify(answer));
      }
    }
  } finally {
    await searcher.close();
  }
  const r = await run;
  expect(shardFiles.size).toBe(3); // one file a shard
  const badFiles = shardFiles.get(bad)!;
  const good = [...shardFiles.entries()].filter(([n]) => n !== bad).flatMap(([, f]) => f).sort();
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(`simgrep: ${badFiles[0]}: not searched: worker evil staged rows for ${JSON.stringify(secret)}, a file its shard did not hold;`);
  const store = await openStore(indexDir, { dim: 1 });
  let keys: string[];
  try { keys = (await store.fileStates()).map((f) => f.key).sort(); } finally { store.close(); }
  expect(keys).toEqual(good);
  // What landed answers as a scan of those files: the same hits, lines and distances.
  const hits = (out: string) => out.trim().split('\n').filter(Boolean).map((l) => { const h = JSON.parse(l); return [h.filename, h.match_line, h.distance]; });
  const fromIndex = await runCli(['retry failed upload', ...good, '--index-dir', indexDir, '--jsonl', '-n', '0', '--top-k', '10'], { env });
  expect(fromIndex.stderr).toBe('');
  const scan = await runCli(['retry failed upload', ...good, '--jsonl', '-n', '0', '--top-k', '10'], { env });
  expect(hits(fromIndex.stdout)).toEqual(hits(scan.stdout));
  expect(hits(scan.stdout).length).toBe(2);
  // Consistent: a local build finds the good files unchanged and indexes the one that did not land, and no other.
  const again = await runCli(['index', tree, '--index-dir', indexDir], { env });
  expect(again.code, again.stderr).toBe(0);
  expect(again.stderr).toMatch(/3 files checked, 1 indexed \(.*\), 2 unchanged, 0 removed, 0 errors/);
}, 180_000);
