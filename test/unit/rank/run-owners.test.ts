// The owners of the thread's run tables (rank/run-table.ts: a plan's run hits, term-index.ts; its run grams,
// prose-run-terms.ts): an owner made before the tokens come round counts what a fresh one does, and an owner
// whose list starts over (plans taking turns for long) counts the same after as before.
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

describe('the run tables when the tokens come round', () => {
  it('an owner made before counts, after many owners passed the wrap, what a fresh plan of its query does', () => {
    const queries = ['retry uploads quietly', 'queue the upload retries', 'queue', 'upload', 'retry the queue'];
    const words = ['retryUploadQueue', 'uploadQueue', 'RetryUploads', 'queueRetry', 'nothingHere', 'upload_retry_queue'].map((w) => `${w}Zq38w`);
    const before = queries.map(plan);
    for (const p of before) for (const w of words) counted(p, w);
    const tokens = before.map((p) => termIndexOf(p).runHits!.token);
    // The tokens come round soon, and again and again: the old owners' tokens are taken by new owners.
    runTableLimits.tokens = Math.max(...tokens);
    for (let i = 0; i < 6 * runTableLimits.tokens; i++) {
      const p = plan(queries[i % queries.length]);
      for (const w of words) counted(p, w);
    }
    for (let k = 0; k < queries.length; k++)
      for (const w of words) expect(counted(before[k], w), `${queries[k]} / ${w}`).toEqual(counted(plan(queries[k]), w));
  });

  it('with the tokens coming round every few owners, plans taking turns count what fresh ones do', () => {
    runTableLimits.tokens = 3;
    const queries = ['retry uploads quietly', 'queue the upload retries', 'queue', 'king castle'];
    const words = ['retryUploadQueue', 'uploadQueue', 'kingCastle', 'queueRetry', 'castle_upload'].map((w) => `${w}Zq38t`);
    const alone = queries.map((q) => words.map((w) => counted(plan(q), w)));
    const plans = queries.map(plan);
    for (let round = 0; round < 20; round++)
      for (let w = 0; w < words.length; w++) {
        const k = (round * 7 + w) % plans.length;
        // A new plan now and then takes a token (and the tokens come round).
        if ((round + w) % 3 === 0) counted(plan(queries[(k + 1) % queries.length]), words[w]);
        expect(counted(plans[k], words[w]), `${queries[k]} / ${words[w]}`).toEqual(alone[k][w]);
      }
  });
});

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
