import { describe, expect, it } from 'vitest';
import { toRootPath, toUpstreamPath, type RepoSpec } from '../../../bench/quality/dataset.js';
import { parseLsTree } from '../../../bench/quality/git-export.js';
import { meansOver } from '../../../bench/quality/published.js';
import { protocolResult, repoGains, summarize, type QueryResult } from '../../../bench/quality/results.js';

// One query whose "hit" list finds its only target at rank 1 (NDCG 1) or not at all (NDCG 0).
const q = (repo: string, found: boolean, category: QueryResult['category'] = 'semantic'): QueryResult => ({
  repo, index: 0, query: 'q', category, targets: ['t'],
  methods: { m: { hit: protocolResult(found ? ['t'] : ['x'], ['t']), file: protocolResult([], ['t']) } },
});

describe('quality aggregation', () => {
  it('per language: the mean over the language\'s repos, each repo weighing the same whatever its query count', () => {
    // go: repo a = 1/1, repo b = 1/4 -> (1 + 0.25) / 2; rust: repo c = 0.5.
    const queries = [q('a', true), q('b', true), q('b', false), q('b', false), q('b', false), q('c', true), q('c', false)];
    const s = summarize(queries, 'm', 'hit', { a: 'go', b: 'go', c: 'rust' });
    expect(s.byLanguage.go.ndcg).toBeCloseTo(0.625, 12);
    expect(s.byLanguage.rust.ndcg).toBeCloseTo(0.5, 12);
    expect(Object.keys(s.byLanguage)).toEqual(['go', 'rust']);
    expect(s.overall.ndcg).toBeCloseTo((1 + 0.25 + 0.5) / 3, 12);
  });

  it('per language: a repo without a language counts as "unknown"', () => {
    expect(Object.keys(summarize([q('a', true)], 'm', 'hit').byLanguage)).toEqual(['unknown']);
  });

  it('hybrid minus lexical: per-repo gains, their mean, and the repos below and level', () => {
    const a = summarize([q('r1', true), q('r2', false), q('r3', true)], 'm', 'hit');
    const b = summarize([q('r1', false), q('r2', true), q('r3', true), q('r4', true)], 'm', 'hit');
    const g = repoGains(a, b);
    expect(g.perRepo).toEqual([
      { repo: 'r1', a: 1, b: 0, gain: 1 },
      { repo: 'r2', a: 0, b: 1, gain: -1 },
      { repo: 'r3', a: 1, b: 1, gain: 0 },
    ]);
    expect(g.mean).toBe(0);
    expect(g.below).toBe(1);
    expect(g.ties).toBe(1);
  });
});

describe('quality dataset paths', () => {
  const spec = (root: string | null): RepoSpec => ({ name: 'r', language: 'x', url: '', revision: '', benchmark_root: root });

  it('strips benchmark_root from upstream targets and keeps root-relative ones (pandoc, zls) as they are', () => {
    expect(toRootPath(spec('src/Text/Pandoc'), 'src/Text/Pandoc/Writers/LaTeX.hs')).toBe('Writers/LaTeX.hs');
    expect(toRootPath(spec('src/Text/Pandoc'), 'Writers/LaTeX.hs')).toBe('Writers/LaTeX.hs');
    expect(toRootPath(spec('lib/'), 'lib/a.ex')).toBe('a.ex');
  });

  it('a null benchmark_root (the whole repo) leaves paths unchanged both ways', () => {
    expect(toRootPath(spec(null), 'nvm.sh')).toBe('nvm.sh');
    expect(toUpstreamPath(spec(null), 'lib/x.bash')).toBe('lib/x.bash');
    expect(toUpstreamPath(spec('src'), 'server.c')).toBe('src/server.c');
  });
});

describe('git snapshot listing', () => {
  it('keeps regular files under the prefix, prefix-relative; drops symlinks, submodules and hidden entries', () => {
    const out = [
      '100644 blob aaa\tsrc/a.c', '100755 blob bbb\tsrc/tools/run.sh', '120000 blob ccc\tsrc/link',
      '160000 commit ddd\tsrc/vendor', '100644 blob eee\tsrc/.gitattributes', '100644 blob fff\tsrc/.github/ci.yml',
      '100644 blob ggg\tsrc/name with\ttab.c',
    ].join('\0') + '\0';
    expect(parseLsTree(out, 'src')).toEqual(['a.c', 'tools/run.sh', 'name with\ttab.c']);
    expect(parseLsTree('100644 blob aaa\tnvm.sh\0', '')).toEqual(['nvm.sh']);
  });
});

describe('published figures', () => {
  it('means over the given repos, skipping repos without a figure', () => {
    const byRepo = { a: { semble: 0.9, BM25: 0.5 }, b: { semble: 0.7 }, c: { semble: 0.1, BM25: 0.1 } };
    const m = meansOver(byRepo, ['a', 'b'], [{ id: 'semble', label: '' }, { id: 'BM25', label: '' }]);
    expect(m.semble).toBeCloseTo(0.8, 12);
    expect(m.BM25).toBeCloseTo(0.5, 12);
  });
});
