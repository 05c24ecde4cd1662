// Issue 30 (branch tokens30): a resident process keeps each counted prose document's line tokens; a warm
// search's prose lines within reach take their ids from them instead of being tokenized again, and score
// exactly as a scan scores them. A search that folds case tokenizes (the kept tokens keep it).
import { describe, expect, it, vi } from 'vitest';
import type { TokenizedBatch } from '../../../src/types.js';
import { keptLinesCounted } from '../../../src/workspace/search/kept-documents.js';
import { residentTree } from '../../helpers/resident-tree.js';
import { rounded } from '../../helpers/rounded.js';

/** Prose lines the scorers tokenized (their texts), search by search. */
let tokenized = 0;
vi.mock('../../../src/embed/prose-scoring.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../src/embed/prose-scoring.js')>();
  return {
    ...real,
    scoreProseRanges: (...args: Parameters<typeof real.scoreProseRanges>) => {
      const tokenize = args[2];
      args[2] = (texts: string[]): TokenizedBatch => { tokenized += texts.length; return tokenize(texts); };
      return real.scoreProseRanges(...args);
    },
  };
});

const WORDS = ['garden', 'tomato', 'soil', 'water', 'sunlight', 'compost', 'seed', 'harvest', 'weed', 'mulch', 'orchard', 'pruning'];
const doc = (n: number) => Array.from({ length: 40 }, (_, i) => (i % 7 === 3 ? '' : `The ${WORDS[(n + i) % WORDS.length]} Needs ${WORDS[(n * 5 + i) % WORDS.length]} after the upload ${n}.${i}.`)).join('\n');
const FILES: Record<string, string> = {
  'docs/uploads.md': ['# Uploads', '', 'Failed uploads are Retried three times.', 'Retry after a failed upload waits a second.', ...Array.from({ length: 12 }, (_, i) => `Line ${i} about the meadow.`)].join('\n'),
  'src/upload.ts': 'export async function retryUpload(file: string) {\n  return upload(file);\n}\n',
};
for (let n = 0; n < 8; n++) FILES[`docs/garden-${n}.md`] = doc(n);

const t = residentTree(FILES);

describe('prose lines within reach take their kept line tokens (issue 30, branch tokens30)', () => {
  it('a warm search tokenizes no line of a counted document, and answers as the scan does; folding case tokenizes', async () => {
    const opts = (o: object) => ({ query: 'water the garden after an upload', paths: [t.dir], topK: 30, ...o });
    await t.ws.search(opts({}));
    await keptLinesCounted();
    for (const o of [{}, { maxDistance: 0.999 }, { topK: 5 }, { mode: 'semantic' as const }]) {
      tokenized = 0;
      const r = await t.ws.search(opts(o));
      const warm = tokenized;
      expect(rounded(r)).toEqual(rounded(await t.scan.search(opts(o))));
      expect(r.results.some((x) => /garden-\d\.md$/.test(x.filename))).toBe(true);
      expect({ o, warm }).toEqual({ o, warm: 0 });
    }
    tokenized = 0;
    const folded = await t.ws.search(opts({ ignoreCase: true }));
    const warm = tokenized;
    expect(rounded(folded)).toEqual(rounded(await t.scan.search(opts({ ignoreCase: true }))));
    expect(warm).toBeGreaterThan(0);
  });
});
