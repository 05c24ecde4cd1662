// A query term's count in a path's text, worked out word by word with the words' counts kept across
// paths (candidates.ts), equals countTerms over the whole text, which the one-shot scan uses.
import { describe, expect, it } from 'vitest';
import { countTerms } from '../../../src/rank/chunk-scorer.js';
import { pathText } from '../../../src/rank/lexical/terms.js';
import { bundledLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan, type RankPlan } from '../../../src/rank/plan.js';
import { pathInfo, pathTermCount, pathTermCounts } from '../../../src/workspace/snapshot/path-info.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../helpers/shared.js';

const PATHS = [
  'src/upload/retry-upload.ts', 'src/upload/retryUpload.test.ts', 'lib/Upload Retry/retry_upload.py',
  'a/b/c/d/e/file-768.py', './file-768.py', 'file.py', 'docs/RETRY.md', 'x/3d-model/model3d.go',
  'İstanbul/Upload/retryİ.ts', 'src/ÄÖÜ/uploadFiles.rs', 'src/upload/upload-upload-upload.c', 'configs/config.config.json',
  'a\\windows\\Config\\parse_config.cs', 'src/HTTPServer/httpServer.go', '.hidden/.retryrc', 'v2/768file/42retry_9upload.py', 'a$b/__init__/UPLOADS.txt', 'src/retry--upload..ts', 'x/ab\u212Aabkab.ts', 'x/a\u212Akk.ts',
  // A skin tone, a presentation selector in a ZWJ sequence: the words have neither (mend36b).
  'docs/👩🏽\u200d💻 guide.md', 'x/👩\u200d❤️\u200d👨/notes.md',
];
const QUERIES = ['abkab', 'kk', 'retry failed uploads', 'parse the config file', 'upload', 'http server model', 'file', 'istanbul retry', '👩\u200d💻 guide', '👩🏿\u200d💻', '👩\u200d❤\u200d👨 notes'];
/** A pasted file (24 terms kept, `file` and `str` among them) and the bench tree's paths, which hold them. */
const PASTED = readFileSync(path.join(repoRoot, 'src/searcher.ts'), 'utf8');
const BENCH_PATHS = ['how-to-delete-default-pr-1/mod-6/file-364.ts', 'how-to-emit-raw-componen-27/mod-1/file-6935.go', 'how-to-fetch-unique-tree-2/mod-8/file-646.ts', 'docs/search-strings/file_search_stats.md', 'x/search/stat-file.ts'];

function whole(text: string, term: RankPlan['terms'][number]): number {
  const tf = new Float64Array(1);
  countTerms(text, { terms: [term] } as RankPlan, tf);
  return tf[0];
}

describe('pathTermCount', () => {
  it('equals countTerms over the whole path text, for every term of every query, twice over', () => {
    let nonzero = 0;
    for (let pass = 0; pass < 2; pass++) {
      for (const q of QUERIES) {
        for (const term of buildRankPlan(q, 'hybrid', bundledLexicon()).terms) {
          for (const p of PATHS) {
            const expected = whole(pathText(p), term);
            expect(pathTermCount(pathInfo(p), term), `${term.key} in ${p}`).toBe(expected);
            if (expected > 0) nonzero++;
          }
        }
      }
    }
    expect(nonzero).toBeGreaterThan(20);
  });
});

describe('pathTermCounts (every term of a plan at once, run by run: issue 30)', () => {
  it('gives the terms pathTermCount counts, ascending, with the same counts, for short and pasted queries, twice over', () => {
    let nonzero = 0;
    for (let pass = 0; pass < 2; pass++) {
      for (const q of [...QUERIES, PASTED]) {
        const plan = buildRankPlan(q, 'hybrid', bundledLexicon());
        for (const p of [...PATHS, ...BENCH_PATHS]) {
          const tf = new Float64Array(plan.terms.length);
          const touched: number[] = [];
          pathTermCounts(pathInfo(p), plan, tf, touched);
          const expected = plan.terms.map((term) => whole(pathText(p), term));
          expect([...tf], `${q.slice(0, 30)} in ${p}`).toEqual(expected);
          expect(touched).toEqual(expected.flatMap((n, t) => (n > 0 ? [t] : [])));
          nonzero += touched.length;
        }
      }
    }
    expect(nonzero).toBeGreaterThan(40);
  });

  it('counts an emoji term in a path that holds it with a skin tone or a selector (mend36b: the probe was looked for in the path lower-cased, tone kept)', () => {
    for (const [q, p] of [['👩\u200d💻', 'docs/👩🏽\u200d💻 guide.md'], ['👩🏿\u200d💻', 'docs/👩🏽\u200d💻 guide.md'], ['👩\u200d❤\u200d👨', 'x/👩\u200d❤️\u200d👨/notes.md']]) {
      const plan = buildRankPlan(q, 'hybrid', bundledLexicon());
      const tf = new Float64Array(plan.terms.length);
      pathTermCounts(pathInfo(p), plan, tf, []);
      expect(tf[0], `${q} in ${p}`).toBeGreaterThan(0);
      expect(tf[0], `${q} in ${p}`).toBe(whole(pathText(p), plan.terms[0]));
    }
  });
});
