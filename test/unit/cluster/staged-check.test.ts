// What a staged shard may hold before the coordinator merges it (cluster/staged-check.ts): rows of the
// files its shard held, terms pointing at its own chunks. One row per way a hostile or buggy worker could
// stage otherwise; each is refused with the reason, and the worker's honest shape passes.
import { describe, expect, it } from 'vitest';
import { stagedProblem } from '../../../src/cluster/staged-check.js';
import type { StagedShard } from '../../../src/cluster/staging.js';

const file = (key: string) => ({ key, size: 10, mtime: 1, hash: 'h', kind: 'text' as const, lines: 2, chunks: 1 });
function shard(o: Partial<{ files: string[]; chunkPaths: string[]; start: number; end: number; terms: StagedShard['terms']; features: number }> = {}): StagedShard {
  const paths = o.chunkPaths ?? ['/t/a.ts'];
  return {
    dim: 2,
    files: (o.files ?? ['/t/a.ts']).map(file),
    chunks: {
      id: paths.map((p) => `${p}:0`), path: paths, start: Int32Array.from(paths, () => o.start ?? 0), end: Int32Array.from(paths, () => o.end ?? 1),
      vector: new Uint16Array(paths.length * 2), hasTokens: paths.map(() => true), hash: paths.map(() => 'c'),
    },
    features: Array.from({ length: o.features ?? paths.length }, () => ({ chars: 3, blank: false, defs: [] })),
    terms: o.terms ?? [{ keys: ['retry'], key: Int32Array.of(0), row: Int32Array.of(0), count: Int32Array.of(1) }],
  };
}
const keys = new Set(['/t/a.ts', '/t/b.ts']);

describe('stagedProblem', () => {
  it('passes a shard of its own files', () => {
    expect(stagedProblem(shard(), keys)).toBeNull();
    expect(stagedProblem(shard({ files: [], chunkPaths: [], terms: [] }), keys)).toBeNull();
  });
  const rows: [string, StagedShard, string][] = [
    ['a file state outside the shard', shard({ files: ['/t/a.ts', '/etc/passwd'] }), 'rows for "/etc/passwd", a file its shard did not hold'],
    ['a chunk of a file it staged no state for', shard({ chunkPaths: ['/t/b.ts'] }), 'a chunk of "/t/b.ts", a file whose rows its shard did not stage'],
    ['a chunk whose lines run backwards', shard({ start: 5, end: 2 }), 'a chunk of "/t/a.ts" whose lines run backwards'],
    ['chunks without their features', shard({ features: 0 }), 'chunks without their features'],
    ['a term row past its chunks', shard({ terms: [{ keys: ['retry'], key: Int32Array.of(0), row: Int32Array.of(7), count: Int32Array.of(1) }] }), 'terms that point outside its own chunks'],
    ['a term key past its keys', shard({ terms: [{ keys: ['retry'], key: Int32Array.of(3), row: Int32Array.of(0), count: Int32Array.of(1) }] }), 'terms that point outside its own chunks'],
    ['term columns of other lengths', shard({ terms: [{ keys: ['retry'], key: Int32Array.of(0, 0), row: Int32Array.of(0), count: Int32Array.of(1) }] }), 'terms whose columns differ in length'],
  ];
  for (const [name, s, why] of rows) it(`refuses ${name}`, () => { expect(stagedProblem(s, keys)).toBe(why); });
});
