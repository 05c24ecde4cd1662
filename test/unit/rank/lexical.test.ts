// Identifier-aware terms, the query plan and chunk statistics of hybrid/lexical ranking.
import { describe, expect, it } from 'vitest';
import { identifierParts, pathTerms, stem } from '../../../src/rank/lexical/terms.js';
import { idf, parseLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan } from '../../../src/rank/plan.js';
import { chunkStats, countTerms, definedName, fusedDistance, lexicalScore, semanticBudget } from '../../../src/rank/chunk-scorer.js';

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
  });
});

describe('rank plan', () => {
  it('keeps meaningful words as stemmed terms and drops question words', () => {
    const plan = buildRankPlan('how are routes registered', 'hybrid', lexicon);
    expect(plan.terms.map((t) => t.key)).toEqual([stem('routes'), stem('registered')]);
    expect(plan.symbols).toEqual([]);
  });

  it('looks for a compound identifier whole and by parts, and as a symbol', () => {
    const plan = buildRankPlan('field_validator', 'hybrid', lexicon);
    expect(plan.terms.map((t) => [t.key, t.whole])).toEqual([['field_validator', true], ['field', false], [stem('validator'), false]]);
    expect(plan.symbols).toEqual(['field_validator']);
    expect(buildRankPlan('Blueprint', 'lexical', lexicon).symbols).toEqual(['blueprint']);
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

  it('finds the names that definition lines define', () => {
    expect(definedName('class Blueprint(Scaffold):')).toBe('Blueprint');
    expect(definedName('  async def render_template(name):')).toBe('render_template');
    expect(definedName('export default function mergeConfig(a, b) {')).toBe('mergeConfig');
    expect(definedName('  static from(value) {')).toBe('from');
    expect(definedName('  if (x) {')).toBeNull();
    expect(definedName('module.exports.retry = retry;')).toBe('retry');
    expect(definedName('x = 1')).toBeNull();
  });

  it('cuts chunks at file lines that are multiples of the chunk size and picks the line with most terms', () => {
    const lines = Array.from({ length: 70 }, (_, i) => (i === 40 ? 'def retry_upload(): pass  # failed' : i === 45 ? 'retry' : `x${i} = ${i}`));
    const stats = chunkStats(lines, 10, 'src/io/net.py', plan);
    // File lines 10..79 with chunks at 0, 32, 64: range lines [0,22), [22,54), [54,70).
    expect(stats.map((s) => [s.from, s.to])).toEqual([[0, 22], [22, 54], [54, 70]]);
    expect(stats[1].best).toBe(40 - 22);
    expect(stats[1].bm25).toBeGreaterThan(0);
    expect(stats[0].bm25).toBe(0);
    expect(stats[0].best).toBe(-1);
    expect(stats[1].symbol).toBeGreaterThan(0);
  });

  it('counts path terms in every chunk of the file', () => {
    const stats = chunkStats(['nothing here'], 0, 'lib/uploads/retry.js', plan);
    expect(stats[0].bm25).toBeGreaterThan(0);
    expect(stats[0].best).toBe(-1);
    expect(stats[0].first).toBe(0);
  });

  it('fuses into a distance that falls as either signal rises, and budgets the semantic part exactly', () => {
    const a = fusedDistance(0.5, 0.2, 0, plan);
    expect(fusedDistance(0.6, 0.2, 0, plan)).toBeLessThan(a);
    expect(fusedDistance(0.5, 0.3, 0, plan)).toBeLessThan(a);
    expect(fusedDistance(0.5, 0.2, 1, plan)).toBeLessThan(a);
    const budget = semanticBudget(a, 0.2, 0, plan);
    expect(1 - budget).toBeCloseTo(0.5, 10);
    expect(lexicalScore(plan.idfSum, plan)).toBeCloseTo(0.5, 10);
  });
});
