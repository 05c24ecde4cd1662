import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildBm25Index, chunkLines, luceneIdf, pathTokens, searchBm25 } from '../../../bench/quality/bm25.js';

describe('BM25 baseline', () => {
  it('chunks whole lines greedily up to the character budget; a longer line stands alone', () => {
    const text = 'aaaa\nbbbb\ncccc\n' + 'x'.repeat(20) + '\n\n\nzz';
    expect(chunkLines(text, 10).map((c) => [c.start, c.end])).toEqual([[0, 2], [2, 3], [3, 4], [4, 7]]);
  });

  it('adds the file stem twice and the last three directory names', () => {
    expect(pathTokens('packages/server/src/adapters/node-http/incomingMessageToRequest.ts')).toEqual([
      'incomingmessagetorequest', 'incoming', 'message', 'to', 'request',
      'incomingmessagetorequest', 'incoming', 'message', 'to', 'request',
      'src', 'adapters', 'node', 'http',
    ]);
  });

  it('uses Lucene idf', () => {
    expect(luceneIdf(10, 3)).toBeCloseTo(1.1451323043, 9);
  });

  const dir = mkdtempSync(path.join(os.tmpdir(), 'simgrep-bm25-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('indexes code files only and ranks by BM25 with k1 1.5, b 0.75', () => {
    mkdirSync(path.join(dir, 'pkg'));
    writeFileSync(path.join(dir, 'pkg', 'retry.py'), 'def retry_upload():\n    return upload()\n');
    writeFileSync(path.join(dir, 'pkg', 'other.py'), 'def download():\n    pass\n');
    writeFileSync(path.join(dir, 'README.md'), 'retry retry retry upload\n');
    const index = buildBm25Index(dir, (rel) => `up/${rel}`);
    expect(index.codeFiles).toBe(2);
    expect(index.chunks.map((c) => c.file)).toEqual(['up/pkg/other.py', 'up/pkg/retry.py']);
    const ranked = searchBm25(index, 'retry');
    expect(ranked.map((c) => c.file)).toEqual(['up/pkg/retry.py']);
    // retry.py: def retry_upload retry upload return upload + retry retry up pkg = 10 tokens, "retry" x3;
    // other.py: def download pass + other other up pkg = 7 tokens. avgdl 8.5, N 2, df 1.
    const idf = Math.log(1 + (2 - 1 + 0.5) / (1 + 0.5));
    expect(ranked[0].score).toBeCloseTo((idf * 3) / (3 + 1.5 * (1 - 0.75 + (0.75 * 10) / 8.5)), 9);
  });
});
