// Shard answers merge into the same bounded heap whatever their order or cut; local roots a worker
// cannot see are one warning each; redis URLs are shown without their password.
import { describe, expect, it } from 'vitest';
import { mergeShardResult, type ShardState } from '../../../src/cluster/merge.js';
import { createShardSource } from '../../../src/cluster/shard-source.js';
import { shownUrl } from '../../../src/cluster/connection.js';
import { incompatibility } from '../../../src/cluster/protocol.js';
import { TopK } from '../../../src/rank/topk.js';
import type { Hit } from '../../../src/rank/windows.js';
import { createFsSource } from '../../../src/sources/fs.js';
import { makeTree } from '../../helpers/tree.js';

const hit = (path: string, line: number, distance: number): Hit => ({ path, line, distance, start: line, lines: [`l${line}`] });
const stats = () => ({ files: 1, lines: 10, bytes: 100, skipped: 0, binary: 0, errors: 0, ms: 5 });
const state = (limit: number): ShardState => ({ topk: new TopK<Hit>(limit), closest: null, warnings: [], seenWarnings: new Set(), stats: { ...stats(), files: 0, lines: 0, bytes: 0, ms: 0 } });

describe('mergeShardResult', () => {
  const all = Array.from({ length: 60 }, (_, i) => hit(`f${i % 7}`, i, Math.round(((i * 37) % 23) / 4) / 10));
  const oneHeap = new TopK<Hit>(9);
  for (const h of all) oneHeap.offer(h);

  it('keeps the same top-k as one heap for any cut into shards and any arrival order', () => {
    for (const cut of [1, 5, 17, 60]) {
      const shards: Hit[][] = [];
      for (let i = 0; i < all.length; i += cut) {
        const local = new TopK<Hit>(9);
        for (const h of all.slice(i, i + cut)) local.offer(h);
        shards.push(local.take());
      }
      for (const order of [shards, [...shards].reverse()]) {
        const s = state(9);
        order.forEach((hits, n) => mergeShardResult(s, { n, worker: 'w', hits, closestMiss: null, warnings: [], stats: stats() }));
        expect(s.topk.take()).toEqual(oneHeap.take());
        expect(s.stats.files).toBe(order.length);
      }
    }
  });

  it('keeps a warning said by many shards once, and the closest miss overall', () => {
    const s = state(3);
    const w = { path: 'x', code: 'PATH_NOT_FOUND', message: 'x: not found on worker h' };
    mergeShardResult(s, { n: 0, worker: 'a', hits: [], closestMiss: hit('b', 3, 0.5), warnings: [w], stats: stats() });
    mergeShardResult(s, { n: 1, worker: 'b', hits: [], closestMiss: hit('a', 9, 0.5), warnings: [w], stats: stats() });
    expect(s.warnings).toEqual([w]);
    expect(s.closest?.path).toBe('a');
  });
});

describe('createShardSource', () => {
  it('reads local entries from the coordinator\'s directory and names a root this machine cannot see once', async () => {
    const t = await makeTree({ 'docs/a.md': 'alpha\n', 'docs/b.md': 'beta\n' });
    try {
      const roots = ['docs', 'missing-dir'];
      const sources = [createFsSource({ paths: roots })];
      const src = createShardSource({
        entries: [{ s: 0, path: 'docs/a.md', size: 6 }, { s: 0, path: 'missing-dir/c.md', size: 3 }, { s: 0, path: 'docs/b.md', size: 5 }],
        sources, roots, cwd: t.dir, host: 'h1',
      });
      const seen: string[] = [];
      for await (const e of src.list()) seen.push(`${e.path}=${Buffer.from(await src.read(e)).toString().trim()}`);
      expect(seen).toEqual(['docs/a.md=alpha', 'docs/b.md=beta']);
      expect(src.drainWarnings!().map((w) => w.message)).toEqual([
        'missing-dir: not found on worker h1; local paths are searched by workers only when every worker sees the same filesystem (NFS, a shared volume)',
      ]);
    } finally { await t.cleanup(); }
  });
});

describe('cluster protocol', () => {
  it('shows Redis URLs without their password', () => {
    expect(shownUrl('redis://:s3cret@h:6379')).toBe('redis://:***@h:6379');
    expect(shownUrl('rediss://user:s3cret@h:6380/0')).toBe('rediss://user:***@h:6380/0');
    expect(shownUrl('redis://h:6379')).toBe('redis://h:6379');
  });

  it('says which versions differ', () => {
    const me = { protocol: 1, simgrep: '0.1.0', model: 'bundled (1 bytes of weights)', formats: 'f' };
    expect(incompatibility(me, me)).toBeNull();
    expect(incompatibility(me, { ...me, simgrep: '0.2.0', model: 'x' })).toBe(
      'simgrep 0.1.0 (protocol 1) on the coordinator, 0.2.0 (protocol 1) on the worker; model bundled (1 bytes of weights) on the coordinator, x on the worker');
    // trial38: builds of one version whose words differ (their index formats).
    const mine = { ...me, protocol: 2, formats: 'simgrep-snapshot-11 simgrep-snapshot-delta-6 simgrep-prose-stats-7' };
    expect(incompatibility(mine, mine)).toBeNull();
    expect(incompatibility({ ...mine, formats: 'simgrep-snapshot-10 simgrep-snapshot-delta-5 simgrep-prose-stats-6' }, mine)).toBe(
      'index formats simgrep-snapshot-10 simgrep-snapshot-delta-5 simgrep-prose-stats-6 on the coordinator, simgrep-snapshot-11 simgrep-snapshot-delta-6 simgrep-prose-stats-7 on the worker (builds that cut text into words differently)');
  });
});
