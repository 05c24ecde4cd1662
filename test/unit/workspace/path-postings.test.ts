// The path postings (issue 30: the candidate pass finds the paths that hold a query term per term, not
// per file) count each covered path's terms as pathTermCounts does, which equals countTerms over the
// whole path text (path-term-count.test.ts): ASCII paths run by run, others counted whole.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { bundledLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan } from '../../../src/rank/plan.js';
import { termIndexOf } from '../../../src/rank/term-index.js';
import { pathInfo, pathTermCounts } from '../../../src/workspace/snapshot/path-info.js';
import { buildPathPostings, pathTermsOf } from '../../../src/workspace/search/path-postings.js';
import type { SnapshotFile } from '../../../src/workspace/snapshot/snapshot.js';
import { repoRoot } from '../../helpers/shared.js';

const PATHS = [
  'src/upload/retry-upload.ts', 'src/upload/retryUpload.test.ts', 'lib/Upload Retry/retry_upload.py',
  'a/b/c/d/e/file-768.py', './file-768.py', 'file.py', 'docs/RETRY.md', 'x/3d-model/model3d.go',
  'İstanbul/Upload/retryİ.ts', 'src/ÄÖÜ/uploadFiles.rs', 'src/upload/upload-upload-upload.c', 'configs/config.config.json',
  'a\\windows\\Config\\parse_config.cs', 'src/HTTPServer/httpServer.go', '.hidden/.retryrc', 'v2/768file/42retry_9upload.py', 'a$b/__init__/UPLOADS.txt', 'src/retry--upload..ts', 'x/ab\u212Aabkab.ts', 'x/a\u212Akk.ts',
  'how-to-delete-default-pr-1/mod-6/file-364.ts', 'how-to-emit-raw-componen-27/mod-1/file-6935.go', 'docs/search-strings/file_search_stats.md', 'x/search/stat-file.ts',
];
const PASTED = readFileSync(path.join(repoRoot, 'src/searcher.ts'), 'utf8');
const QUERIES = ['abkab', 'kk', 'retry failed uploads', 'parse the config file', 'upload', 'http server model', 'file', 'istanbul retry', 'RetryUpload', PASTED];

describe('path postings', () => {
  it('give each covered path the terms and counts pathTermCounts gives it, for every query, whole and partial cover', () => {
    const files = PATHS.map((key) => ({ key }) as SnapshotFile);
    const infos = PATHS.map((p) => pathInfo(p));
    const postings = buildPathPostings(files, infos);
    let hits = 0;
    for (const q of QUERIES) {
      const plan = buildRankPlan(q, 'hybrid', bundledLexicon());
      const index = termIndexOf(plan);
      for (const cover of [(f: number) => true, (f: number) => f % 3 !== 1]) {
        const covered = Uint8Array.from(PATHS, (_, f) => (cover(f) ? 1 : 0));
        const start = new Int32Array(PATHS.length).fill(-1);
        const end = new Int32Array(PATHS.length);
        const term: number[] = [7];
        const count: number[] = [7];
        pathTermsOf(postings, plan, index, covered, start, end, term, count);
        PATHS.forEach((p, f) => {
          const tf = new Float64Array(plan.terms.length);
          const touched: number[] = [];
          pathTermCounts(infos[f], plan, tf, touched, index);
          const expected = covered[f] === 1 ? touched.map((t) => [t, tf[t]]) : [];
          const got = start[f] < 0 ? [] : Array.from({ length: end[f] - start[f] }, (_, i) => [term[start[f] + i], count[start[f] + i]]);
          expect(got, `${p} for ${q.slice(0, 40)}`).toEqual(expected);
          hits += got.length;
        });
        // What was there before is kept.
        expect([term[0], count[0]]).toEqual([7, 7]);
      }
    }
    expect(hits).toBeGreaterThan(60);
  });
});
