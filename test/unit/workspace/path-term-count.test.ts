// A query term's count in a path's text, worked out word by word with the words' counts kept across
// paths (candidates.ts), equals countTerms over the whole text, which the one-shot scan uses.
import { describe, expect, it } from 'vitest';
import { countTerms } from '../../../src/rank/chunk-scorer.js';
import { pathText } from '../../../src/rank/lexical/terms.js';
import { bundledLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan, type RankPlan } from '../../../src/rank/plan.js';
import { pathInfo, pathTermCount } from '../../../src/workspace/snapshot/path-info.js';

const PATHS = [
  'src/upload/retry-upload.ts', 'src/upload/retryUpload.test.ts', 'lib/Upload Retry/retry_upload.py',
  'a/b/c/d/e/file-768.py', './file-768.py', 'file.py', 'docs/RETRY.md', 'x/3d-model/model3d.go',
  'İstanbul/Upload/retryİ.ts', 'src/ÄÖÜ/uploadFiles.rs', 'src/upload/upload-upload-upload.c', 'configs/config.config.json',
  'a\\windows\\Config\\parse_config.cs', 'src/HTTPServer/httpServer.go', '.hidden/.retryrc', 'v2/768file/42retry_9upload.py', 'a$b/__init__/UPLOADS.txt', 'src/retry--upload..ts', 'x/ab\u212Aabkab.ts', 'x/a\u212Akk.ts',
];
const QUERIES = ['abkab', 'kk', 'retry failed uploads', 'parse the config file', 'upload', 'http server model', 'file', 'istanbul retry'];

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
