// Prose is ranked line by line (rank/prose.ts). Bug pinned: over a document, the default mode ranked
// 48-line chunks, so a chunk that repeats the query's words in many lines beat the one line that
// answers the question (issue 31). Also: the workspace index answers a prose search exactly as a scan.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearcher, type SearchOptions, type SearchResponse } from '../../src/searcher.js';
import { createWorkspace, type Workspace } from '../../src/workspace/workspace.js';

let tmp = '';
let tree = '';
let story = '';
let ws: Workspace;
const searcher = createSearcher({ concurrency: 0 });
/** The line that answers "who built the castle" (0-based). */
const ANSWER = 70;

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-prose-'));
  tree = path.join(tmp, 'tree');
  mkdirSync(tree);
  const lines: string[] = [];
  // The first chunk (lines 0-47) names the castle and building in many lines, never together.
  for (let i = 0; i < 48; i++) lines.push(i % 2 === 0 ? `The castle wall number ${i} faces the river and the old town.` : `Houses were built along street ${i} in the same years.`);
  // The second chunk: one line answers; the others are about something else.
  for (let i = 48; i < 96; i++) lines.push(i === ANSWER ? 'The castle was built by King Henry in 1120 on the hill.' : `Merchants sold wool and salt at the market on day ${i}.`);
  story = path.join(tree, 'story.txt');
  writeFileSync(story, `${lines.join('\n')}\n`);
  writeFileSync(path.join(tree, 'castle.py'), 'def build_castle(walls):\n    """Builds a castle from walls."""\n    return sum(walls)\n');
  ws = createWorkspace({ dir: path.join(tmp, 'ws'), concurrency: 0 });
  await ws.index([tree]);
});
afterAll(async () => {
  await ws?.close();
  await searcher.close();
  rmSync(tmp, { recursive: true, force: true });
});

const shape = (r: SearchResponse) => r.results.map((x) => ({ path: x.path, line: x.match_line, distance: Math.round(x.distance * 1e6) / 1e6 }));

describe('prose lines', () => {
  it('a document ranked by 48-line chunks shows a line of the chunk that repeats the words, not the line that answers', async () => {
    const r = await searcher.search({ query: 'who built the castle', paths: [story], topK: 1, nLines: 0, merge: false });
    expect(r.results.map((x) => x.match_line)).toEqual([ANSWER]);
  });

  it('the workspace index answers a prose search exactly as a scan, beside code', async () => {
    for (const query of ['who built the castle', 'wool market', 'build_castle']) {
      for (const mode of ['hybrid', 'lexical', 'semantic'] as const) {
        const o: SearchOptions = { query, mode, paths: [tree], topK: 5, nLines: 1 };
        const [scan, indexed] = [await searcher.search(o), await ws.search(o)];
        expect(indexed.stats.index?.workspace).toBeDefined();
        expect([query, mode, shape(indexed)]).toEqual([query, mode, shape(scan)]);
      }
    }
  });
});
