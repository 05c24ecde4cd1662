// What a staged shard may hold before the coordinator merges it (cluster/staged-check.ts): rows of the
// files its shard held, terms pointing at its own chunks. One row per way a hostile or buggy worker could
// stage otherwise; each is refused with the reason, and the worker's honest shape passes.
import { describe, expect, it } from 'vitest';
import { stagedProblem } from '../../../src/cluster/staged-check.js';
import type { StagedShard } from '../../../src/cluster/staging.js';

const file = (key: string) => ({ key, size: 10, mtime: 1, hash: 'h', kind: 'text' as const, lines: 2, chunks: 1 });
type Features = StagedShard['features'];
interface ShardOptions {
  files: string[]; chunkPaths: string[]; start: number; end: number; terms: StagedShard['terms']; features: number | Features;
  dim: number; vectorLength: number; fileState: Record<string, unknown>;
}
function shard(o: Partial<ShardOptions> = {}): StagedShard {
  const paths = o.chunkPaths ?? ['/t/a.ts'];
  const features = o.features ?? paths.length;
  return {
    dim: o.dim ?? 2,
    files: (o.files ?? ['/t/a.ts']).map((k) => ({ ...file(k), ...o.fileState }) as StagedShard['files'][number]),
    chunks: {
      id: paths.map((p, i) => `${p}:${i}`), path: paths, start: Int32Array.from(paths, () => o.start ?? 0), end: Int32Array.from(paths, () => o.end ?? 1),
      vector: new Uint16Array(o.vectorLength ?? paths.length * 2), hasTokens: paths.map(() => true), hash: paths.map(() => 'c'),
    },
    features: typeof features === 'number' ? Array.from({ length: features }, () => ({ chars: 3, blank: false, defs: [] })) : features,
    terms: o.terms ?? [{ keys: ['retry'], key: Int32Array.of(0), row: Int32Array.of(0), count: Int32Array.of(1) }],
  };
}
const keys = { keys: new Set(['/t/a.ts', '/t/b.ts']), dim: 2 };
/** Features with a hole at row 1: what readStaged made of rows staged as 0 and 0 (a repeated row). */
const holed = (): Features => { const f: Features = new Array(2); f[0] = { chars: 3, blank: false, defs: [] }; return f; };
const feature = (x: Record<string, unknown>) => [{ chars: 3, blank: false, defs: [], ...x }] as Features;
const terms = (x: Record<string, unknown>) => [{ keys: ['retry'], key: Int32Array.of(0), row: Int32Array.of(0), count: Int32Array.of(1), ...x }] as StagedShard['terms'];

describe('stagedProblem', () => {
  it('passes a shard of its own files', () => {
    expect(stagedProblem(shard(), keys)).toBeNull();
    expect(stagedProblem(shard({ files: [], chunkPaths: [], terms: [] }), keys)).toBeNull();
    expect(stagedProblem(shard({ chunkPaths: ['/t/a.ts', '/t/a.ts'], fileState: { size: -1, mtime: -1, chunks: 2 } }), keys)).toBeNull();
  });
  const rows: [string, StagedShard, string][] = [
    ['a file state outside the shard', shard({ files: ['/t/a.ts', '/etc/passwd'] }), 'rows for "/etc/passwd", a file its shard did not hold'],
    ['a chunk of a file it staged no state for', shard({ chunkPaths: ['/t/b.ts'] }), 'a chunk of "/t/b.ts", a file whose rows its shard did not stage'],
    ['a chunk whose lines run backwards', shard({ start: 5, end: 2 }), 'a chunk of "/t/a.ts" whose lines run backwards'],
    ['chunks without their features', shard({ features: 0 }), 'chunks without their features'],
    ['a term row past its chunks', shard({ terms: [{ keys: ['retry'], key: Int32Array.of(0), row: Int32Array.of(7), count: Int32Array.of(1) }] }), 'terms that point outside its own chunks'],
    ['a term key past its keys', shard({ terms: [{ keys: ['retry'], key: Int32Array.of(3), row: Int32Array.of(0), count: Int32Array.of(1) }] }), 'terms that point outside its own chunks'],
    ['term columns of other lengths', shard({ terms: [{ keys: ['retry'], key: Int32Array.of(0, 0), row: Int32Array.of(0), count: Int32Array.of(1) }] }), 'terms whose columns differ in length'],
    // mend46b: shapes that passed and then stopped the merge with a TypeError, after its commits.
    ['features with a hole (a row staged twice)', shard({ chunkPaths: ['/t/a.ts', '/t/a.ts'], features: holed() }), 'chunks without their features'],
    ['a term whose keys are a string, not a list', shard({ terms: terms({ keys: 'abc' }) }), 'terms whose keys are not a list of words'],
    ['a term whose keys hold a number', shard({ terms: terms({ keys: [7] }) }), 'terms whose keys are not a list of words'],
    ['a negative term count', shard({ terms: terms({ count: Int32Array.of(-1) }) }), 'terms with a negative count'],
    ['vectors of another dimension', shard({ dim: 3, vectorLength: 3 }), 'vectors of 3 dimensions, not the index\'s 2'],
    ['fewer vector values than its chunks need', shard({ vectorLength: 1 }), 'chunk columns of other lengths than its chunks'],
    ['a negative chars', shard({ features: feature({ chars: -4 }) }), 'chunks without their features'],
    ['blank not a boolean', shard({ features: feature({ blank: 'no' }) }), 'chunks without their features'],
    ['defs not a list', shard({ features: feature({ defs: 'retry' }) }), 'chunks without their features'],
    ['a file state with negative lines', shard({ fileState: { lines: -1 } }), 'a file state for "/t/a.ts" that is not one an indexer writes'],
    ['a file state whose chunk count is not a number', shard({ fileState: { chunks: Number.NaN } }), 'a file state for "/t/a.ts" that is not one an indexer writes'],
    ['a file state of another kind', shard({ fileState: { kind: 'elf' } }), 'a file state for "/t/a.ts" that is not one an indexer writes'],
  ];
  for (const [name, s, why] of rows) it(`refuses ${name}`, () => { expect(stagedProblem(s, keys)).toBe(why); });
});
