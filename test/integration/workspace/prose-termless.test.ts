// Issue 30 (branch warm37): a warm search reads prose documents that hold none of its terms (a one-identifier
// question: ~400 documents a search on the bench tree) only where their lines' cosine bounds leave some line
// within reach. Such a document's lines are neither counted (their lexical scores are 0: its kept line terms
// say it holds no term) nor decoded where their kept bounds drop them; the answers are the scan's.
import { describe, expect, it } from 'vitest';
import { proseScoringWork } from '../../../src/embed/prose-scoring.js';
import { keptLinesCounted } from '../../../src/workspace/search/kept-documents.js';
import { residentTree } from '../../helpers/resident-tree.js';
import { rounded } from '../../helpers/rounded.js';

const WORDS = ['garden', 'tomato', 'soil', 'water', 'sunlight', 'compost', 'seed', 'harvest', 'weed', 'mulch', 'orchard', 'pruning', 'request', 'handler', 'retry'];
const doc = (n: number) => Array.from({ length: 60 }, (_, i) => (i % 9 === 4 ? '   ' : `The ${WORDS[(n + i) % WORDS.length]} needs ${WORDS[(n * 7 + i) % WORDS.length]} and ${WORDS[(n * 3 + 2 * i) % WORDS.length]} ${i}.`)).join('\n');
const FILES: Record<string, string> = {
  'src/interceptor.ts': 'export class InterceptorManager {\n  use(handler: unknown) {\n    return this.handlers.push(handler);\n  }\n}\n',
  'src/dispatch.ts': 'export function dispatchRequest(config: object) {\n  return new InterceptorManager();\n}\n',
  'docs/interceptors.md': '# Interceptors\n\nThe InterceptorManager keeps the handlers.\n\nUse it before a request.\n',
};
for (let n = 0; n < 12; n++) FILES[`docs/notes-${n}.md`] = doc(n);
// Enough hits to fill the top-k before the documents are read, so their lines' bounds prune.
for (let n = 0; n < 24; n++) FILES[`src/use-${n}.ts`] = `import { InterceptorManager } from './interceptor';\nexport const manager${n} = new InterceptorManager();\n`;
// Windows line ends and a last line without one.
FILES['docs/crlf.txt'] = `${doc(20).replaceAll('\n', '\r\n')}\r\nthe last request handler retry`;

const t = residentTree(FILES);

describe('prose documents that hold no term of a warm search (issue 30, branch warm37)', () => {
  it('are scored from their kept lines\' bounds, reading few lines, and the answers are the scan\'s', async () => {
    const opts = (o: object) => ({ query: 'InterceptorManager', paths: [t.dir], ...o });
    await t.ws.search(opts({}));
    await keptLinesCounted();
    let some = false;
    // (Since score45 a maxDistance beside topK applies to the hits shown, after the file spreading, and bounds no
    // line scored: maxDistance alone, which still does, is what prunes these documents' lines below a full heap.)
    for (const o of [{ topK: 3 }, { topK: 5 }, { topK: 40 }, { topK: 5, maxDistance: 0.9 }, { topK: 40, maxDistance: 0.97 }, { topK: 40, maxDistance: 0.99 }, { maxDistance: 0.97 }, { maxDistance: 0.99 }, { topK: 3, query: 'request handler for the garden' }, { topK: 3, mode: 'semantic' as const }]) {
      const before = proseScoringWork();
      const r = await t.ws.search(opts(o));
      const after = proseScoringWork();
      expect(rounded(r)).toEqual(rounded(await t.scan.search(opts(o))));
      const ranges = after.termlessRanges - before.termlessRanges;
      const lines = after.termlessLines - before.termlessLines;
      const read = after.termlessRead - before.termlessRead;
      expect(read).toBeLessThanOrEqual(lines);
      // Lines of those documents among the hits, others of their lines pruned unread.
      if (ranges > 0 && read < lines && r.results.some((x) => /notes-\d+\.md$|crlf\.txt$/.test(x.filename))) some = true;
    }
    // Some search took the documents from their bounds, showed some of their lines and read fewer than they have.
    expect(some).toBe(true);
  });

  it('a search that folds case counts their lines as before', async () => {
    const opts = { query: 'InterceptorManager', paths: [t.dir], topK: 3, ignoreCase: true };
    const before = proseScoringWork().termlessRanges;
    const r = await t.ws.search(opts);
    expect(proseScoringWork().termlessRanges).toBe(before);
    expect(rounded(r)).toEqual(rounded(await t.scan.search(opts)));
  });
});
