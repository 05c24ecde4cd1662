// The one rule for whether an index answers a search, and whether it answers one beside an index run of this
// process (searches, simgrep serve's server and its start message share it: integ41).
import { describe, expect, it } from 'vitest';
import { answersBesideIndexRun, indexUse } from '../../../src/workspace/index-use.js';

const meta = (o: Record<string, string>) => ({ format: '2', model: 'm', roots: JSON.stringify(['/nowhere/tree']), ...o });

describe('indexUse and answersBesideIndexRun', () => {
  const rows: [string, Parameters<typeof indexUse>[0], string[], boolean, string | null][] = [
    ['complete, this model, covering roots', { ok: true, m: meta({ complete: '3.1' }) }, ['/nowhere/tree/sub'], true, null],
    ['a first build (no run completed)', { ok: true, m: meta({}) }, ['/nowhere/tree'], false, null],
    ['empty', { ok: true, m: null }, ['/nowhere/tree'], false, 'it is empty'],
    ['another model', { ok: false, why: 'it was built with model a, not b', m: meta({ complete: '3.1' }) }, ['/nowhere/tree'], false, 'it was built with model a, not b'],
    ['other roots', { ok: true, m: meta({ complete: '3.1' }) }, ['/nowhere'], false, 'it indexes /nowhere/tree, not all of /nowhere'],
  ];
  for (const [name, c, paths, beside, why] of rows) {
    it(name, () => {
      const use = indexUse(c, paths);
      expect([answersBesideIndexRun(use, { local: true }), use.ok ? null : use.why]).toEqual([beside, why]);
      // An object store's index has no lock for the search to see the run by: never beside it.
      expect(answersBesideIndexRun(use, { local: false })).toBe(false);
    });
  }
});
