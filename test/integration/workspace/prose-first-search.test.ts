// Regression (2026-11-29, branch exact30): the first search of a process that had not counted the prose
// documents (a cold CLI search, a fresh library handle) missed a document's line the scan returns
// (`parseConfig`, lexical, top 30 on the bench tree). Its bound from the index's statistics was within
// the top-k, so its lines' grams were counted from its bytes (search/prose-read-grams.ts), and those
// came back with each gram's lines out of order: the search of a gram's lines (rank/prose-doc-grams.ts
// addLinesGramBm25) missed the best line's grams, its bound came out above what it scores, and the
// document was skipped unread. Here a document holds one strong line among many weak ones, and the
// top-k's floor is swept past it: every first search must answer as the scan does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearcher } from '../../../src/searcher.js';
import { type SearchOptions } from '../../../src/searcher/api.js';
import { createWorkspace } from '../../../src/workspace/workspace.js';
import { indexedTree } from '../../helpers/indexed-tree.js';
import { rounded } from '../../helpers/rounded.js';

const VERBS = ['reads', 'checks', 'merges', 'loads', 'writes', 'copies', 'sorts', 'keeps'];
/**
 * A document with the query's stem in every other line (weak: `config` alone) and its whole word in one
 * line in the middle (strong): the strong line is counted first, and with the others after it, a search
 * of a gram's lines for it went astray (an odd line among the even ones).
 */
const guide = (n: number) => Array.from({ length: 60 }, (_, i) => i === 30 + n
  ? '- Each worker splits the raw document into the queue later (`parseConfig`).'
  : i % 2 === 0 ? `The worker ${VERBS[(i + n) % VERBS.length]} the config of the ${i}th queue before the report of step ${n}.` : `Nothing here but step ${i} of the queue.`).join('\n');
/** Code chunks that call parseConfig among more and more other lines: the strongest candidates. */
const code = (n: number) => Array.from({ length: 8 }, (_, i) => [
  `export function handle${n}x${i}(text: string) {`,
  ...Array.from({ length: (n * 8 + i) % 13 }, (_, j) => `  const v${j} = text.slice(${j}).trim().split(",").map((x) => x.length * ${j});`),
  '  return parseConfig(text);',
  '}',
  ...Array.from({ length: 40 }, () => ''),
].join('\n')).join('\n');
/** Weaker code lines, the query's stems apart among more and more words: candidates at many distances (the top-k's floor moves past the guides' strong lines as k grows). */
const notes = (n: number) => Array.from({ length: 40 }, (_, i) => [
  `// we parse the config ${'and then the rest of the settings '.repeat((i + n) % 12)}(${n}.${i})`,
  `export const note${n}x${i} = ${i};`,
  ...Array.from({ length: 40 }, () => ''),
].join('\n')).join('\n');

const FILES: Record<string, string> = {};
for (let n = 0; n < 4; n++) FILES[`docs/guide-${n}.md`] = guide(n);
for (let n = 0; n < 2; n++) FILES[`src/config-${n}.ts`] = code(n);
for (let n = 0; n < 4; n++) FILES[`src/notes-${n}.ts`] = notes(n);

let tree: { dir: string; cleanup: () => Promise<void> };
let dir = '';
const scan = createSearcher({ concurrency: 0 });
const shape = rounded;

beforeAll(async () => {
  ({ tree, dir } = await indexedTree(FILES));
});
afterAll(async () => {
  await scan.close();
  await tree?.cleanup();
});

describe('the first indexed search answers as the scan (a prose document bounded from the index\'s statistics)', () => {
  it('finds a document\'s strong line among weak ones whatever the top-k\'s floor', async () => {
    let withGuide = 0;
    for (const mode of ['lexical', 'hybrid'] as const) {
      for (const topK of [16, 24, 28, 32, 36]) {
        const opts: SearchOptions = { query: 'parseConfig', mode, topK, nLines: 3, paths: [tree.dir] };
        const expected = await scan.search(opts);
        // A fresh handle each time: nothing counted, every document's bound from the statistics file.
        const ws = createWorkspace({ dir, concurrency: 0, oneShot: true });
        try {
          const r = await ws.search(opts);
          expect(r.stats.index?.workspace).toBeDefined();
          expect({ mode, topK, r: shape(r) }).toEqual({ mode, topK, r: shape(expected) });
        } finally {
          await ws.close();
        }
        if (expected.results.some((x) => /guide-\d\.md$/.test(x.filename))) withGuide++;
      }
    }
    // The guides' strong lines are in most of these answers (before the fix, the first searches from k = 23 up missed some).
    expect(withGuide).toBeGreaterThanOrEqual(6);
  });
});
