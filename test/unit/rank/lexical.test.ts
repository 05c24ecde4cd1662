// Identifier-aware terms, the query plan and chunk statistics of hybrid/lexical ranking.
import { describe, expect, it } from 'vitest';
import { identifierParts, pathTerms, stem } from '../../../src/rank/lexical/terms.js';
import { idf, parseLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan, namesIdentifier, RANK_DEFAULTS } from '../../../src/rank/plan.js';
import { chunkStats, countTerms, nameCoverage } from '../../../src/rank/chunk-scorer.js';
import { lexicalScore, relevance, semanticBudget, toDistance, toRelevance } from '../../../src/rank/relevance.js';
import { pathSignals } from '../../../src/rank/path-signals.js';
import { boostCoherentFiles, spreadAcrossFiles } from '../../../src/rank/diversify.js';

const lexicon = parseLexicon('#docs\t1000\nthe\t990\nrequest\t300\nretry\t20\nupload\t25\nfail\t60\nroute\t40\nregister\t30\n');

describe('identifier terms', () => {
  it('splits snake_case, camelCase and acronyms into lower-cased parts', () => {
    expect(identifierParts('parseHTTPResponse_v2')).toEqual(['parse', 'http', 'response', 'v', '2']);
    expect(identifierParts('field_validator')).toEqual(['field', 'validator']);
    expect(identifierParts('InterceptorManager')).toEqual(['interceptor', 'manager']);
  });

  it('stems the forms a query and code use for one word to one key', () => {
    expect(stem('routes')).toBe(stem('route'));
    expect(stem('registered')).toBe(stem('register'));
    expect(stem('handling')).toBe(stem('handle'));
    expect(stem('sessions')).toBe(stem('session'));
    expect(stem('status')).toBe('status');
    expect(stem('handler')).not.toBe(stem('handle'));
  });

  it('takes the file stem twice and the last three directories of a path', () => {
    expect(pathTerms('a/b/c/d/sessions.py')).toEqual(['sessions', 'sessions', 'b', 'c', 'd']);
    expect(pathTerms('./x.test.ts')).toEqual(['x', 'x']);
  });
});

