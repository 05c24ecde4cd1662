import { describe, expect, it } from 'vitest';
import { fileList, hitList, mrrAt, ndcgAt, pathMatches, recallAt, score } from '../../../bench/quality/metrics.js';

// Expected values are computed by hand: DCG = sum(rel_i / log2(i + 2)), 0-based i.
describe('quality metrics', () => {
  it('NDCG@10: one target at rank 2 scores 1/log2(3)', () => {
    expect(ndcgAt(['x', 'a', 'y'], ['a'])).toBeCloseTo(0.6309297536, 9);
  });

  it('NDCG@10: two targets at ranks 1 and 3 score 1.5 / (1 + 1/log2(3))', () => {
    expect(ndcgAt(['a', 'x', 'b'], ['a', 'b'])).toBeCloseTo(0.9197207891, 9);
  });

  it('NDCG@10: three targets, two found at ranks 2 and 5, ideal over three slots', () => {
    expect(ndcgAt(['x', 'b', 'y', 'z', 'c', 'w'], ['a', 'b', 'c'])).toBeCloseTo(0.4776237035, 9);
  });

  it('"hit" lists: a target repeated in later slots gains once', () => {
    expect(ndcgAt(['x', 'a', 'a', 'a'], ['a'])).toBeCloseTo(0.6309297536, 9);
  });

  it('only the top 10 count', () => {
    const eleven = [...'abcdefghij'].map((c) => `f${c}`).concat('t');
    expect(score(eleven, ['t'])).toEqual({ ndcg: 0, recall: 0, mrr: 0 });
  });

  it('more than 10 targets: the ideal is ten ones, recall counts all targets', () => {
    const targets = Array.from({ length: 12 }, (_, i) => `t${i}`);
    expect(ndcgAt(targets.slice(0, 10), targets)).toBeCloseTo(1, 12);
    expect(recallAt(targets.slice(0, 10), targets)).toBeCloseTo(10 / 12, 12);
  });

  it('Recall@10 and MRR', () => {
    expect(recallAt(['x', 'b', 'y'], ['a', 'b'])).toBe(0.5);
    expect(mrrAt(['x', 'y', 'z', 'b', 'a'], ['a', 'b'])).toBe(0.25);
    expect(mrrAt(['x'], ['a'])).toBe(0);
  });

  it('no targets scores 0', () => {
    expect(score(['a'], [])).toEqual({ ndcg: 0, recall: 0, mrr: 0 });
  });

  it('paths match when equal or when one ends with "/" + the other', () => {
    expect(pathMatches('src/flask/app.py', 'src/flask/app.py')).toBe(true);
    expect(pathMatches('flask/app.py', 'src/flask/app.py')).toBe(true);
    expect(pathMatches('src/flask/app.py', 'flask/app.py')).toBe(true);
    expect(pathMatches('src/flask/sansio/app.py', 'src/flask/app.py')).toBe(false);
    expect(pathMatches('src/flask/myapp.py', 'app.py')).toBe(false);
    expect(pathMatches('lib\\core\\Axios.js', 'lib/core/Axios.js')).toBe(true);
  });

  it('"hit" keeps every slot; "file" keeps distinct files in order of first appearance', () => {
    const hits = ['a', 'b', 'a', 'c', 'b', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k'];
    expect(hitList(hits)).toEqual(['a', 'b', 'a', 'c', 'b', 'd', 'e', 'f', 'g', 'h']);
    expect(fileList(hits)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j']);
  });
});
