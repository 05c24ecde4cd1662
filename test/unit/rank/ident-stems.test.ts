// A defined name's parts' stems, kept by name (rank/chunk-scorer.ts stemsOf, up to 50,000 names): the
// name is read in place from a decoded range, and V8 makes a slice of 13 characters or more a view of
// its whole source, so each name kept a range alive (32 ranges of 512 KB held 16 MB after GC).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { nameCoverage } from '../../../src/rank/chunk-scorer.js';
import { bundledLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan } from '../../../src/rank/plan.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

describe('a defined name\'s kept stems', () => {
  it('keep the name, not the range it was read from', () => {
    const plan = buildRankPlan('retry failed uploads', 'hybrid', bundledLexicon());
    const coverage = nameCoverage('retryFailedUploadNumber0000', plan);
    expect(coverage).toBeGreaterThan(0);
    gc();
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 32; i++) {
      // A flat text of 512 KB (a batch range's decoded lines), a defined name of 27 characters at its start.
      const bytes = Buffer.alloc(512 << 10, 0x20);
      const name = `retryFailedUploadNumber${String(i + 1).padStart(4, '0')}`;
      bytes.write(name, 'latin1');
      expect(nameCoverage(bytes.toString('latin1').slice(0, name.length), plan)).toBe(coverage);
    }
    gc();
    gc();
    const held = process.memoryUsage().heapUsed - before;
    // 32 texts of 512 KB: 16 MB if each name kept its text alive.
    expect(held).toBeLessThan(4 << 20);
    expect(nameCoverage('retryFailedUploadNumber0007', plan)).toBe(coverage);
  });
});
