// The data-file prior: which names are data (tables, record streams, lockfiles, minified bundles,
// source maps), and how the prior enters a chunk's relevance in each mode and for each query.
import { describe, expect, it } from 'vitest';
import { DATA_FILE_PRIOR, isDataFile } from '../../../src/rank/data-files.js';
import { parseLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan } from '../../../src/rank/plan.js';
import { chunkStats } from '../../../src/rank/chunk-scorer.js';
import { lexicalScore, relevance, semanticBudget, toDistance } from '../../../src/rank/relevance.js';
import { pathFacts, pathSignals } from '../../../src/rank/path-signals.js';

const lexicon = parseLexicon('#docs\t1000\nretry\t20\nupload\t25\nfail\t60\nrepo\t40\n');

describe('data file names', () => {
  it('names tables, record streams, lockfiles, minified bundles and source maps', () => {
    const data = ['lexicon.tsv', 'Scores.CSV', 'events.jsonl', 'log.ndjson', 'yarn.lock', 'Cargo.lock', 'poetry.lock', 'Gemfile.lock',
      'gradle.lockfile', 'package-lock.json', 'npm-shrinkwrap.json', 'pnpm-lock.yaml', 'packages.lock.json', 'go.sum', 'app.min.js',
      'vendor.min.mjs', 'jquery-3.7.1-min.js', 'site.min.css', 'bundle.js.map', 'style.css.map'];
    const code = ['retry.ts', 'package.json', 'tsconfig.json', 'pyproject.toml', 'go.mod', 'lock.ts', 'clock.py', 'admin.js', 'minimal.js',
      'min.js', 'sitemap.xml', 'roadmap.md', 'map.ts', 'csv_reader.py', 'tsv.rs', 'README.md', 'Makefile', 'data.json', 'lexicon.ts'];
    expect(data.filter((f) => !isDataFile(f))).toEqual([]);
    expect(code.filter((f) => isDataFile(f))).toEqual([]);
  });

  it('are a fact of the file name, not of its directories', () => {
    expect(pathFacts('src/model/bundled/lexicon.tsv').data).toBe(true);
    expect(pathFacts('C:\\repo\\data\\scores.csv').data).toBe(true);
    expect(pathFacts('data.csv/loader.py').data).toBe(false);
    expect(pathFacts('src/sources/remote/retry.ts').data).toBe(false);
  });
});

describe('the data-file prior', () => {
  const query = 'where do we retry failed uploads';

  it('weighs a data file as a test file in hybrid and lexical mode, and multiplies with the test prior', () => {
    for (const mode of ['hybrid', 'lexical'] as const) {
      const plan = buildRankPlan(query, mode, lexicon);
      expect(plan.dataPrior).toBe(true);
      expect(pathSignals('src/model/bundled/lexicon.tsv', plan).prior).toBe(DATA_FILE_PRIOR);
      expect(pathSignals('src/sources/remote/retry.ts', plan).prior).toBe(1);
      expect(pathSignals('tests/fixtures/uploads.csv', plan).prior).toBeCloseTo(0.3 * DATA_FILE_PRIOR, 12);
    }
  });

  it('is off in semantic mode, which ranks by the embedding alone', () => {
    const plan = buildRankPlan(query, 'semantic', lexicon);
    expect(plan.dataPrior).toBe(false);
    expect(pathSignals('src/model/bundled/lexicon.tsv', plan).prior).toBe(1);
  });

  it('is off when the query names a data format, and stays on when it asks for tests', () => {
    for (const q of ['which tsv lists the repos', 'CSV of upload failures', 'where is the lockfile read', 'retry the lock file', 'minified bundle', 'source maps', 'a data file of retries']) {
      expect(buildRankPlan(q, 'hybrid', lexicon).dataPrior, q).toBe(false);
    }
    const tests = buildRankPlan('tests for retrying failed uploads', 'hybrid', lexicon);
    expect(tests.pathPriors).toBe(false);
    expect(tests.dataPrior).toBe(true);
    expect(pathSignals('tests/fixtures/uploads.csv', tests).prior).toBe(DATA_FILE_PRIOR);
  });

  it('multiplies the relevance of the same text: a table that stands alone stays findable', () => {
    const plan = buildRankPlan(query, 'hybrid', lexicon);
    const lines = ['failed\t1203', 'retry\t880', 'uploads\t412', 'where\t9001'];
    const relevanceIn = (path: string) => {
      const signals = pathSignals(path, plan);
      const [c] = chunkStats(lines, 0, path, plan, signals);
      return relevance(0.5, lexicalScore(c.bm25, plan), c.symbol, signals, plan);
    };
    // Same directory and stem: the path terms are the same, only the extension differs.
    const table = relevanceIn('model/words.tsv');
    const code = relevanceIn('model/words.py');
    expect(table).toBeCloseTo(DATA_FILE_PRIOR * code, 12);
    expect(table).toBeGreaterThan(0);
    expect(toDistance(table)).toBeLessThan(1);
  });

  it('enters the semantic budget as the other priors do, so pruning stays exact', () => {
    const plan = buildRankPlan(query, 'hybrid', lexicon);
    const signals = pathSignals('model/lexicon.tsv', plan);
    const bar = 0.7;
    const budget = semanticBudget(bar, 0.4, 0, signals, plan);
    expect(toDistance(relevance(1 - budget, 0.4, 0, signals, plan))).toBeCloseTo(bar, 12);
  });
});

// pathSignals keeps each path's signals for the last plan asked (a search asks for a file's from its
// chunks' ranges and its prose bounds): another plan must get its own, asked in any order.
describe('pathSignals kept for the last plan', () => {
  it('gives each plan its own signals, whatever was asked before', () => {
    const lexicon = parseLexicon('#docs\t1000\nretry\t20\nupload\t30\n');
    const a = buildRankPlan('retry uploads', 'hybrid', lexicon);
    const b = buildRankPlan('lexicon tables', 'lexical', lexicon);
    const paths = ['src/retry/uploads.ts', 'src/model/bundled/lexicon.tsv', 'tests/test_retry.py'];
    const fresh = (plan: typeof a) => paths.map((p) => { const s = pathSignals(p, plan, pathFacts(p)); return [s.pathMatch, s.prior, s.fileStem]; });
    const wanted = [a, b].map((plan) => paths.map((p) => { const s = pathSignals(p, { ...plan }); return [s.pathMatch, s.prior, s.fileStem]; }));
    expect(wanted[0]).not.toEqual(wanted[1]);
    for (const plan of [a, b, a, b]) expect(fresh(plan)).toEqual(wanted[plan === a ? 0 : 1]);
  });
});
