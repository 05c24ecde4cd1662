// The owners of the thread's run tables (rank/run-table.ts: a plan's run hits, term-index.ts; its run grams,
// prose-run-terms.ts): an owner whose list starts over (plans taking turns for long) counts the same after as before.
import { afterEach, describe, expect, it } from 'vitest';
import { countRun, termIndexOf } from '../../../src/rank/term-index.js';
import { asciiLineTerms, runScratch } from '../../../src/rank/prose-run-terms.js';
import { HASH_START, hashStep, identifierRuns, runTableLimits } from '../../../src/rank/run-table.js';
import { parseLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan, type RankPlan } from '../../../src/rank/plan.js';

const lexicon = parseLexicon('#docs\t1000\nretry\t20\nupload\t30\nqueue\t40\ncastle\t10\nking\t50\n');
const hashOf = (w: string) => { let h = HASH_START; for (let i = 0; i < w.length; i++) h = hashStep(h, w.charCodeAt(i)); return h; };
const idOf = (w: string) => identifierRuns.id(w, 0, w.length, hashOf(w));
/** The plan's terms counted for run `w`, each once per count. */
const counted = (plan: RankPlan, w: string) => {
  const tf = new Float64Array(plan.terms.length);
  countRun(termIndexOf(plan), plan, idOf(w), tf, []);
  return plan.terms.flatMap((t, k) => Array<string>(tf[k]).fill(t.key)).sort();
};
const plan = (q: string) => buildRankPlan(q, 'hybrid', lexicon);

const defaults = { ...runTableLimits };
afterEach(() => Object.assign(runTableLimits, defaults));

describe("a plan's run grams", () => {
  it('count the same grams when plans take turns over the same lines, their lists starting over past the bound', () => {
    runTableLimits.list = 40;
    const queries = ['which mode should I use to search a document', 'how the castle king retries an upload queue'];
    const lines = [
      'The search mode of a document decides which castle queue to use.',
      'retryUploadQueue and the king use modes to search documents',
      'a castle king searched the document mode upload queues',
    ].map((l) => `${l} zq38g`);
    const alone = queries.map((q) => lines.map((l) => asciiLineTerms(l, plan(q), runScratch(plan(q)))));
    const plans = queries.map(plan);
    expect(plans.every((p) => p.prose !== null && p.prose!.grams.length > 0)).toBe(true);
    const scratch = plans.map(runScratch);
    const start = scratch.map((s) => s.rg!.token);
    let restarts = 0;
    for (let i = 0; i < 200; i++)
      for (let l = 0; l < lines.length; l++)
        for (let k = 0; k < plans.length; k++) {
          const before = scratch[k].rg!.token;
          expect(asciiLineTerms(lines[l], plans[k], scratch[k]), `${queries[k]} / ${l}`).toEqual(alone[k][l]);
          if (scratch[k].rg!.token !== before) restarts++;
          expect(scratch[k].rg!.grams.length).toBeLessThanOrEqual(runTableLimits.list + 64);
        }
    expect(restarts).toBeGreaterThan(10);
    expect(scratch.map((s) => s.rg!.token)).not.toEqual(start);
  });
});
