// The seeds' algorithm, exactly (issue 29 §2): search.semantic, search.semantic_content and
// search.workspace_search by default embed each line alone and report its cosine distance; the lines
// and distances must be Python model2vec's. The expected values below were printed by
// bench/reference/model2vec-line-search.py (model2vec's encode + semtools' cosine ranking, checked
// against the Python model2vec outputs in ../shared/fixtures/model2vec) on test-model-vocab-quantized:
//   model2vec-line-search.py ../shared/fixtures/model2vec vocab-quantized QUERY < the LINES below
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActionEngine, createActions, type Action, type ActionEngine } from '../../../src/index.js';
import { isolatedHome } from '../../helpers/isolated-home.js';
import { hasShared, model2vecFixtures } from '../../helpers/shared.js';

const LINES = [
  'Retry the failed upload with exponential backoff.',
  'Parse the YAML configuration file at startup.',
  'The database connection pool is exhausted.',
  'QA gate: CONCERNS - several issues found in error handling.',
  'Render the login button on the home page.',
  'Uploads that fail are retried three times.',
  'network timeout while sending the request',
  'Acceptance criteria met, all tests pass.',
];

/** [0-based line, cosine distance] ascending, from the Python reference. */
const PYTHON: Record<string, [number, number][]> = {
  'retry failed uploads': [[5, 0.23628603957524474], [0, 0.4537151896036744], [3, 0.6837107459178815], [6, 0.725066764669726], [7, 0.7842965342296631], [4, 0.844541786304799], [2, 0.8849797650792534], [1, 1.0153963000272326]],
  'QA gate result: pass, concerns or fail': [[3, 0.207449518677556], [0, 0.4072466387690268], [7, 0.5347066204562938], [5, 0.5457526465046694], [6, 0.6311005879985014], [2, 0.7613665473227287], [4, 1.0500788432680026], [1, 1.1350673371819282]],
};

type Result = { filename: string; lines: string[]; start: number; end: number; match_line: number; distance: number };

describe.skipIf(!hasShared)('the seeds\' line search = Python model2vec (test-model-vocab-quantized)', () => {
  let home: ReturnType<typeof isolatedHome>;
  let engine: ActionEngine;
  let actions: Record<string, Action>;
  let file = '';

  beforeAll(() => {
    home = isolatedHome();
    file = path.join(home.dir, 'story.md');
    writeFileSync(file, `${LINES.join('\n')}\n`);
    engine = createActionEngine({ concurrency: 0, model: path.join(model2vecFixtures, 'test-model-vocab-quantized'), collectionsDir: 'memory' });
    actions = createActions(engine);
  });
  afterAll(async () => { await engine.close(); home.restore(); });

  const ranked = (r: Record<string, unknown>) => (r.results as Result[]).map((x) => [x.match_line, x.distance] as [number, number]);
  const expectSame = (got: [number, number][], want: [number, number][]) => {
    expect(got.map(([l]) => l)).toEqual(want.map(([l]) => l));
    got.forEach(([, d], i) => expect(Math.abs(d - want[i][1])).toBeLessThan(1e-6));
  };

  it.each(Object.keys(PYTHON))('search.semantic_content, default mode: every line, ranked and scored as Python (%s)', async (query) => {
    const r = await actions['search.semantic_content']({}, { query, content: LINES.join('\n'), top_k: 100, n_lines: 0 });
    expectSame(ranked(r), PYTHON[query]);
  });

  it.each(Object.keys(PYTHON))('search.semantic and search.workspace_search, default mode: the same lines and distances (%s)', async (query) => {
    const r = await actions['search.semantic']({}, { query, paths: [file], top_k: 100, n_lines: 0 });
    expectSame(ranked(r), PYTHON[query]);
    await actions['search.workspace_create']({}, { name: 'seeds', paths: [file] });
    const w = await actions['search.workspace_search']({}, { workspace: 'seeds', query, top_k: 100, n_lines: 0 });
    expectSame(ranked(w), PYTHON[query]);
  });

  it('max_distance 0.3 (the seeds\' documented threshold) finds exactly the lines Python finds below 0.3; top_k caps; context is clamped to the file', async () => {
    for (const query of Object.keys(PYTHON)) {
      const r = await actions['search.semantic']({}, { query, paths: [file], max_distance: 0.3, n_lines: 1 });
      expectSame(ranked(r), PYTHON[query].filter(([, d]) => d < 0.3));
      expect(ranked(r).length).toBe(1);
    }
    const top = await actions['search.semantic']({}, { query: 'retry failed uploads', paths: [file], top_k: 2, n_lines: 2 });
    expect((top.results as Result[]).map((x) => [x.match_line, x.start, x.end])).toEqual([[5, 3, 8], [0, 0, 3]]);
    expect((top.results as Result[])[1].lines).toEqual(LINES.slice(0, 3));
  });

  it('every mode reaches distance 0: a query that is the whole content is a perfect match; the documented 0.3 stays reachable', async () => {
    const content = 'Uploads that fail are retried three times.';
    for (const mode of ['line', 'semantic', 'hybrid', 'lexical']) {
      const r = await actions['search.semantic_content']({}, { query: content, content, mode, max_distance: 0.3, n_lines: 0 });
      expect([mode, (r.results as Result[]).map((x) => x.distance)]).toEqual([mode, [expect.closeTo(0, 6)]]);
    }
  });
});
