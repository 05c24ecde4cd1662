// What an action's `distance` means per mode (src/actions/distance.ts): line distances pass through;
// ranked modes report 1 - r/r_self in 0..1, and max_distance maps onto the searcher's internal
// 1/(1+r) so that exactly the hits reported below it are kept (property).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { internalMaxDistance, reportedDistance, type DistanceScale } from '../../src/actions/distance.js';

describe('action distances', () => {
  it('line: the cosine distance itself, and max_distance as given', () => {
    const line: DistanceScale = { mode: 'line', selfRelevance: 1 };
    expect([reportedDistance(line, 1.25), internalMaxDistance(line, 0.3), internalMaxDistance(line, undefined)]).toEqual([1.25, 0.3, undefined]);
  });

  it('ranked: 0 at (or above) the query\'s own relevance, 1 at no relevance', () => {
    const s: DistanceScale = { mode: 'hybrid', selfRelevance: 0.6 };
    expect(reportedDistance(s, 1 / (1 + 0.6))).toBeCloseTo(0, 12);
    expect(reportedDistance(s, 1 / (1 + 2))).toBe(0);
    expect(reportedDistance(s, 1 / (1 + 0.3))).toBeCloseTo(0.5, 12);
    expect(reportedDistance(s, 1)).toBe(1);
    expect([internalMaxDistance(s, 0), internalMaxDistance(s, 1), internalMaxDistance(s, 5)]).toEqual([0, Infinity, Infinity]);
  });

  it('ranked (property): a hit is kept by the internal threshold exactly when its reported distance is below max_distance', () => {
    fc.assert(fc.property(
      fc.constantFrom('hybrid', 'semantic', 'lexical'), fc.double({ min: 0.01, max: 5, noNaN: true }),
      fc.double({ min: 0.001, max: 0.999, noNaN: true }), fc.double({ min: 0, max: 1.5, noNaN: true }),
      (mode, selfRelevance, internal, maxDistance) => {
        const s: DistanceScale = { mode, selfRelevance };
        const reported = reportedDistance(s, internal);
        expect(reported).toBeGreaterThanOrEqual(0);
        expect(reported).toBeLessThanOrEqual(1);
        const kept = internal < internalMaxDistance(s, maxDistance)!;
        // Away from the boundary (float rounding), both sides agree.
        if (Math.abs(reported - maxDistance) > 1e-9) expect(kept).toBe(reported < maxDistance);
      },
    ), { numRuns: 500 });
  });
});
