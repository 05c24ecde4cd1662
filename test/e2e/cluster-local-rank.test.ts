// A cluster search of a local tree (workers seeing the same filesystem) answers as one machine does, however
// the root is spelled: each of a job's files carries the path the coordinator's walk ranks it by
// (ShardEntry.rank; score45: the ranking reads that path below the searched root, not the root as spelled). Real redis-server and `simgrep worker` processes.
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startWorker, type WorkerProcess } from '../helpers/cluster.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';

let redis: RedisServer;
let home = '';
let tree = '';
let worker: WorkerProcess;
let env: Record<string, string> = {};

beforeAll(async () => {
  home = realpathSync(await mkdtemp(path.join(tmpdir(), 'simgrep-cluster-rank-')));
  env = { HOME: home, SIMGREP_HOME: path.join(home, 'simgrep-home'), SIMGREP_CACHE_DIR: path.join(home, 'cache') };
  // Directories above the tree named like a query word and a test directory: read only as spelled, they moved every file.
  tree = path.join(home, 'upload', 'tests', 'tree');
  mkdirSync(path.join(tree, 'src'), { recursive: true });
  writeFileSync(path.join(tree, 'src', 'retry.ts'), 'export function retryFailedUpload(part) {\n  return sendUpload(part); // retry the failed upload\n}\n');
  writeFileSync(path.join(tree, 'retry.py'), 'def retry_failed_upload(part):\n    """Retry a failed upload with backoff."""\n    return send(part)\n');
  writeFileSync(path.join(tree, 'src', 'send.go'), 'func sendUpload(p Part) error {\n\t// send one part of an upload\n\treturn client.Put(p)\n}\n');
  redis = await startRedis();
  worker = await startWorker(redis.url, { allow: [home], env });
}, 60_000);
afterAll(async () => {
  await worker?.stop();
  await redis?.stop();
  await rm(home, { recursive: true, force: true });
});

describe('a cluster search of a local tree', () => {
  it('gives the one machine\'s answer for tree, ./tree/ and the absolute path, and one answer for all three', async () => {
    const cwd = path.dirname(tree);
    const answers: string[] = [];
    for (const root of ['tree', './tree/', tree]) {
      const args = ['retry failed upload', root, '--jsonl', '--top-k', '3', '--no-index'];
      const one = await runCli(args, { env, cwd });
      const many = await runCli([...args, '--cluster', redis.url], { env, cwd });
      expect(one.code, one.stderr).toBe(0);
      expect([many.code, many.stdout], many.stderr).toEqual([0, one.stdout]);
      answers.push(one.stdout.split('\n').filter(Boolean).map((l) => { const x = JSON.parse(l); return `${path.basename(x.filename)} ${x.distance}`; }).join('\n'));
    }
    expect(new Set(answers).size).toBe(1);
  }, 120_000);

  // The roots' spelling cannot tell a worker every rank path (mend45c): with tree/src/.. it gave
  // tree/src/../retry.py to tree/src (src/../retry.py), and a glob's files it ranked by the path as spelled.
  // The coordinator now sends each file's rank path as its walk gave it (ShardEntry.rank).
  it('gives the one machine\'s answer, that of tree alone, for a root spelled with .. and for a glob root', async () => {
    const cwd = path.dirname(tree);
    const shown = (out: string) => out.split('\n').filter(Boolean).map((l) => { const x = JSON.parse(l); return `${path.basename(x.filename)} ${x.distance}`; }).join('\n');
    const alone = await runCli(['retry failed upload', 'tree', '--jsonl', '--top-k', '3', '--no-index'], { env, cwd });
    for (const roots of [['tree/src', 'tree/src/..'], ['tree/src/*.ts', 'tree']]) {
      const args = ['retry failed upload', ...roots, '--jsonl', '--top-k', '3', '--no-index'];
      const one = await runCli(args, { env, cwd });
      const many = await runCli([...args, '--cluster', redis.url], { env, cwd });
      expect(one.code, one.stderr).toBe(0);
      expect([many.code, many.stdout], `${roots.join(' ')}: ${many.stderr}`).toEqual([0, one.stdout]);
      expect(shown(one.stdout), roots.join(' ')).toBe(shown(alone.stdout));
    }
  }, 120_000);
});
