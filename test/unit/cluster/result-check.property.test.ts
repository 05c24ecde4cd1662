// readShardResult reads whatever sits in a query's Redis list: it never throws, and what it accepts
// as hits names only the shard's files with finite distances.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readShardResult } from '../../../src/cluster/result-check.js';

const entries = [{ s: 0, path: '/tree/a.ts' }, { s: 1, path: '/tree/b.ts' }];
const hit = fc.record({ path: fc.oneof(fc.constantFrom('/tree/a.ts', '/tree/b.ts', '/etc/passwd'), fc.string()), line: fc.oneof(fc.nat(), fc.double()), start: fc.nat(), distance: fc.oneof(fc.double(), fc.constant(0.5)), lines: fc.oneof(fc.array(fc.string()), fc.anything()) }, { requiredKeys: [] });
const answer = fc.record({
  n: fc.oneof(fc.constant(0), fc.integer(), fc.anything()), worker: fc.oneof(fc.constant('w1'), fc.anything()),
  hits: fc.oneof(fc.array(hit), fc.anything()), closestMiss: fc.oneof(fc.constant(null), hit), warnings: fc.oneof(fc.constant([]), fc.anything()),
  stats: fc.oneof(fc.constant({ files: 1, lines: 2, bytes: 3, skipped: 0, binary: 0, errors: 0, ms: 1.5 }), fc.anything()),
}, { requiredKeys: [] });

describe('readShardResult', () => {
  it('never throws, and accepted hits are the shard\'s files with finite distances', () => {
    fc.assert(fc.property(fc.oneof(answer.map((a) => JSON.stringify(a)), fc.string()), (raw) => {
      const r = readShardResult(raw, (n) => (n === 0 ? entries : undefined));
      if (!r.ok || 'error' in r.result || r.result.n !== 0) return;
      for (const h of [...r.result.hits, ...(r.result.closestMiss ? [r.result.closestMiss] : [])]) {
        expect(['/tree/a.ts', '/tree/b.ts']).toContain(h.path);
        expect(Number.isFinite(h.distance)).toBe(true);
      }
    }), { numRuns: 500 });
  });

  it('a genuine answer is accepted as it is', () => {
    const genuine = { n: 0, worker: 'w1', hits: [{ path: '/tree/a.ts', line: 3, start: 2, distance: 0.25, lines: ['x', 'y'] }], closestMiss: null, warnings: [], stats: { files: 1, lines: 2, bytes: 3, skipped: 0, binary: 0, errors: 0, ms: 1.5 } };
    expect(readShardResult(JSON.stringify(genuine), () => entries)).toEqual({ ok: true, result: genuine });
  });
});
