// A ranking plan's identity across the worker boundary (embed/plan-key.ts, first36): a worker got each
// batch's plan as a new structured clone, so the memos keyed by a plan's objects (the term index, each
// identifier run's terms, the probes' patterns) were worked out again for every batch of a scan. The
// pool names each plan it sends; a scorer then scores every batch of that plan with the first object.
import { describe, expect, it } from 'vitest';
import { createLineScorer } from '../../../src/embed/line-scorer.js';
import { KEPT_PLANS, knownPlan, planKeyOf } from '../../../src/embed/plan-key.js';
import { withoutTokens } from '../../../src/pool.js';
import type { ScoreRequest } from '../../../src/embed/requests.js';
import { loadModel } from '../../../src/model/load.js';
import { bundledModelDir } from '../../../src/model/default-model.js';
import { bundledLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan, type RankPlan } from '../../../src/rank/plan.js';

const LINES = [
  'export function registerRequestHandler(router, handler) {',
  '  router.handlers.push(handler); // the request handler, registered',
  '  return () => router.handlers.splice(router.handlers.indexOf(handler), 1);',
  '}',
  '',
  'const retries = 3;',
];

function request(plan: RankPlan, query: Float32Array, planKey?: number): ScoreRequest {
  const bytes = new TextEncoder().encode(LINES.map((l) => `${l}\n`).join(''));
  const offsets = new Uint32Array(LINES.length + 1);
  for (let i = 0, at = 0; i < LINES.length; i++) { at += new TextEncoder().encode(LINES[i]).length + 1; offsets[i + 1] = at; }
  return {
    bytes, offsets, scoreRanges: Uint32Array.of(0, LINES.length), query, queryKey: 'q', ignoreCase: false,
    chunks: { plan, planKey, rangeFirstLines: Uint32Array.of(0), rangePaths: ['src/router.ts'] },
  };
}

describe('a plan named across the worker boundary', () => {
  it('is numbered once per plan object, a new object another number', () => {
    const plan = buildRankPlan('where is the request handler registered', 'hybrid', bundledLexicon());
    expect(planKeyOf(plan)).toBe(planKeyOf(plan));
    expect(planKeyOf(structuredClone(plan))).not.toBe(planKeyOf(plan));
  });

  it('keeps the first object received under a number, for the last few numbers', () => {
    const a = buildRankPlan('retry failed uploads', 'hybrid', bundledLexicon());
    const key = planKeyOf(a);
    const first = structuredClone(a);
    expect(knownPlan(key, first)).toBe(first);
    expect(knownPlan(key, structuredClone(a))).toBe(first);
    for (const q of ['one', 'two', 'three', 'four']) { const p = buildRankPlan(q, 'hybrid', bundledLexicon()); knownPlan(planKeyOf(p), p); }
    const again = structuredClone(a);
    expect(knownPlan(key, again)).toBe(again);
  });

  it('drops the least recently used plan, not one still in use while other searches come and go', () => {
    const a = buildRankPlan('retry failed uploads again', 'hybrid', bundledLexicon());
    const key = planKeyOf(a);
    const first = structuredClone(a);
    knownPlan(key, first);
    // More searches than are kept start while `a`'s scan goes on, batch after batch.
    for (let i = 0; i < 3 * KEPT_PLANS; i++) {
      const p = buildRankPlan(`another search ${i}`, 'hybrid', bundledLexicon());
      knownPlan(planKeyOf(p), p);
      expect(knownPlan(key, structuredClone(a)), `after ${i + 1} others`).toBe(first);
    }
  });

  it('is named by the pool on every score request it sends: the same plan object the same number, a new one another', () => {
    const plan = buildRankPlan('where is the request handler registered', 'hybrid', bundledLexicon());
    const query = new Float32Array(4);
    const withTokens = { ...request(plan, query), chunks: { ...request(plan, query).chunks!, rangeTokens: [null] } } as ScoreRequest;
    const sent = withoutTokens(withTokens);
    expect(sent.chunks!.planKey).toBeTypeOf('number');
    expect(sent.chunks!.plan).toBe(plan);
    expect(sent.chunks).not.toHaveProperty('rangeTokens');
    expect(withoutTokens(request(plan, query)).chunks!.planKey).toBe(sent.chunks!.planKey);
    const other = withoutTokens(request(structuredClone(plan), query)).chunks!.planKey;
    expect(other).toBeTypeOf('number');
    expect(other).not.toBe(sent.chunks!.planKey);
  });

  it("is scored batch after batch with the plan object the scorer first received, to the same distances", async () => {
    const model = await loadModel(bundledModelDir(), { offline: true });
    const scorer = await createLineScorer(model, 'static');
    try {
      const plan = buildRankPlan('where is the request handler registered', 'hybrid', bundledLexicon());
      const query = await scorer.embedTexts([plan.terms.map((t) => t.key).join(' ')]);
      const plain = await scorer.score(request(plan, query));
      // As a worker gets them: a structured clone a batch, named by the pool.
      const key = planKeyOf(plan);
      const r1 = request(structuredClone(plan), query, key);
      const r2 = request(structuredClone(plan), query, key);
      const first = r1.chunks!.plan;
      expect(r2.chunks!.plan).not.toBe(first);
      const d1 = await scorer.score(r1);
      const d2 = await scorer.score(r2);
      expect(r2.chunks!.plan).toBe(first);
      expect([...d1]).toEqual([...plain]);
      expect([...d2]).toEqual([...plain]);
      expect(plain.some((d) => d === d)).toBe(true);
    } finally {
      await scorer.close();
    }
  });
});