describe('lexicon', () => {
  it('gives rare terms a higher idf than common ones, and unknown terms the highest', () => {
    expect(idf(lexicon, 'retry')).toBeGreaterThan(idf(lexicon, 'request'));
    expect(idf(lexicon, 'request')).toBeGreaterThan(idf(lexicon, 'the'));
    expect(idf(lexicon, 'zzz')).toBeGreaterThan(idf(lexicon, 'retry'));
  });

  it('rejects a file without the #docs header or with a bad line, saying what it expected', () => {
    expect(() => parseLexicon('a\t1\n')).toThrow(/#docs/);
    expect(() => parseLexicon('#docs\t3\nnope\n')).toThrow(/term<TAB>count/);
    // Anywhere in the file, with the line named: a count that is not a number, a missing term.
    expect(() => parseLexicon('#docs\t3\nok\t1\nretry\tmany\nz\t2\n')).toThrow(/bad line "retry\tmany"/);
    expect(() => parseLexicon('#docs\t3\n\t4\n')).toThrow(/term<TAB>count/);
    // Blank lines and CRLF endings are read; the header may come after terms.
    const l = parseLexicon('retry\t2\r\n\n#docs\t10\r\nupload\t5');
    expect([l.docs, l.df('retry'), l.df('upload'), l.df('missing')]).toEqual([10, 2, 5, 0]);
  });
});

describe('rank plan', () => {
  it('keeps meaningful words as stemmed terms and drops question words', () => {
    const plan = buildRankPlan('how are routes registered', 'hybrid', lexicon);
    expect(plan.terms.map((t) => t.key)).toEqual([stem('routes'), stem('registered')]);
    expect(plan.symbols).toEqual([]);
    expect(plan.pathWords).toEqual(['routes', 'registered']);
  });

  it('treats a lone identifier as a symbol query and CamelCase words in a sentence as half-strength symbols', () => {
    const plan = buildRankPlan('field_validator', 'hybrid', lexicon);
    expect(plan.terms.map((t) => [t.key, t.whole])).toEqual([['field_validator', true], ['field', false], [stem('validator'), false]]);
    expect(plan.symbols).toEqual([{ name: 'field_validator', strength: 1 }]);
    expect(plan.weights.semantic).toBe(0);
    expect(buildRankPlan('field validation', 'hybrid', lexicon).weights.semantic).toBe(RANK_DEFAULTS.semanticNl);
    expect(buildRankPlan('Blueprint', 'lexical', lexicon).symbols).toEqual([{ name: 'blueprint', strength: 1 }]);
    expect(buildRankPlan('how safeParse reports errors', 'hybrid', lexicon).symbols).toEqual([{ name: 'safeparse', strength: 0.5 }]);
    expect(buildRankPlan('session', 'hybrid', lexicon).symbols).toEqual([]);
  });

  it('gives the embedding no weight in a query that names an identifier, whole or inside a sentence', () => {
    const weight = (q: string) => buildRankPlan(q, 'hybrid', lexicon).weights.semantic;
    expect(['JsonConverter', 'Runtime', 'a.b.c', 'how safeParse reports errors', 'where field_validator runs', 'how ZodType parses'].map(weight))
      .toEqual([0, 0, 0, 0, 0, 0]);
    expect(['how are routes registered', 'waiting for any of several futures to complete', 'JSON schema generation', 'retry'].map(weight))
      .toEqual([0.25, 0.25, 0.25, 0.25]);
    expect(namesIdentifier('how safeParse reports errors')).toBe(true);
    expect(namesIdentifier('JSON and HTTP parsing')).toBe(false);
    expect(buildRankPlan('JsonConverter', 'semantic', lexicon).weights.semantic).toBe(1);
  });

  it('turns the path priors off when the query asks for tests', () => {
    expect(buildRankPlan('retry upload', 'hybrid', lexicon).pathPriors).toBe(true);
    expect(buildRankPlan('tests for retry upload', 'hybrid', lexicon).pathPriors).toBe(false);
  });
});

describe('chunk statistics', () => {
  const plan = buildRankPlan('retry failed uploads', 'hybrid', lexicon);

  it('counts terms inside identifiers, not inside unrelated words', () => {
    const tf = new Float64Array(plan.terms.length);
    expect(countTerms('def retryUpload(self): # failed_uploads', plan, tf)).toBe(true);
    expect([...tf]).toEqual([1, 1, 2]);
    tf.fill(0);
    expect(countTerms('const retryable = uploader.sailfail;', plan, tf)).toBe(false);
  });

  it('cuts chunks at file lines that are multiples of the chunk size and picks the line with most terms', () => {
    const lines = Array.from({ length: 70 }, (_, i) => (i === 40 ? 'def retry_upload(): pass  # failed' : i === 45 ? 'retry' : `x${i} = ${i}`));
    const stats = chunkStats(lines, 10, 'src/io/net.py', { ...plan, chunkLines: 32 });
    // File lines 10..79 with chunks at 0, 32, 64: range lines [0,22), [22,54), [54,70).
    expect(stats.map((s) => [s.from, s.to])).toEqual([[0, 22], [22, 54], [54, 70]]);
    expect(stats[1].best).toBe(40 - 22);
    expect(stats[1].bm25).toBeGreaterThan(0);
    expect(stats[0].bm25).toBe(0);
    expect(stats[0].best).toBe(-1);
    // Query words in a defined name give a partial boost (retry, upload: not failed); none when off.
    expect(stats[1].symbol).toBeCloseTo(plan.definitionBoost * nameCoverage('retry_upload', plan), 12);
    expect(stats[1].symbol).toBeGreaterThan(0);
    expect(chunkStats(lines, 10, 'src/io/net.py', { ...plan, chunkLines: 32, definitionBoost: 0 })[1].symbol).toBe(0);
    // A symbol query boosts the chunk that defines it, more so in a file named after it.
    const symbolPlan = { ...buildRankPlan('retry_upload', 'hybrid', lexicon), chunkLines: 32 };
    expect(chunkStats(lines, 10, 'src/io/net.py', symbolPlan)[1].symbol).toBe(1);
    expect(chunkStats(lines, 10, 'src/io/retry_upload.py', symbolPlan)[1].symbol).toBe(1.5);
  });

  it('measures the share of the query idf that a defined name covers', () => {
    const idfOf = (key: string) => plan.terms.find((t) => t.key === key)!.idf;
    expect(nameCoverage('retry_upload', plan)).toBeCloseTo((idfOf('retry') + idfOf('upload')) / plan.idfSum, 12);
    expect(nameCoverage('retryFailedUploads', plan)).toBeCloseTo(1, 12);
    expect(nameCoverage('render_template', plan)).toBe(0);
  });

  it('gives symbol queries no definition boost of their own (they have the symbol boost)', () => {
    expect(buildRankPlan('retry_upload', 'hybrid', lexicon).definitionBoost).toBe(0);
    expect(plan.definitionBoost).toBeGreaterThan(0);
  });

  it('counts path terms in every chunk of the file', () => {
    const stats = chunkStats(['nothing here'], 0, 'lib/uploads/retry.js', plan);
    expect(stats[0].bm25).toBeGreaterThan(0);
    expect(stats[0].best).toBe(-1);
    expect(stats[0].first).toBe(0);
  });

  it('fuses into a distance that falls as any signal rises, and budgets the semantic part exactly', () => {
    const path = pathSignals('src/net.py', plan);
    const a = toDistance(relevance(0.5, 0.2, 0, path, plan));
    expect(toDistance(relevance(0.6, 0.2, 0, path, plan))).toBeLessThan(a);
    expect(toDistance(relevance(0.5, 0.3, 0, path, plan))).toBeLessThan(a);
    expect(toDistance(relevance(0.5, 0.2, 1, path, plan))).toBeLessThan(a);
    expect(toRelevance(toDistance(0.75))).toBeCloseTo(0.75, 12);
    expect(1 - semanticBudget(a, 0.2, 0, path, plan)).toBeCloseTo(0.5, 10);
    expect(semanticBudget(Infinity, 0.2, 0, path, plan)).toBe(2);
    expect(lexicalScore(plan.idfSum, plan)).toBeCloseTo(0.5, 10);
  });
});

describe('path signals', () => {
  const plan = buildRankPlan('session management', 'hybrid', lexicon);

  it('matches query words to the file stem and its directory by prefix', () => {
    expect(pathSignals('src/flask/sessions.py', plan).pathMatch).toBe(0.5);
    expect(pathSignals('src/management/session_store.py', plan).pathMatch).toBe(1);
    expect(pathSignals('src/app.py', plan).pathMatch).toBe(0);
  });

  it('down-weights tests, examples and re-export files', () => {
    expect(pathSignals('src/app.py', plan).prior).toBe(1);
    expect(pathSignals('tests/test_app.py', plan).prior).toBeLessThan(1);
    expect(pathSignals('lib/app.test.ts', plan).prior).toBeLessThan(1);
    expect(pathSignals('examples/app.js', plan).prior).toBeLessThan(1);
    expect(pathSignals('pkg/__init__.py', plan).prior).toBeLessThan(1);
  });
});

describe('spreading results across files', () => {
  const hit = (path: string, line: number, distance: number) => ({ path, line, distance, start: line, lines: ['x'] });

  it('lets a second file in before a third chunk of the first', () => {
    const picked = spreadAcrossFiles([hit('a', 1, 0.3), hit('a', 50, 0.31), hit('a', 90, 0.32), hit('b', 1, 0.4)], 2, 0.5, 0.2);
    expect(picked.map((h) => [h.path, h.line])).toEqual([['a', 1], ['b', 1]]);
  });

  it('raises the best chunk of a file with several candidates above a lone slightly better chunk', () => {
    const candidates = [hit('b', 1, 0.29), hit('a', 1, 0.3), hit('a', 50, 0.35)];
    expect(spreadAcrossFiles(candidates, 2, 0.5, 0).map((h) => h.path)).toEqual(['b', 'a']);
    expect(spreadAcrossFiles(candidates, 2, 0.5, 0.2).map((h) => h.path)).toEqual(['a', 'b']);
  });

  it('boosts only each file best chunk, by the file summed relevance over the largest sum', () => {
    const boosted = boostCoherentFiles([hit('b', 1, 0.29), hit('a', 1, 0.3), hit('a', 50, 0.35)], 0.2);
    const best = toRelevance(0.29);
    const sumA = toRelevance(0.3) + toRelevance(0.35);
    expect(toRelevance(boosted[1].distance)).toBeCloseTo(toRelevance(0.3) + 0.2 * best, 10);
    expect(toRelevance(boosted[0].distance)).toBeCloseTo(best + 0.2 * best * (best / sumA), 10);
    expect(boosted[2].distance).toBe(0.35);
    expect(boostCoherentFiles([hit('a', 1, 0.3)], 0)[0].distance).toBe(0.3);
  });

  it('keeps every candidate in order when all come from different files', () => {
    const picked = spreadAcrossFiles([hit('b', 1, 0.4), hit('a', 1, 0.3), hit('c', 1, 0.5)], 3, 0.5, 0.2);
    expect(picked.map((h) => h.path)).toEqual(['a', 'b', 'c']);
  });
});
